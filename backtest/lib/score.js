// @ts-check
/**
 * Prices the simulated market at every scored instant with our engine (the service call of
 * `oracle price`, on the store loaded by load.js) and with the four alternatives, and keeps
 * one row per scored (product, instant, cell): the truth, each method's price, the engine's
 * interval when its bundle carries one. Also follows each jump and crash hour by hour.
 */
import {
  codaBlend,
  lowerBound,
  mean24,
  median24,
  sevenDayAt,
  sevenDayTrack,
  WINDOW_MS,
} from './alternatives.js';
import { pricing } from './built.js';
import { SOURCE, truthAt } from './market.js';
import { FOLLOW_HORIZON_HOURS, hoursToFollow, offAfterJump } from './metrics.js';
import {
  CELLS,
  END,
  HOUR,
  INSTANT_OFFSET_HOURS,
  INSTANT_STEP_HOURS,
  OUTLIER_STDDEVS,
  SCORED_START,
  START,
  WINDOW_HOURS,
} from './model.js';

/** @typedef {import('./market.js').Market} Market */
/** @typedef {import('./market.js').ProductMarket} ProductMarket */
/** @typedef {import('./market.js').Series} Series */
/** @typedef {import('../../src/store/store.js').Store} Store */
/** @typedef {import('../../src/domain/bundle.js').PricingBundle} PricingBundle */
/** @typedef {import('../../src/domain/bundle.js').Slot} Slot */

/** The methods compared, ours first. */
export const METHODS = /** @type {const} */ ([
  { id: 'engine', label: 'ours' },
  { id: 'mean24', label: 'mean 24 h' },
  { id: 'median24', label: 'median 24 h' },
  { id: 'coda', label: 'mean±2sd blend' },
  { id: 'median7d', label: '7-day median' },
]);
export const ENGINE = 0;

/**
 * What a priced slot of ours rests on (issue 22, slot `meta.basis`): `own` when priced from the
 * cell's own observations, `estimated` when from other cells (pooling, carry, ratios). Rows hold
 * the index; UNPRICED where the engine gave no price.
 */
export const BASES = /** @type {const} */ (['own', 'estimated']);
export const UNPRICED = 255;

/** A cell is followed after a jump when it trades at least this often (sales a day): others cannot follow anything. */
export const FOLLOW_MIN_RATE = 2;

/** The scored instants: every INSTANT_STEP_HOURS from the end of the warm-up, on the hour. */
export function scoredInstants() {
  /** @type {number[]} */
  const out = [];
  for (let t = SCORED_START + INSTANT_OFFSET_HOURS * HOUR; t < END; t += INSTANT_STEP_HOURS * HOUR)
    out.push(t);
  return out;
}

/**
 * @typedef {object} Rows one entry per scored (product, instant, cell), columns in typed arrays
 * @property {number} length
 * @property {Int32Array} product index into market.products
 * @property {Int32Array} instant index into `instants`
 * @property {Uint8Array} cell model.js CELLS index
 * @property {Uint8Array} own 1 when the cell has an observation of its own in the 24 h window
 * @property {Uint8Array} basis the engine's basis (BASES index), UNPRICED where it gave no price
 * @property {Float64Array} truth US cents
 * @property {Float64Array[]} price per method (METHODS order), US cents; NaN = not priced
 * @property {Float64Array} low the engine's interval (meta.confidence), NaN when absent
 * @property {Float64Array} high
 * @property {Float64Array} next the cell's next sale at or after the instant (US cents; NaN: none), what the interval predicts
 */

/**
 * @typedef {object} JumpEvent
 * @property {string} product
 * @property {string} scenario
 * @property {string} cell
 * @property {string} at ISO-8601 of the jump
 * @property {number} factor new truth / old truth
 * @property {(number | null)[]} hours per method: hours to follow, null = not within the horizon
 * @property {{ priced: number, off: number }[]} first24h per method: the first 24 hourly instants priced, and off by > 25 %
 */

/**
 * @typedef {object} Scores
 * @property {number[]} instants
 * @property {Rows} rows
 * @property {JumpEvent[]} jumps
 * @property {{ slots: number, priced: number, examples: string[] }} sealedGraded booster boxes' graded slots and how many the engine priced
 * @property {number} bundles engine bundles computed
 * @property {{ meta: number, derived: number }} basisFrom priced slots whose basis came from `meta.basis`, and those derived (basisOf)
 */

