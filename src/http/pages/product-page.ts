/**
 * A product's page: what the card is, its ungraded price and the grader x grade matrix with each
 * cell's 80 % interval, age and basis (an estimate marked `~`, as the terminal marks it), the
 * extra grades when asked for, and its price history as a chart. Each price links to its evidence.
 */
import { isEstimated, type PricingBundle, type Slot } from '../../domain/bundle.js';
import { conditionLabel, GRADERS, MATRIX_GRADES } from '../../domain/conditions.js';
import type { HistoryBody } from '../../service/history.js';
import { SLOT_KEYS } from '../../domain/history.js';
import { renderChart, chartData } from './chart-view.js';
import { href, html, Html, usd } from './html.js';

const SELECTED = new Html(' selected');

/** The history ranges the page offers, with the step between their points. */
export const CHART_RANGES = {
  '30d': { days: 30, every: '1d' },
  '90d': { days: 90, every: '1d' },
  '1y': { days: 365, every: '1w' },
} as const;
export type ChartRange = keyof typeof CHART_RANGES;

/** Before an estimated price, as in the terminal (cli/format/bundle-view.ts ESTIMATED_MARK). */
const ESTIMATED = '~';

interface Confidence {
  level: number;
  low_minor: number;
  high_minor: number;
}

/** How old the newest observation is at the bundle's instant: `5 h`, `3 d`. */
function age(slot: Slot): string | null {
  const newest = slot.meta.newest_observation_at;
  if (typeof newest !== 'string') return null;
  const hours = Math.max(0, Math.floor((Date.parse(slot.window_end) - Date.parse(newest)) / 3_600_000));
  return hours < 48 ? `${hours} h` : `${Math.floor(hours / 24)} d`;
}

export interface ProductView {
  bundle: PricingBundle;
  history: HistoryBody;
  /** The slot charted, and the range. */
  chart: string;
  range: ChartRange;
  at: string | undefined;
  extraGrades: boolean;
}

const evidenceHref = (view: ProductView, slot: string) =>
  href(`/products/${encodeURIComponent(view.bundle.product_key)}/evidence`, { slot, at: view.at });

/** A price with its marks and details, linked to its evidence. */
function cell(view: ProductView, slot: Slot): Html {
  if (slot.price_minor === null) {
    const why = slot.meta.no_price_reason ?? slot.error ?? 'no price';
    return html`<span class="none">no price</span><small>${String(why).replaceAll('_', ' ')}</small>`;
  }
  const estimated = isEstimated(slot);
  const c = slot.meta.confidence as Confidence | undefined;
  const old = age(slot);
  return html`<a
      href="${evidenceHref(view, slot.condition_key)}"
      data-slot="${slot.condition_key}"
      class="price${estimated ? ' estimated' : ''}"
      >${estimated ? ESTIMATED : ''}${usd(slot.price_minor)}</a
    >
    <small>${c === undefined ? 'no interval' : `${usd(c.low_minor)} – ${usd(c.high_minor)}`}</small>
    <small
      >${slot.included_points}
      points${old === null ? '' : `, age ${old}`}${estimated ? ', estimate' : ''}${slot.meta.stale === true ? ', stale' : ''}</small
    >`;
}

function matrix(view: ProductView): Html {
  const { graded } = view.bundle;
  return html`<div class="scroll">
    <table class="matrix">
      <caption>
        Graded prices, with the 80 % interval under each
      </caption>
      <thead>
        <tr>
          <th scope="col">Grader</th>
          ${MATRIX_GRADES.map((g) => html`<th scope="col">Grade ${g}</th>`)}
        </tr>
      </thead>
      <tbody>
        ${GRADERS.map(
          (grader) =>
            html`<tr>
              <th scope="row">${grader}</th>
              ${MATRIX_GRADES.map((g) => html`<td>${cell(view, graded[grader][String(g) as '7'])}</td>`)}
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

function extraGrades(view: ProductView): Html {
  const extra = view.bundle.extra_grades;
  if (!view.extraGrades)
    return html`<p>
      <a
        href="${href(`/products/${encodeURIComponent(view.bundle.product_key)}`, { at: view.at, extra_grades: 'true' })}"
        >Show the extra grades</a
      >
      (other graders and half grades with sales in the last 30 days).
    </p>`;
  const slots = Object.values(extra ?? {}).flatMap((grades) => Object.values(grades));
  if (slots.length === 0) return html`<p>No extra grades: no sales of other grades in the last 30 days.</p>`;
  return html`<h2>Extra grades</h2>
    <ul class="extra">
      ${slots.map((s) => html`<li>${s.company} ${s.grade}: ${cell(view, s)}</li>`)}
    </ul>`;
}

function chartForm(view: ProductView): Html {
  return html`<form class="chart-form" method="get">
    ${view.at === undefined ? '' : html`<input type="hidden" name="at" value="${view.at}" />`}
    <label for="chart">Grade</label>
    <select id="chart" name="chart">
      ${SLOT_KEYS.map(
        (s) => html`<option value="${s}" ${s === view.chart ? SELECTED : ''}>${conditionLabel(s)}</option>`,
      )}
    </select>
    <label for="range">Range</label>
    <select id="range" name="range">
      ${Object.keys(CHART_RANGES).map(
        (r) => html`<option value="${r}" ${r === view.range ? SELECTED : ''}>${r}</option>`,
      )}
    </select>
    <button type="submit">Show</button>
  </form>`;
}

export function renderProduct(view: ProductView): Html {
  const { bundle } = view;
  const m = bundle.metadata;
  const image =
    m.image_url === ''
      ? ''
      : html`<img
          src="${m.image_url}"
          alt="${m.product_name}, ${m.subtitle}"
          width="160"
          loading="lazy"
          referrerpolicy="no-referrer"
        />`;
  return html`<section class="identity">
      ${image}
      <dl>
        <dt>Set</dt>
        <dd>${m.set_name}</dd>
        <dt>Number</dt>
        <dd>${m.subtitle || '–'}</dd>
        <dt>Printing</dt>
        <dd>${m.printing ?? 'regular'}</dd>
        <dt>Language</dt>
        <dd>${m.language ?? 'English'}</dd>
        <dt>Type</dt>
        <dd>${m.product_type}, ${m.era}${m.release_date === null ? '' : `, released ${m.release_date}`}</dd>
        <dt>Key</dt>
        <dd><code>${bundle.product_key}</code></dd>
      </dl>
    </section>
    <section aria-labelledby="ungraded">
      <h2 id="ungraded">Ungraded</h2>
      <p class="ungraded">${cell(view, bundle.ungraded)}</p>
    </section>
    <section aria-labelledby="graded">
      <h2 id="graded">Graded</h2>
      ${matrix(view)}
      <p class="legend">
        A price marked ${ESTIMATED} is an estimate from the card's other cells, not its own sales. Window
        ${bundle.window_hours} h, outliers beyond ${bundle.outlier_stddevs} standard deviations left out;
        methodology ${bundle.ungraded.methodology}. Select a price for its evidence.
      </p>
      ${extraGrades(view)}
    </section>
    <section aria-labelledby="history">
      <h2 id="history">Price history</h2>
      ${chartForm(view)}
      ${renderChart(chartData(view.history, view.chart, conditionLabel(view.chart)), `${conditionLabel(view.chart)}, the last ${view.range}, every ${view.history.every}`)}
    </section>`;
}
