/**
 * A price series as the chart script reads it (assets/web.js draws it with uPlot: dated x axis,
 * the price as a line, the 80 % interval as a band) and as a table for whoever has no script or
 * no sight of the chart. The data travels in a JSON script element, which no browser runs.
 */
import type { HistoryBody, HistoryValue } from '../../service/history.js';
import { html, Html, usd } from './html.js';

/**
 * A series: seconds since the epoch, then its values (null where unpriced) in its unit: cents
 * (a price) or index points (a market index, 1000 at its base date).
 */
export interface ChartData {
  label: string;
  unit: 'usd' | 'points';
  t: number[];
  price: (number | null)[];
  low: (number | null)[];
  high: (number | null)[];
}

export function chartData(history: HistoryBody, slot: string, label: string): ChartData {
  const data: ChartData = { label, unit: 'usd', t: [], price: [], low: [], high: [] };
  for (const point of history.points) {
    const value = point[slot] as HistoryValue | undefined;
    data.t.push(Date.parse(point.at) / 1000);
    data.price.push(value?.price_minor ?? null);
    data.low.push(value?.confidence?.low_minor ?? null);
    data.high.push(value?.confidence?.high_minor ?? null);
  }
  return data;
}

/** JSON that cannot close its script element: every `<` escaped. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/** Index points as the pages show them: two decimals, as the API gives them. */
export const points = (value: number | null | undefined): string =>
  value == null ? '–' : value.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** The chart's place, its data, and the same points as a table. */
export function renderChart(data: ChartData, caption: string): Html {
  const [format, name] = data.unit === 'usd' ? [usd, 'Price'] : [points, 'Value'];
  const rows = data.t.map((t, i) => [new Date(t * 1000).toISOString().slice(0, 10), i] as const);
  return html`<figure class="chart">
      <div
        class="chart-box"
        data-chart="chart-data"
        role="img"
        aria-label="${caption}: ${data.t.length} points"
      >
        <noscript>The chart needs JavaScript; its points are in the table below.</noscript>
      </div>
      <script type="application/json" id="chart-data">
        ${new Html(scriptJson(data))}
      </script>
      <figcaption>
        ${caption}${data.low.length > 0 ? '; the shaded band is the 80 % interval' : ''}.
      </figcaption>
    </figure>
    <details>
      <summary>The ${data.t.length} points as a table</summary>
      <div class="scroll">
        <table>
          <thead>
            <tr>
              <th scope="col">Date</th>
              <th scope="col" class="num">${name}</th>
              <th scope="col" class="num">80 % low</th>
              <th scope="col" class="num">80 % high</th>
            </tr>
          </thead>
          <tbody>
            ${rows.map(
              ([day, i]) =>
                html`<tr>
                  <td>${day}</td>
                  <td class="num">${format(data.price[i])}</td>
                  <td class="num">${format(data.low[i])}</td>
                  <td class="num">${format(data.high[i])}</td>
                </tr>`,
            )}
          </tbody>
        </table>
      </div>
    </details>`;
}
