/**
 * The analyst's view of a pricing bundle: the ungraded price, then the grader x grade matrix in
 * dollars (graders as rows, grades 7-10 as columns, as a price guide lays them out) with each
 * cell's interval and points, estimated and stale cells marked, then the window and
 * methodology. A sealed product has no grades: only its price. The matrix takes the widest of
 * its layouts that fits the terminal (matrixLayouts); prose lines wrap (terminal.ts).
 */
import { isEstimated, type GradedSlot, type PricingBundle, type Slot } from '../../domain/bundle.js';
import { GRADERS, MATRIX_GRADES, POOLED_GRADER } from '../../domain/conditions.js';
import { HOUR_MS, toIsoUtc } from '../../domain/time.js';
import { variantWords } from './identity.js';
import { formatMinor, formatUsd } from './money.js';
import type { ConvertedFigures, ConvertedRates } from '../../service/currency.js';
import { joinWrapped, palette, wrapLine, type Palette, type Terminal } from './terminal.js';
import { NO_PRICE_LIMITS, NO_PRICE_REASON } from '../../engine/methodology.js';

/** Before a price that is an estimate (meta.basis), as "about": nobody should read it as measured. */
export const ESTIMATED_MARK = '~';
/** After a price whose newest observation is older than 7 days. */
export const STALE_MARK = '!';
const GAP = '  ';

interface Confidence {
  level: number;
  low_minor: number;
  high_minor: number;
}

const isStale = (slot: Slot) => slot.meta.stale === true;

/** In place of the price of a slot whose estimate was withheld (meta.no_price_reason, methodology §9.1). */
const NO_PRICE = 'no price';
const isWithheld = (slot: Slot) => slot.price_minor === null && slot.meta.no_price_reason !== undefined;

/** Why an estimate was withheld, in words. */
function withheldWhy(slot: Slot): string {
  return slot.meta.no_price_reason === NO_PRICE_REASON.stale
    ? `the estimate would rest on data older than ${NO_PRICE_LIMITS.staleAge}`
    : `the estimate would be too uncertain (its 80 % interval over ${NO_PRICE_LIMITS.maxSpread})`;
}

/** A sealed product (a booster box, a pack, a deck): no grades, one price. */
const isSealed = (bundle: PricingBundle) => bundle.metadata.product_type === 'booster_box';

/** The 80 % interval as ±% of the price: half its width, so "±8%" reads "within about 8 %". */
function spread(slot: Slot): string {
  const c = slot.meta.confidence as Confidence | undefined;
  if (c === undefined || slot.price_minor === null) return '';
  return `±${Math.round(((c.high_minor - c.low_minor) / 2 / slot.price_minor) * 100)}%`;
}

/** Whole dollars for the narrowest layouts: $13,289. */
const wholeUsd = (cents: number) => `$${Math.round(cents / 100).toLocaleString('en-US')}`;

/** A cell in its parts: the price with its marks (`~$944.07!`) and the detail (`±14% (14)`). */
interface Cell {
  price: string;
  detail: string;
  estimated: boolean;
  stale: boolean;
}

function cellOf(slot: Slot, dollars: (cents: number) => string): Cell {
  if (slot.price_minor === null)
    return {
      price: isWithheld(slot) ? NO_PRICE : (slot.error ?? '-'),
      detail: '',
      estimated: false,
      stale: false,
    };
  const estimated = isEstimated(slot);
  const stale = isStale(slot);
  return {
    price: `${estimated ? ESTIMATED_MARK : ''}${dollars(slot.price_minor)}${stale ? STALE_MARK : ''}`,
    detail: `${spread(slot)} (${slot.included_points})`.trimStart(),
    estimated,
    stale,
  };
}

/** A cell's price in its colour: estimated dim, stale yellow. */
function paintPrice(cell: Cell, text: string, colour: Palette): string {
  const styled = cell.stale ? colour.stale(text) : text;
  return cell.estimated ? colour.dim(styled) : styled;
}

