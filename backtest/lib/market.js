// @ts-check
/**
 * The seeded market: each product's plan (parameters drawn from model.js), its true price hour
 * by hour, and every observation the market emits (sales, contaminated sales, price-guide
 * quotes). The same seed gives the same market on every machine: every draw comes from a
 * stream derived from the seed and the product (and cell), never from the clock.
 */
import { prng } from './built.js';
import { CELLS, DAYS, GRADERS, GRADES, HOUR, HOURS, PARAMS, SCENARIOS, START, cellIndex } from './model.js';

/** @typedef {import('../../sample/prng.js').Prng} Prng */
/** @typedef {import('./model.js').ProductPlan} ProductPlan */
/** @typedef {import('./model.js').Scenario} Scenario */

/** Sources of the observations, by the index a series stores. */
export const SOURCES = /** @type {const} */ (['ebay', 'pricecharting', 'tcgplayer']);
export const SOURCE = { sale: 0, pricecharting: 1, tcgplayer: 2 };

/**
 * One cell's observations in time order.
 * @typedef {{ t: Float64Array, price: Float64Array, source: Uint8Array }} Series
 */

/**
 * @typedef {object} ProductMarket
 * @property {ProductPlan} plan
 * @property {Float64Array} logTruth log of the ungraded truth (US cents), per hour of the period
 * @property {Series[]} cells the observations of the 17 scored cells (model.js CELLS)
 * @property {Series[]} pooled the `ANY` grade 7, 8, 9 quotes (pooled grade band; not scored)
 */

/**
 * @typedef {object} Market
 * @property {string} seed
 * @property {'small' | 'full'} scale
 * @property {ProductMarket[]} products
 */

/** @param {Prng} rng @param {{ median: number, logSd: number }} d */
const lognormal = (rng, d) => d.median * Math.exp(d.logSd * rng.normal());

/**
 * The products of a scale, optionally of some scenarios only (a product's key, id and plan do
 * not depend on which scenarios run).
 * @param {string} seed
 * @param {'small' | 'full'} scale
 * @param {string | null} only scenario names, comma-separated
 * @returns {ProductPlan[]}
 */
export function planProducts(seed, scale, only) {
  const names = only === null ? null : new Set(only.split(','));
  /** @type {ProductPlan[]} */
  const plans = [];
  let index = 0;
  for (const scenario of SCENARIOS) {
    for (let i = 0; i < scenario.count[scale]; i++, index++) {
      if (names !== null && !names.has(scenario.name)) continue;
      const key = `bt-${scenario.name.replaceAll('_', '-')}-${String(i + 1).padStart(3, '0')}`;
      plans.push(planProduct(seed, scenario, key, String(9_000_001 + index)));
    }
  }
  return plans;
}

/**
 * Draws one product's parameters, then lets its scenario shape them.
 * @param {string} seed
 * @param {Scenario} scenario
 * @param {string} key
 * @param {string} refsourceId
 * @returns {ProductPlan}
 */
