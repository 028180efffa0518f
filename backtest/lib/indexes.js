// @ts-check
/**
 * The market index backtest (docs/backtest.md "Market indexes"): both methods of §17, each
 * computed from our prices (the bundles `oracle index show` computes from) and, on the
 * simulated market, from every member's true price, by scenario; on real corpora, how steady
 * each is from day to day and how it moves over the corpus's biggest move.
 */
import { marketIndex, pricing } from './built.js';
import { truthAt } from './market.js';
import { DAY, END, OUTLIER_STDDEVS, SCENARIOS, SCORED_START, WINDOW_HOURS } from './model.js';

/** @typedef {import('./market.js').Market} Market */
/** @typedef {import('../../src/store/store.js').Store} Store */
/** @typedef {import('../../src/engine/index-chain.js').IndexMember} IndexMember */

export const INDEX_METHODS = /** @type {const} */ (['chained-jevons', 'chained-laspeyres']);

/** The simulated market's index instants: 00:00Z of every day from the end of the warm-up to the end. */
export function simulatedInstants() {
  /** @type {number[]} */
  const out = [];
  for (let t = SCORED_START; t <= END; t += DAY) out.push(t);
  return out;
}

/** @param {readonly number[]} xs */
const rms = (xs) => Math.sqrt(xs.reduce((s, x) => s + x * x, 0) / Math.max(1, xs.length));
/** @param {readonly number[]} xs */
const sd = (xs) => {
  const m = xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  return Math.sqrt(xs.reduce((s, x) => s + (x - m) ** 2, 0) / Math.max(1, xs.length - 1));
};
/** @param {readonly number[]} values @returns {number[]} */
const logSteps = (values) => values.slice(1).map((v, i) => Math.log(v / /** @type {number} */ (values[i])));

/**
 * Each product's price and interval in `slot` at every instant, through the service's series.
 * @param {Store} store
 * @param {readonly string[]} keys
 * @param {readonly number[]} instants
 * @param {string} slot
 * @returns {Promise<IndexMember[]>}
 */
export async function pricedMembers(store, keys, instants, slot) {
  const priced = pricing.createPricing(store);
  /** @type {IndexMember[]} */
  const members = [];
  for (const key of keys) {
    const product = await priced.productByKey(key);
    const bundles = await priced.priceSeries(
      product,
      { windowHours: WINDOW_HOURS, outlierStddevs: OUTLIER_STDDEVS },
      instants,
      null,
    );
    members.push({ prices: marketIndex.memberPrices(bundles, slot), member: instants.map(() => true) });
  }
  return members;
}

/**
 * Tracking error per scenario and method: the index of our prices against the same index of
 * the true prices (ungraded), every product of the scenario a member throughout.
 * @param {Market} market
 * @param {Store} store
 */
export async function simulatedIndexes(market, store) {
  const instants = simulatedInstants();
  const rows = [];
  const groups = [...SCENARIOS.map((s) => s.name), 'all'];
  const all = await pricedMembers(
    store,
    market.products.map((p) => p.plan.key),
    instants,
    'ungraded',
  );
  for (const group of groups) {
    const picked = market.products.flatMap((p, i) =>
      group === 'all' || p.plan.scenario === group ? [i] : [],
    );
    if (picked.length === 0) continue;
    const ours = picked.map((i) => /** @type {IndexMember} */ (all[i]));
    const truth = picked.map((i) => {
      const product = /** @type {import('./market.js').ProductMarket} */ (market.products[i]);
      return {
        prices: instants.map((t) => ({ price: truthAt(product, 0, t), low: null, high: null })),
        member: instants.map(() => true),
      };
    });
    for (const method of INDEX_METHODS) {
      const compute = marketIndex.indexMethod(method);
      const est = compute(instants, ours).values;
      const tru = compute(instants, truth).values;
      const gaps = est.map((v, k) => Math.log(v.value / /** @type {any} */ (tru[k]).value));
      const stepGaps = logSteps(est.map((v) => v.value)).map(
        (s, k) => s - /** @type {number} */ (logSteps(tru.map((v) => v.value))[k]),
      );
      const covered = est.filter((v, k) => {
        const t = /** @type {any} */ (tru[k]).value;
        return k > 0 && v.low <= t && t <= v.high;
      }).length;
      rows.push({
        scenario: group,
        method,
        members: picked.length,
        trueMovePct: 100 * Math.log(/** @type {any} */ (tru.at(-1)).value / 1000),
        trackingRmsPct: 100 * rms(gaps),
        trackingMaxPct: 100 * Math.max(...gaps.map(Math.abs)),
        stepNoisePct: 100 * sd(stepGaps),
        endGapPct: 100 * /** @type {number} */ (gaps.at(-1)),
        coveredPct: (100 * covered) / (est.length - 1),
        pricedLast: /** @type {any} */ (est.at(-1)).priced,
      });
    }
  }
  return { instants: instants.length, rows };
}

/**
 * On a real corpus: each method's index over `keys` in `slot` at `instants`: how far it moves
 * from step to step (the sd of its log steps), its largest step, its whole move and its
 * largest rise and fall from a running low or high (how it follows a boom or a crash).
 * @param {Store} store
 * @param {readonly string[]} keys
 * @param {readonly number[]} instants
 * @param {string} slot
 */
export async function realIndexes(store, keys, instants, slot) {
  const members = await pricedMembers(store, keys, instants, slot);
  return INDEX_METHODS.map((method) => {
    const values = marketIndex.indexMethod(method)(instants, members).values;
    const steps = logSteps(values.map((v) => v.value));
    let low = Infinity;
    let high = -Infinity;
    let rise = 0;
    let fall = 0;
    for (const v of values) {
      low = Math.min(low, v.value);
      high = Math.max(high, v.value);
      rise = Math.max(rise, Math.log(v.value / low));
      fall = Math.min(fall, Math.log(v.value / high));
    }
    const last = /** @type {any} */ (values.at(-1));
    return {
      method,
      members: members.length,
      values: values.map((v) => v.value),
      stepSdPct: 100 * sd(steps),
      largestStepPct: 100 * Math.max(...steps.map(Math.abs)),
      movePct: 100 * Math.log(last.value / 1000),
      riseMaxPct: 100 * rise,
      fallMaxPct: 100 * fall,
      lastWidthPct: (100 * Math.log(last.high / last.low)) / 2,
      pricedLast: last.priced,
    };
  });
}