/** One way to draw the matrix: one line a grader (price then detail) or two, in cents or whole dollars. */
interface Layout {
  lines: 1 | 2;
  dollars: (cents: number) => string;
  detail: boolean;
}

/** Widest first: the first that fits the terminal is drawn. */
const matrixLayouts: readonly Layout[] = [
  { lines: 1, dollars: formatUsd, detail: true },
  { lines: 2, dollars: formatUsd, detail: true },
  { lines: 2, dollars: wholeUsd, detail: true },
  { lines: 1, dollars: wholeUsd, detail: false },
];

function drawMatrix(bundle: PricingBundle, layout: Layout, colour: Palette): string[] {
  const rows = GRADERS.map((grader) =>
    MATRIX_GRADES.map((g) => cellOf(bundle.graded[grader][String(g) as '7'], layout.dollars)),
  );
  const heads = MATRIX_GRADES.map((g) => `grade ${g}`);
  const label = Math.max(...GRADERS.map((g) => g.length));
  const priceWidth = MATRIX_GRADES.map((_, i) => Math.max(...rows.map((r) => r[i]!.price.length)));
  const detailWidth = MATRIX_GRADES.map((_, i) => Math.max(...rows.map((r) => r[i]!.detail.length)));
  const width = MATRIX_GRADES.map((_, i) =>
    Math.max(
      heads[i]!.length,
      layout.lines === 1 && layout.detail
        ? priceWidth[i]! + 1 + detailWidth[i]!
        : Math.max(priceWidth[i]!, layout.detail ? detailWidth[i]! : 0),
    ),
  );
  const line = (first: string, cells: readonly string[]) =>
    `${first.padEnd(label)}${GAP}${cells.join(GAP)}`.trimEnd();
  const right = (text: string, plainLength: number, w: number) => ' '.repeat(w - plainLength) + text;
  const out = [
    line(
      '',
      heads.map((h, i) => h.padStart(width[i]!)),
    ),
  ];
  GRADERS.forEach((grader, r) => {
    const cells = rows[r]!;
    const price = (c: Cell, w: number) => right(paintPrice(c, c.price, colour), c.price.length, w);
    if (layout.lines === 1 && layout.detail) {
      out.push(
        line(
          grader,
          cells.map((c, i) => {
            const p = price(c, width[i]! - detailWidth[i]! - 1);
            return `${p} ${colour.dim(c.detail)}${' '.repeat(detailWidth[i]! - c.detail.length)}`;
          }),
        ),
      );
    } else {
      out.push(
        line(
          grader,
          cells.map((c, i) => price(c, width[i]!)),
        ),
      );
      if (layout.detail)
        out.push(
          line(
            '',
            cells.map((c, i) => right(colour.dim(c.detail), c.detail.length, width[i]!)),
          ),
        );
    }
  });
  return out;
}

/** The matrix in the widest layout that fits `width` (the narrowest when none does). */
function matrix(bundle: PricingBundle, terminal: Terminal): { lines: string[]; layout: Layout } {
  const plain = palette(false);
  const layout =
    matrixLayouts.find(
      (l) => Math.max(...drawMatrix(bundle, l, plain).map((s) => s.length)) <= terminal.width,
    ) ?? matrixLayouts.at(-1)!;
  return { lines: drawMatrix(bundle, layout, terminal.colour), layout };
}

/** The sixteen cells of the matrix, grader by grader. */
function gradedSlots(bundle: PricingBundle): GradedSlot[] {
  return GRADERS.flatMap((g) => Object.values(bundle.graded[g]));
}

