/** The watch rules with their state, and their recent events (docs/alerts.md); read-only: rules are made with `oracle watch add`. */
import type { WatchEventRecordBody, WatchRuleBody } from '../../service/watch-bodies.js';
import { conditionLabel } from '../../domain/conditions.js';
import { html, productHref, usd, type Html } from './html.js';

function condition(
  rule: Pick<WatchRuleBody, 'kind' | 'amount_minor' | 'percent' | 'direction' | 'span'>,
): string {
  if (rule.percent !== null)
    return `${rule.kind} ${rule.direction ?? ''} ${rule.percent} % over ${rule.span ?? ''}`;
  return `${rule.kind} ${usd(rule.amount_minor)}`;
}

export function renderWatches(
  rules: readonly WatchRuleBody[],
  events: readonly WatchEventRecordBody[],
  at: string | undefined,
): Html {
  const ruleRows =
    rules.length === 0
      ? html`<tr>
          <td colspan="5">No watch rules: <code>oracle watch add</code> makes one.</td>
        </tr>`
      : html`${rules.map(
          (r) =>
            html`<tr>
              <td>${r.id}</td>
              <td>
                ${r.label}<br /><small
                  ><a href="${productHref(r.product_key, at)}">${r.product_key}</a>,
                  ${conditionLabel(r.slot)}</small
                >
              </td>
              <td>${condition(r)}</td>
              <td>${r.firing ? 'holds' : 'does not hold'}</td>
              <td class="num">${usd(r.last_value)}</td>
            </tr>`,
        )}`;
  const eventRows =
    events.length === 0
      ? html`<tr>
          <td colspan="4">No events yet.</td>
        </tr>`
      : html`${events.map(
          (e) =>
            html`<tr>
              <td>${e.created_at}</td>
              <td>${e.event.rule.label} (rule ${e.rule_id})</td>
              <td>${e.event.product_key}, ${conditionLabel(e.event.slot)}</td>
              <td>${e.status}</td>
            </tr>`,
        )}`;
  return html`<section aria-labelledby="rules">
      <h2 id="rules">Rules</h2>
      <div class="scroll">
        <table>
          <thead>
            <tr>
              <th scope="col">Id</th>
              <th scope="col">Rule</th>
              <th scope="col">When</th>
              <th scope="col">At the last check</th>
              <th scope="col" class="num">Value then</th>
            </tr>
          </thead>
          <tbody>
            ${ruleRows}
          </tbody>
        </table>
      </div>
    </section>
    <section aria-labelledby="events">
      <h2 id="events">Recent events</h2>
      <div class="scroll">
        <table>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Rule</th>
              <th scope="col">Product</th>
              <th scope="col">Delivery</th>
            </tr>
          </thead>
          <tbody>
            ${eventRows}
          </tbody>
        </table>
      </div>
    </section>`;
}