export function planProduct(seed, scenario, key, refsourceId) {
  const rng = prng.derivePrng(seed, `${key}:plan`);
  const sealed = scenario.productType === 'booster_box';
  const era = sealed || rng.next() >= PARAMS.vintageShare ? 'modern' : 'vintage';
  const kind = sealed ? 'sealed' : era;
  const basePrice = Math.max(PARAMS.minBasePrice, lognormal(rng, PARAMS.basePrice[kind])) * 100;
  const hourlyVol = lognormal(rng, PARAMS.dailyVol[kind]) / Math.sqrt(24);
  const hourlyDrift = (PARAMS.dailyDriftSd * rng.normal()) / 24;

  const logMultiple = new Array(CELLS.length).fill(Number.NaN);
  logMultiple[0] = 0;
  const graderWeight = [0, 0, 0, 0];
  const cellRate = new Array(CELLS.length).fill(0);
  cellRate[0] = lognormal(rng, PARAMS.ungradedRate);
  if (!sealed) {
    const psa10 = PARAMS.psa10Multiple[era].median * Math.exp(PARAMS.psa10Multiple[era].logSd * rng.normal());
    const steps = PARAMS.gradeStep[era];
    // Each grade a capped step below the one above it: kept in order whatever the draws.
    const step = (/** @type {{ median: number, logSd: number }} */ d) =>
      Math.min(PARAMS.gradeStep.maxStep, lognormal(rng, d));
    const r9 = step(steps[9]);
    const r8 = r9 * step(steps[8]);
    const ratio = [r8 * step(steps[7]), r8, r9, 1];
    GRADERS.forEach((grader, gi) => {
      GRADES.forEach((grade, ni) => {
        let premium = 1;
        if (grader !== 'PSA') {
          const p = PARAMS.graderPremium[grader];
          premium =
            grade === 10
              ? p[10] * Math.exp(PARAMS.graderPremium.logSd10 * rng.normal())
              : p.lower * Math.exp(PARAMS.graderPremium.logSdLower * rng.normal());
        }
        logMultiple[cellIndex(gi, ni)] = Math.log(psa10 * /** @type {number} */ (ratio[ni]) * premium);
      });
      const present = grader === 'PSA' || rng.next() >= PARAMS.graderAbsent;
      graderWeight[gi] = present ? PARAMS.graderShare[grader] : 0;
    });
    const total = graderWeight.reduce((a, b) => a + b, 0);
    const gradedRate = cellRate[0] * PARAMS.gradedRateMultiple;
    GRADERS.forEach((_, gi) => {
      graderWeight[gi] = /** @type {number} */ (graderWeight[gi]) / total;
      GRADES.forEach((grade, ni) => {
        cellRate[cellIndex(gi, ni)] =
          gradedRate * /** @type {number} */ (graderWeight[gi]) * PARAMS.gradeShare[grade];
      });
    });
  }
  const noiseSpread = () => Math.exp(PARAMS.saleNoise.logSd * rng.normal());
  /** @type {ProductPlan} */
  const plan = {
    key,
    refsourceId,
    scenario: scenario.name,
    productType: sealed ? 'booster_box' : 'single_card',
    era,
    basePrice,
    hourlyVol,
    hourlyDrift,
    logMultiple,
    cellRate,
    graderWeight,
    noiseUngraded: (sealed ? PARAMS.saleNoise.sealed : PARAMS.saleNoise.ungraded) * noiseSpread(),
    noiseGraded: PARAMS.saleNoise.graded * noiseSpread(),
    contamination: { ...PARAMS.contamination },
    jumps: [],
    shills: [],
    injected: [],
    dormant: null,
    deadFrom: null,
    guides: rng.next() < PARAMS.guideShare,
  };
  scenario.shape?.(plan, rng);
  return plan;
}

/**
 * The ungraded truth's log, hour by hour: a geometric random walk with drift, plus the plan's jumps.
 * @param {string} seed
 * @param {ProductPlan} plan
 * @returns {Float64Array}
 */
export function truthPath(seed, plan) {
  const rng = prng.derivePrng(seed, `${plan.key}:truth`);
  const jumpAt = new Map(plan.jumps.map((j) => [j.hour, Math.log(j.factor)]));
  const path = new Float64Array(HOURS);
  let x = Math.log(plan.basePrice);
  for (let h = 0; h < HOURS; h++) {
    if (h > 0) x += plan.hourlyDrift + plan.hourlyVol * rng.normal();
    x += jumpAt.get(h) ?? 0;
    path[h] = x;
  }
  return path;
}

/**
 * The hour index of an instant (clamped to the period).
 * @param {number} t epoch ms
 */
export function hourOf(t) {
  return Math.min(HOURS - 1, Math.max(0, Math.floor((t - START) / HOUR)));
}

/**
 * A cell's true price at instant `t` (US cents): the truth of the hour that ends at `t` (the
 * hour whose sales a price at `t` can have seen); NaN where the cell has none (sealed graded).
 * @param {ProductMarket} product
 * @param {number} cell
 * @param {number} t
 */
export function truthAt(product, cell, t) {
  return Math.exp(
    /** @type {number} */ (product.logTruth[hourOf(t - 1)]) +
      /** @type {number} */ (product.plan.logMultiple[cell]),
  );
}

/** @param {ProductPlan} plan @returns {(hour: number) => number} how busy the market is, 0 when closed */
function activity(plan) {
  return (h) => {
    if (plan.dormant && h >= plan.dormant.from && h < plan.dormant.to) return 0;
    if (plan.deadFrom !== null && h >= plan.deadFrom) return 0;
    let a = 1;
    for (const j of plan.jumps) if (h >= j.hour && h < j.hour + j.boostHours) a *= j.volumeBoost;
    return a;
  };
}

/** Collects observations of one cell, then sorts them into a Series. */
class SeriesBuilder {
  /** @type {number[]} */ t = [];
  /** @type {number[]} */ price = [];
  /** @type {number[]} */ source = [];
  /** @param {number} t @param {number} price US cents (rounded here) @param {number} source */
  add(t, price, source) {
    this.t.push(t);
    this.price.push(Math.max(1, Math.round(price)));
    this.source.push(source);
  }
  /** @returns {Series} */
  build() {
    const order = this.t
      .map((_, i) => i)
      .sort((a, b) => /** @type {number} */ (this.t[a]) - /** @type {number} */ (this.t[b]) || a - b);
    return {
      t: Float64Array.from(order, (i) => /** @type {number} */ (this.t[i])),
      price: Float64Array.from(order, (i) => /** @type {number} */ (this.price[i])),
      source: Uint8Array.from(order, (i) => /** @type {number} */ (this.source[i])),
    };
  }
}