/** What the matrix's notation means: only the marks it shows. */
function legend(bundle: PricingBundle, layout: Layout): string {
  const cells = [...gradedSlots(bundle), ...extraSlots(bundle)];
  const parts = layout.detail
    ? ['±% half the 80 % interval', '(n) points of its own']
    : ['whole dollars; --wide for cents and intervals'];
  if (cells.some((s) => s.price_minor !== null && isEstimated(s)))
    parts.push(
      `${ESTIMATED_MARK} an estimate: rests on the card's other cells more than on its own sales (meta.basis)`,
    );
  if (cells.some(isStale)) parts.push(`${STALE_MARK} stale: newest observation older than 7 days`);
  if (cells.some(isWithheld))
    parts.push(`${NO_PRICE}: an estimate too uncertain or too stale to publish (explain --slot says why)`);
  return parts.join(' · ');
}

/** The 80 % interval in dollars: `80 %: $471.74 - $522.11`; '' without one. */
/** `  in EUR: €9.87 (80 %: €9.01 - €10.40), ECB reference rates of 2025-12-23 to 2026-01-09`; null without `--currency`. */
function convertedLine(slot: Slot): string | null {
  return convertedFiguresLine(slot.meta.converted as ConvertedFigures | undefined);
}

/** convertedLine of the figures themselves (a history's latest point); null without them or a price. */
export function convertedFiguresLine(c: ConvertedFigures | null | undefined): string | null {
  if (c === undefined || c === null || c.price_minor === null) return null;
  const money = (minor: number) => formatMinor(minor, c.currency);
  const range =
    c.low_minor === null || c.high_minor === null
      ? ''
      : ` (80 %: ${money(c.low_minor)} - ${money(c.high_minor)})`;
  return `  in ${c.currency}: ${money(c.price_minor)}${range}, ${ratesText(c)}`;
}

/** `ECB reference rates of 2025-12-23 to 2026-01-09`: the rates a conversion used. */
export function ratesText(c: ConvertedRates): string {
  const { first, last } = c.rate_dates;
  const days = first === last ? `of ${first}` : `of ${first} to ${last}`;
  return `${c.rate_source.toUpperCase()} reference rates ${days}`;
}

function interval(slot: Slot): string {
  const c = slot.meta.confidence as Confidence | undefined;
  return c === undefined ? '' : `80 %: ${formatUsd(c.low_minor)} - ${formatUsd(c.high_minor)}`;
}

/** What the ungraded price rests on, under it: points, newest observation, window, tier. */
function describeSlot(slot: Slot): string {
  if (isWithheld(slot)) {
    const newest = String(slot.meta.newest_observation_at);
    // A date alone is its close (--at), so the day of the newest observation prices with it.
    const then =
      slot.meta.no_price_reason === NO_PRICE_REASON.stale
        ? `; --at ${newest.slice(0, 10)} prices it as of that day`
        : '';
    return `${withheldWhy(slot)} (meta.no_price_reason ${String(slot.meta.no_price_reason)}); newest observation ${newest}${then}`;
  }
  const parts = [
    `${slot.included_points} point${slot.included_points === 1 ? '' : 's'} used, ${slot.excluded_points} excluded`,
  ];
  if (typeof slot.meta.newest_observation_at === 'string') {
    parts.push(`newest ${slot.meta.newest_observation_at}${isStale(slot) ? ' (STALE)' : ''}`);
  }
  if (slot.meta.twap_sparse_window_extended === true) parts.push('window extended');
  if (typeof slot.meta.oracle_fallback_tier === 'string')
    parts.push(`fallback: ${slot.meta.oracle_fallback_tier}`);
  if (isEstimated(slot)) parts.push('estimated');
  return parts.join('; ');
}

const extraSlots = (bundle: PricingBundle) =>
  Object.values(bundle.extra_grades ?? {}).flatMap((grades) => Object.values(grades));

/**
 * The extra grades (`--extra-grades`, CONTRACT.md additions 6), one a line in the bundle's
 * order: label, price, ±%, points and marks as in the matrix, then the newest sale's date.
 */