/** @param {PricingBundle} bundle @param {import('./model.js').Cell} cell @returns {Slot} */
export function slotOf(bundle, cell) {
  if (cell.grader === null || cell.grade === null) return bundle.ungraded;
  return bundle.graded[cell.grader][/** @type {'7' | '8' | '9' | '10'} */ (String(cell.grade))];
}

/** @param {Slot} slot @returns {{ low: number, high: number } | null} */
export function confidenceOf(slot) {
  const c = /** @type {{ low_minor?: unknown, high_minor?: unknown } | undefined} */ (slot.meta.confidence);
  if (!c || typeof c.low_minor !== 'number' || typeof c.high_minor !== 'number') return null;
  return { low: c.low_minor, high: c.high_minor };
}

/**
 * The basis of one of our slots: `meta.basis` when the engine gives it; from an engine that does
 * not, derived as it is defined: own when the slot used observations of its own
 * (`included_points` > 0) and no fallback tier carried it from other cells.
 * @param {Slot} slot
 * @returns {{ basis: number, fromMeta: boolean }}
 */
export function basisOf(slot) {
  if (slot.price_minor === null) return { basis: UNPRICED, fromMeta: false };
  const given = BASES.indexOf(/** @type {(typeof BASES)[number]} */ (slot.meta.basis));
  if (given >= 0) return { basis: given, fromMeta: true };
  const own = slot.included_points > 0 && slot.meta.oracle_fallback_tier === undefined;
  return { basis: own ? 0 : 1, fromMeta: false };
}

/**
 * Every method's price of one cell at `t`, in METHODS order (NaN: not priced).
 * @param {Slot} slot the engine's
 * @param {Series} series the cell's own observations
 * @param {Float64Array} track its 7-day published prices
 * @param {number} t
 */
function pricesAt(slot, series, track, t) {
  return [
    slot.price_minor,
    mean24(series, t),
    median24(series, t),
    codaBlend(series, t),
    sevenDayAt(track, t),
  ].map((p) => (p === null ? Number.NaN : p));
}

/**
 * The first sale (not a guide's quote) of a cell at or after `t`, in US cents; NaN when none follows.
 * @param {Series} series
 * @param {number} t
 */
function nextSale(series, t) {
  for (let i = lowerBound(series.t, t); i < series.t.length; i++)
    if (series.source[i] === SOURCE.sale) return /** @type {number} */ (series.price[i]);
  return Number.NaN;
}

/**
 * Scores a market loaded into `store`.
 * @param {Market} market
 * @param {Store} store
 * @param {{ log?: (line: string) => void, followJumps?: boolean }} [options] followJumps: false skips the hour-by-hour pricing after jumps
 * @returns {Promise<Scores>}
 */