/**
 * Every observation of one product.
 * @param {string} seed
 * @param {ProductPlan} plan
 * @returns {ProductMarket}
 */
export function productMarket(seed, plan) {
  const logTruth = truthPath(seed, plan);
  const open = activity(plan);
  const cells = CELLS.map(() => new SeriesBuilder());
  const pooled = [0, 1, 2].map(() => new SeriesBuilder());
  /** @param {number} cell @param {number} h */
  const truth = (cell, h) =>
    Math.exp(/** @type {number} */ (logTruth[h]) + /** @type {number} */ (plan.logMultiple[cell]));

  for (const cell of CELLS) {
    const rate = /** @type {number} */ (plan.cellRate[cell.index]);
    if (!(rate > 0)) continue;
    const rng = prng.derivePrng(seed, `${plan.key}:sales:${cell.key}`);
    const noise = cell.index === 0 ? plan.noiseUngraded : plan.noiseGraded;
    const c = plan.contamination;
    const out = /** @type {SeriesBuilder} */ (cells[cell.index]);
    for (let h = 0; h < HOURS; h++) {
      const n = rng.poisson((rate / 24) * open(h));
      for (let i = 0; i < n; i++) {
        const t = START + h * HOUR + rng.int(0, 3599) * 1000;
        let u = rng.next();
        let factor = 1;
        if (u < c.typo10) factor = 10;
        else if ((u -= c.typo10) < c.typo01) factor = 0.1;
        else if ((u -= c.typo01) < c.lot) factor = rng.int(PARAMS.lotSize.min, PARAMS.lotSize.max);
        else if (u - c.lot < c.lowball) factor = rng.uniform(PARAMS.lowball.min, PARAMS.lowball.max);
        out.add(t, truth(cell.index, h) * Math.exp(noise * rng.normal()) * factor, SOURCE.sale);
      }
    }
  }

  const events = prng.derivePrng(seed, `${plan.key}:events`);
  for (const x of plan.injected) {
    if (open(x.hour) === 0) continue;
    const noise = x.cell === 0 ? plan.noiseUngraded : plan.noiseGraded;
    const t = START + x.hour * HOUR + events.int(0, 3599) * 1000;
    /** @type {SeriesBuilder} */ (cells[x.cell]).add(
      t,
      truth(x.cell, x.hour) * x.factor * Math.exp(noise * events.normal()),
      SOURCE.sale,
    );
  }
  for (const s of plan.shills) {
    for (let i = 0; i < s.count; i++) {
      const t = START + s.hour * HOUR + events.int(0, s.hours * 3600 - 1) * 1000;
      const h = Math.min(HOURS - 1, Math.floor((t - START) / HOUR));
      /** @type {SeriesBuilder} */ (cells[0]).add(
        t,
        truth(0, h) * s.factor * Math.exp(0.03 * events.normal()),
        SOURCE.sale,
      );
    }
  }
  if (plan.guides) addGuideQuotes(seed, plan, logTruth, cells, pooled);
  return { plan, logTruth, cells: cells.map((b) => b.build()), pooled: pooled.map((b) => b.build()) };
}

/**
 * Daily price-guide quotes that lag the truth like moving averages: pricecharting for the
 * conditions it covers (ungraded, the pooled `ANY` grades 7-9, each grader's 10), tcgplayer for
 * ungraded. While the card is dormant a guide repeats its last quote; a dead card gets none.
 * @param {string} seed
 * @param {ProductPlan} plan
 * @param {Float64Array} logTruth
 * @param {SeriesBuilder[]} cells
 * @param {SeriesBuilder[]} pooled
 */