function extraGradeLines(bundle: PricingBundle, colour: Palette): string[] {
  const slots = extraSlots(bundle);
  if (slots.length === 0) return ['Extra grades: none has an observation of its own in the 30 days'];
  const labels = slots.map((s) => `${s.company} ${s.grade}`);
  const width = Math.max(...labels.map((l) => l.length));
  const cells = slots.map((s) => cellOf(s, formatUsd));
  const priceWidth = Math.max(...cells.map((c) => c.price.length));
  const lines = [
    'Extra grades (own sales only, no fallback; absent without data):',
    ...slots.map((s, i) => {
      const c = cells[i]!;
      const newest =
        typeof s.meta.newest_observation_at === 'string'
          ? `  newest ${s.meta.newest_observation_at.slice(0, 10)}`
          : '';
      return `  ${labels[i]!.padEnd(width)}  ${' '.repeat(priceWidth - c.price.length)}${paintPrice(c, c.price, colour)} ${colour.dim(c.detail)}${newest}`;
    }),
  ];
  if (slots.some((s) => s.company === POOLED_GRADER))
    lines.push(`  ${POOLED_GRADER}: any grader, pooled (a price guide's grade column)`);
  return lines;
}

export function renderBundle(bundle: PricingBundle, terminal: Terminal): string {
  const { colour } = terminal;
  const m = bundle.metadata;
  const lines: string[] = [];
  lines.push(colour.bold(`${m.product_name}${m.subtitle ? ` - ${m.subtitle}` : ''}${variantWords(m)}`));
  const identity = [
    `${bundle.product_key}${bundle.id ? ` (refsource ${bundle.id})` : ''}`,
    m.set_name,
    m.product_type,
    m.era,
  ];
  if (m.release_date) identity.push(`released ${m.release_date}`);
  if (m.tcgplayer_id) identity.push(`tcgplayer ${m.tcgplayer_id}`);
  lines.push(...joinWrapped(identity, ' | ', terminal.width));
  lines.push('');
  const u = bundle.ungraded;
  const sealed = isSealed(bundle);
  const cell = cellOf(u, formatUsd);
  const price = u.price_minor === null ? cell.price : paintPrice(cell, formatUsd(u.price_minor), colour);
  const range = interval(u);
  lines.push(
    `${sealed ? 'Price (sealed):' : 'Ungraded:'} ${colour.bold(price)}${range ? `  ${range}` : ''}`,
    `  ${describeSlot(u)}`,
  );
  const converted = convertedLine(u);
  if (converted !== null) lines.push(converted);
  const sources = u.meta.source_counts as Record<string, number> | undefined;
  if (sources && Object.keys(sources).length > 0) {
    lines.push(
      `  sources: ${Object.entries(sources)
        .map(([s, n]) => `${s} ${n}`)
        .join(', ')}`,
    );
  }
  lines.push('');
  if (!sealed) {
    const graded = gradedSlots(bundle);
    if (graded.every((s) => s.price_minor === null)) {
      // Sixteen cells saying the same thing read as a table of results: one line says it.
      lines.push(`Graded: ${NO_PRICE} in any grade (explain --slot psa10 says why)`, '');
    } else {
      const drawn = matrix(bundle, terminal);
      lines.push(...drawn.lines, colour.dim(legend(bundle, drawn.layout)), '');
    }
    if (bundle.extra_grades !== undefined) lines.push(...extraGradeLines(bundle, colour), '');
  }
  const requested = toIsoUtc(Date.parse(u.window_end) - bundle.window_hours * HOUR_MS);
  const read =
    u.price_minor !== null && u.window_start !== requested ? `; ungraded read from ${u.window_start}` : '';
  lines.push(`window:      ${requested} -> ${u.window_end} (${bundle.window_hours} h requested${read})`);
  lines.push(`outliers:    beyond ${bundle.outlier_stddevs} robust standard deviations excluded`);
  lines.push(`methodology: ${u.methodology} (docs/methodology.md)`);
  return `${lines.flatMap((l) => wrapLine(l, terminal.width)).join('\n')}\n`;
}