export async function scoreMarket(market, store, options = {}) {
  const priced = pricing.createPricing(store);
  const instants = scoredInstants();
  const capacity = market.products.length * instants.length * CELLS.length;
  /** @type {Rows} */
  const rows = {
    length: 0,
    product: new Int32Array(capacity),
    instant: new Int32Array(capacity),
    cell: new Uint8Array(capacity),
    own: new Uint8Array(capacity),
    basis: new Uint8Array(capacity),
    truth: new Float64Array(capacity),
    price: METHODS.map(() => new Float64Array(capacity)),
    low: new Float64Array(capacity),
    high: new Float64Array(capacity),
    next: new Float64Array(capacity),
  };
  /** @type {JumpEvent[]} */
  const jumps = [];
  const sealedGraded = { slots: 0, priced: 0, examples: /** @type {string[]} */ ([]) };
  let bundles = 0;
  const basisFrom = { meta: 0, derived: 0 };
  const price = (
    /** @type {import('../../src/store/store.js').StoredProduct} */ stored,
    /** @type {number} */ t,
  ) => {
    bundles++;
    return priced.price(
      stored,
      { windowHours: WINDOW_HOURS, outlierStddevs: OUTLIER_STDDEVS, asOf: t },
      null,
    );
  };

  for (const [pi, product] of market.products.entries()) {
    const { plan } = product;
    const stored = await priced.productByKey(plan.key);
    const tracks = product.cells.map((s) => sevenDayTrack(s));
    const sealed = plan.productType === 'booster_box';
    for (const [ii, t] of instants.entries()) {
      const bundle = await price(stored, t);
      for (const cell of CELLS) {
        const slot = slotOf(bundle, cell);
        if (sealed && cell.index > 0) {
          sealedGraded.slots++;
          if (slot.price_minor !== null) {
            sealedGraded.priced++;
            if (sealedGraded.examples.length < 3)
              sealedGraded.examples.push(
                `${plan.key} ${cell.key} at ${new Date(t).toISOString()}: ${slot.price_minor}`,
              );
          }
          continue;
        }
        const series = /** @type {Series} */ (product.cells[cell.index]);
        const r = rows.length++;
        rows.product[r] = pi;
        rows.instant[r] = ii;
        rows.cell[r] = cell.index;
        rows.truth[r] = truthAt(product, cell.index, t);
        rows.own[r] = lowerBound(series.t, t - WINDOW_MS) < lowerBound(series.t, t) ? 1 : 0;
        pricesAt(slot, series, /** @type {Float64Array} */ (tracks[cell.index]), t).forEach((p, m) => {
          /** @type {Float64Array} */ (rows.price[m])[r] = p;
        });
        const { basis, fromMeta } = basisOf(slot);
        rows.basis[r] = basis;
        if (basis !== UNPRICED) basisFrom[fromMeta ? 'meta' : 'derived']++;
        const interval = confidenceOf(slot);
        rows.low[r] = interval?.low ?? Number.NaN;
        rows.high[r] = interval?.high ?? Number.NaN;
        rows.next[r] = nextSale(series, t);
      }
    }
    if (options.followJumps !== false) jumps.push(...(await followJumps(product, stored, tracks, price)));
    if (options.log && (pi + 1) % 50 === 0)
      options.log(`scored ${pi + 1}/${market.products.length} products`);
  }
  return { instants, rows, jumps, sealedGraded, bundles, basisFrom };
}

/**
 * Prices each traded cell of a product hour by hour after each of its jumps.
 * @param {ProductMarket} product
 * @param {import('../../src/store/store.js').StoredProduct} stored
 * @param {Float64Array[]} tracks
 * @param {(stored: import('../../src/store/store.js').StoredProduct, t: number) => Promise<PricingBundle>} price
 * @returns {Promise<JumpEvent[]>}
 */
async function followJumps(product, stored, tracks, price) {
  const { plan } = product;
  const cells = CELLS.filter(
    (c) =>
      /** @type {number} */ (plan.cellRate[c.index]) >= FOLLOW_MIN_RATE &&
      Number.isFinite(plan.logMultiple[c.index]),
  );
  /** @type {JumpEvent[]} */
  const events = [];
  for (const jump of plan.jumps) {
    const jumpAt = START + jump.hour * HOUR;
    if (jumpAt < SCORED_START) continue;
    /** @type {{ price: number | null, truth: number }[][][]} per cell, per method, hourly */
    const hourly = cells.map(
      () => /** @type {{ price: number | null, truth: number }[][]} */ (METHODS.map(() => [])),
    );
    for (let h = 1; h <= FOLLOW_HORIZON_HOURS && jumpAt + h * HOUR < END; h++) {
      const t = jumpAt + h * HOUR;
      const bundle = await price(stored, t);
      cells.forEach((cell, ci) => {
        const truth = truthAt(product, cell.index, t);
        const prices = pricesAt(
          slotOf(bundle, cell),
          /** @type {Series} */ (product.cells[cell.index]),
          /** @type {Float64Array} */ (tracks[cell.index]),
          t,
        );
        prices.forEach((p, m) =>
          /** @type {{ price: number | null, truth: number }[][]} */ (hourly[ci])[m]?.push({
            price: Number.isNaN(p) ? null : p,
            truth,
          }),
        );
      });
    }
    cells.forEach((cell, ci) => {
      events.push({
        product: plan.key,
        scenario: plan.scenario,
        cell: cell.key,
        at: new Date(jumpAt).toISOString(),
        factor: jump.factor,
        hours: METHODS.map((_, m) =>
          hoursToFollow(/** @type {{ price: number | null, truth: number }[][]} */ (hourly[ci])[m] ?? []),
        ),
        first24h: METHODS.map((_, m) =>
          offAfterJump(/** @type {{ price: number | null, truth: number }[][]} */ (hourly[ci])[m] ?? []),
        ),
      });
    });
  }
  return events;
}