function addGuideQuotes(seed, plan, logTruth, cells, pooled) {
  const rng = prng.derivePrng(seed, `${plan.key}:guides`);
  const cumulative = new Float64Array(HOURS + 1);
  for (let h = 0; h < HOURS; h++)
    cumulative[h + 1] = /** @type {number} */ (cumulative[h]) + Math.exp(/** @type {number} */ (logTruth[h]));
  /** Mean ungraded truth over the `lag` hours before hour h (hour 0's when there are none). */
  const lagged = (/** @type {number} */ h, /** @type {number} */ lag) => {
    const from = Math.max(0, h - lag);
    const to = Math.max(from + 1, h);
    const high = /** @type {number} */ (cumulative[to]);
    return (high - /** @type {number} */ (cumulative[from])) / (to - from);
  };
  const mult = (/** @type {number} */ cell) => Math.exp(/** @type {number} */ (plan.logMultiple[cell]));
  const ungraded = /** @type {number} */ (plan.cellRate[0]) > 0;
  const graded = plan.productType === 'single_card';
  /** The quote targets: [builder, multiple of the ungraded truth]. */
  /** @type {[SeriesBuilder, number][]} */
  const pc = [];
  if (ungraded) pc.push([/** @type {SeriesBuilder} */ (cells[0]), 1]);
  if (graded) {
    GRADES.slice(0, 3).forEach((_, ni) => {
      let pooledMultiple = 0;
      GRADERS.forEach(
        (__, gi) =>
          (pooledMultiple += /** @type {number} */ (plan.graderWeight[gi]) * mult(cellIndex(gi, ni))),
      );
      pc.push([/** @type {SeriesBuilder} */ (pooled[ni]), pooledMultiple]);
    });
    GRADERS.forEach((_, gi) => {
      if (/** @type {number} */ (plan.graderWeight[gi]) > 0)
        pc.push([/** @type {SeriesBuilder} */ (cells[cellIndex(gi, 3)]), mult(cellIndex(gi, 3))]);
    });
  }
  /** @type {number[]} */
  let lastPc = [];
  let lastTcg = 0;
  for (let d = 0; d < DAYS; d++) {
    const hPc = d * 24 + PARAMS.pricecharting.hourOfDay;
    const hTcg = d * 24 + PARAMS.tcgplayer.hourOfDay;
    const frozen = (/** @type {number} */ h) =>
      plan.dormant !== null && h >= plan.dormant.from && h < plan.dormant.to;
    const dead = (/** @type {number} */ h) => plan.deadFrom !== null && h >= plan.deadFrom;
    if (!dead(hPc)) {
      const base = lagged(hPc, PARAMS.pricecharting.lagHours);
      if (!frozen(hPc) || lastPc.length === 0)
        lastPc = pc.map(([, m]) => base * m * Math.exp(PARAMS.pricecharting.noise * rng.normal()));
      pc.forEach(([builder], i) =>
        builder.add(START + hPc * HOUR, /** @type {number} */ (lastPc[i]), SOURCE.pricecharting),
      );
    }
    if (ungraded && !dead(hTcg)) {
      if (!frozen(hTcg) || lastTcg === 0)
        lastTcg = lagged(hTcg, PARAMS.tcgplayer.lagHours) * Math.exp(PARAMS.tcgplayer.noise * rng.normal());
      /** @type {SeriesBuilder} */ (cells[0]).add(START + hTcg * HOUR, lastTcg, SOURCE.tcgplayer);
    }
  }
}

/**
 * The whole market of a scale.
 * @param {string} seed
 * @param {'small' | 'full'} scale
 * @param {string | null} only scenario names, comma-separated
 * @returns {Market}
 */
export function buildMarket(seed, scale, only = null) {
  return { seed, scale, products: planProducts(seed, scale, only).map((plan) => productMarket(seed, plan)) };
}

/**
 * The same market with the price-guide quotes of some scenarios' products taken out (their sales
 * kept, every other product whole): what the engine would know from sales alone.
 * @param {Market} market
 * @param {readonly string[]} scenarios
 * @returns {Market}
 */
export function withoutQuotes(market, scenarios) {
  /** @param {Series} s @returns {Series} */
  const salesOf = (s) => {
    const keep = [];
    for (let i = 0; i < s.source.length; i++) if (s.source[i] === SOURCE.sale) keep.push(i);
    return {
      t: Float64Array.from(keep, (i) => /** @type {number} */ (s.t[i])),
      price: Float64Array.from(keep, (i) => /** @type {number} */ (s.price[i])),
      source: Uint8Array.from(keep, (i) => /** @type {number} */ (s.source[i])),
    };
  };
  return {
    ...market,
    products: market.products.map((p) =>
      scenarios.includes(p.plan.scenario)
        ? { ...p, cells: p.cells.map(salesOf), pooled: p.pooled.map(salesOf) }
        : p,
    ),
  };
}

/**
 * Observation counts of a market: sales (contaminated ones included) and quotes, overall and per scenario.
 * @param {Market} market
 */
export function marketCounts(market) {
  /** @typedef {{ products: number, sales: number, quotes: number }} Counts */
  /** @type {Counts} */
  const total = { products: 0, sales: 0, quotes: 0 };
  /** @type {Record<string, Counts>} */
  const scenarios = {};
  for (const p of market.products) {
    const mine = (scenarios[p.plan.scenario] ??= { products: 0, sales: 0, quotes: 0 });
    for (const c of [total, mine]) c.products++;
    for (const s of [...p.cells, ...p.pooled]) {
      let sales = 0;
      for (const src of s.source) if (src === SOURCE.sale) sales++;
      for (const c of [total, mine]) {
        c.sales += sales;
        c.quotes += s.source.length - sales;
      }
    }
  }
  return { ...total, scenarios };
}
