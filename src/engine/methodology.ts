/**
 * Every constant, weight, threshold, prior, methodology key and fallback tier of the pricing
 * engine (methodology v2), in one place. Each comment names its section of
 * docs/methodology.md, where the backtest evidence for its value is; changing a value here
 * changes published prices, so change the document with it.
 */
import { DAY_MS, HOUR_MS } from '../domain/time.js';

/** §2 Windows: the 30-day lookback of the top-up (§3) and of the last-known pass (§8). */
export const EXTENDED_WINDOW_MS = 30 * DAY_MS;
export const EXTENDED_WINDOW_HOURS = EXTENDED_WINDOW_MS / HOUR_MS;

/**
 * §2.1 Depth cap: of each priced condition's points in the 30 days before the requested
 * window, only the latest this many are read. The top-up (§3) needs at most
 * MIN_REFERENCE_POINTS of them, so the cost of a bundle grows with the points in its windows,
 * not with a product's history.
 */
export const EXTENDED_DEPTH_PER_CONDITION = 32;

/** §8 Last known price: the latest points per condition older than 30 days. */
export const PRIOR_POINTS_PER_CONDITION = 3;

/**
 * §3 Reference set: a window with fewer points than this is topped up with the latest earlier
 * points of the same condition, so the filter's median and MAD are built from enough points.
 */
export const MIN_REFERENCE_POINTS = 20;

/**
 * §3.2 Regime change: when the median of the newest points (at least this many) lies beyond
 * the filter bounds of the points before them, the market moved: the reference becomes those
 * points, so older sales never outvote a consistent run of new ones.
 */
export const REGIME_RUN_POINTS = 3;
/** §3.2 Share of the newest points that must lie past the midpoint between the old centre and their median. */
export const REGIME_SHARE = 0.8;
/** §3.2 The newest points must span at least this many mean gaps between the reference set's sales. */
export const REGIME_SPAN_GAPS = 1;
/** §3.2 The newest of them must have sold within this many mean gaps of the newest point. */
export const REGIME_RECENT_GAPS = 2;

/** §3.1 MAD to standard deviation of a normal distribution (1 / Φ⁻¹(0.75)). */
export const MAD_TO_SIGMA = 1.4826;

/** §3.1 Floor of the filter's robust scale in ln(price) units (about 10 %). */
export const LOG_SCALE_FLOOR = 0.1;

/**
 * §4 Recency weights 2^(-age / h): the half-life h is the age of the RECENCY_POINTS-th newest
 * kept point, but at least MIN_HALF_LIFE_MS, so a busy card averages its recent sales and a
 * thin one its last few, whatever their age.
 */
export const MIN_HALF_LIFE_MS = 12 * HOUR_MS;
export const RECENCY_POINTS = 8;

/**
 * §4.1 Quote weight: a price guide's quote that says how many sales it summarises
 * (`sales_volume`, PriceCharting's count of the product's sales over a long span, every grade together)
 * counts as `min(QUOTE_WEIGHT_CAP, 1 + log10(1 + volume))` sales; a sale and a quote without a
 * volume count once. Bounded and slow-growing: the volume is the product's, over a year, not
 * the cell's sales in the guide's window, and a guide's quote lags the market (a moving
 * average), an error no volume removes.
 */
export const QUOTE_WEIGHT_CAP = 2;

/**
 * §4.1 Sources whose points are price guides' quotes (a summary of many past sales, not one
 * sale) even without a `sales_volume`: PriceCharting's rows, TCGplayer's market price and
 * Cardmarket's trend price (the feeds of docs/feeds.md; Scryfall relays the last two). A point
 * with a `sales_volume` is a quote whatever its source.
 */
export const PRICE_GUIDE_SOURCES: readonly string[] = ['pricecharting', 'tcgplayer', 'cardmarket'];

/**
 * §4.1 Quotes are aggregates: a guide's quote is a summary of the sales of a trailing span
 * before its date (a moving average), so it stands for the market that much earlier. Its
 * recency weight and drift (§4, §5) use its age plus this, the mean age of the sales it
 * summarises; the regime rule (§3.2) judges a run on its sales alone.
 */
export const QUOTE_AGE_MS = 3 * DAY_MS;

/**
 * §4.1, §5 Quotes are correlated: a guide's daily values are a moving average over a trailing
 * span, so two quotes of one source less than this apart summarise many of the same sales.
 * Their errors are correlated by the share of the span they share, 1 - gap / span, so the
 * quotes of one source within a span count as about one effective point (§5), not one each.
 * The span whose mean sale age is QUOTE_AGE_MS.
 */
export const QUOTE_SPAN_MS = 2 * QUOTE_AGE_MS;

/**
 * §4.2 Quotes followed: a condition whose reference set is more than this share guide quotes
 * (§4.1) is priced from its latest quote and the points newer than it, not from an average of
 * its older quotes: a quote is already an average, and a move in the quotes is a move. The
 * older points set only the filter's scale, against which the newer sales are checked.
 */
export const QUOTE_LED_SHARE = 0.5;

/** §4.1 The weight of a point that summarises `volume` sales (null: a sale, weight 1). */
export function quoteWeight(volume: number | null | undefined): number {
  if (volume === null || volume === undefined || !(volume >= 0)) return 1;
  return Math.min(QUOTE_WEIGHT_CAP, 1 + Math.log10(1 + volume));
}

/**
 * §5 Uncertainty of one estimate: sale-to-sale scale (ln units) assumed before any point is
 * seen, its weight in points, and the variance the true price drifts by per day of the
 * weighted mean age of the points.
 */
export const SALE_SIGMA_PRIOR = 0.15;
export const SALE_SIGMA_PRIOR_POINTS = 3;
export const DRIFT_VARIANCE_PER_DAY = 0.0004;

/**
 * §6.2 Cross-check: a thin condition (fewer kept points than CROSS_CHECK_MAX_POINTS) whose
 * implied card level lies beyond CROSS_CHECK_SIGMAS standard deviations of the card's is set aside.
 */
export const CROSS_CHECK_SIGMAS = 3;
export const CROSS_CHECK_MAX_POINTS = 3;

/**
 * §6.1 Carried move: a thin condition's own estimate is shifted by the busiest condition's move
 * since the thin one's points sold (their weighted mean time), when that move is at least
 * CARRY_MIN_MOVE in ln and has held for CARRY_HOLD_MS. The busiest condition's level at a time
 * is the median of its points within CARRY_SPAN_MS either side (at least CARRY_REFERENCE_POINTS).
 */
export const CARRY_MIN_MOVE = 0.15;
export const CARRY_REFERENCE_POINTS = 8;
export const CARRY_HOLD_MS = 6 * HOUR_MS;
export const CARRY_SPAN_MS = 12 * HOUR_MS;
/**
 * §6.6 Own evidence first: a cell with at least this many kept points in the requested window
 * (the filter found them mutually consistent) is priced within their range, whatever the card
 * model says; the cross-check (§6.2) never sets such a cell aside either.
 */
export const OWN_EVIDENCE_MIN_POINTS = 3;
/**
 * §6.6 `meta.basis`: a cell with fewer kept window points is `own` when its own estimate
 * carries at least this share of the blend (§6.4), else an estimate pooled from the card.
 */
export const OWN_BASIS_MIN_WEIGHT = 0.5;
/**
 * §6.4 Gap in the blend's variance: w·var_own + BLEND_GAP_WEIGHT·w·(1 - w)·gap², the gap being
 * own minus prediction. Two parts that disagree say one of them is off by more than its
 * variance allows (after a jump, the one resting on older or lagging data), and the blend
 * cannot tell which: at equal weights its variance holds the whole squared gap.
 */
export const BLEND_GAP_WEIGHT = 4;
/** §6.4 A cell with at least this many kept points in the requested window is priced by its own estimate alone (full weight to plentiful own data). */
export const OWN_FULL_WEIGHT_POINTS = 10;
/** §6.3 Huber weights of the pieces of a prediction: beyond this many standard deviations from the pool, weight · k/|r|; passes after the first. */
export const PREDICTION_HUBER_K = 1.5;
export const PREDICTION_HUBER_PASSES = 2;

/**
 * §7.3 Calibration shrinks each fit toward its prior by the evidence it rests on: a condition's
 * fitted ratio and spread (a pair's spread) seen on n products weigh n / (n + this) against the
 * prior's. 4: a fit on 4 cards counts as much as the prior, one on 3 moves a ratio less than half
 * of the way (a CGC 9 fitted on 3 cards at 2 x PSA 9 comes out about 1.35 x).
 */
export const CALIBRATION_PRIOR_PRODUCTS = 4;

/** §9 Confidence level of `meta.confidence` and its two-sided normal quantile. */
export const CONFIDENCE_LEVEL = 0.8;
export const CONFIDENCE_Z = 1.2816;

/**
 * §9 The 80 % interval is a prediction interval for the next arm's-length sale in the slot (the
 * next quote of a quote-only slot): the level's variance plus one sale's scatter around it, times
 * the tier's width factor, times the 80 % quantile of the standardised residuals
 * |ln(next sale / price)| / (factor · √(variance + scatter)) of real sales, by whether the price
 * rests on the cell's own observations (of any age) or only on other cells, and by the age of the
 * newest observation it rests on. Rows: [up to this age in days, own data, other cells].
 * Source: split-conformal on the fit spans of the real-sales corpora (backtest/corpora/splits.js):
 * PSA's Auction Prices Realized register (tostenzel/psa-prizes), its 1,005 scored sales before
 * 2019 (own data: 0.82, 0.87, 0.59 by age, on 343, 408 and 254 sales; the last raised to 0.87 so
 * the width never shrinks with age), reported on its sales of 2019-2020 and on the corpora held
 * out whole (docs/backtest.md "Fit and held out"). Reproduce: `node backtest/fit-quantiles.js
 * <residuals>` on the residuals of `npm run backtest -- --real-sales <dir> --residuals <file>`.
 * The register prices no sale from other cells alone: that column stays the normal quantile
 * CONFIDENCE_Z.
 */
export const PREDICTION_QUANTILE: readonly (readonly [number, number, number])[] = [
  [7, 0.82, CONFIDENCE_Z],
  [30, 0.87, CONFIDENCE_Z],
  [Infinity, 0.87, CONFIDENCE_Z],
];

/** §10 A slot is stale when its newest observation is older than this. */
export const STALE_AFTER_MS = 7 * DAY_MS;

/**
 * §9.1 Estimates we do not publish: a cell whose price would be an estimate (§6.6 `basis`
 * estimated) gets no price when its 80 % interval (§9) would span more than
 * e^ESTIMATE_MAX_LOG_WIDTH (about 2.2-fold: the ratio that carries other cells' data to it varies
 * that much between cards), or when the newest observation it rests on is older than
 * STALE_AFTER_MS. On the backtest more than half of the first kind are off by more than 25 %,
 * and a third of the second kind, whose interval covers the truth less often than it says.
 */
export const ESTIMATE_MAX_LOG_WIDTH = 0.8;
/** §9.1 The two limits in the words the views use when they say why a price is withheld. */
export const NO_PRICE_LIMITS = {
  staleAge: `${STALE_AFTER_MS / DAY_MS} days`,
  maxSpread: `${Math.exp(ESTIMATE_MAX_LOG_WIDTH).toFixed(1)}-fold`,
} as const;
/** §9.1 `meta.no_price_reason` values of a slot whose estimate was withheld. */
export const NO_PRICE_REASON = {
  /** The estimate rests on data whose newest observation is older than STALE_AFTER_MS. */
  stale: 'stale_estimate',
  /** Its 80 % interval would span more than e^ESTIMATE_MAX_LOG_WIDTH. */
  wide: 'wide_estimate',
  /** §18 Its sources disagree beyond CROSS_SOURCE_MAX_RATIO (the ungraded slot only). */
  sources: 'sources_disagree',
} as const;

/** §11 `methodology` values. The own-window key carries the window hours (1-72). */
export function ownMethodology(windowHours: number): string {
  return `robust_recency_${windowHours}h_v2`;
}
export const METHODOLOGY = {
  /** Own observations, the window topped up with earlier ones (§3). */
  toppedUp: `robust_recency_${EXTENDED_WINDOW_HOURS}h_v2`,
  /** Priced from the card's other conditions (§6). */
  cardModel: 'card_model_v2',
  /** No observation in 30 days anywhere: the last known points (§8). */
  lastKnown: 'last_known_v2',
} as const;

/** §8 `meta.oracle_fallback_tier` values. */
export const FALLBACK_TIER = {
  /** Same grade, other graders, through the grader premiums. */
  graderPremium: 'grader_premium',
  /** Same grader, other grades, through the grade ratios. */
  gradeRatio: 'grade_ratio',
  /** Only other conditions (ungraded for a graded cell, or only other graders and grades). */
  cardLevel: 'card_level',
  /** Ungraded from graded conditions. */
  gradedRatio: 'graded_ratio',
  /** The cell's own points disagreed with the rest of the card and were set aside (§6.2). */
  crossCheck: 'cross_check',
  /** Own points older than 30 days, nothing newer in the product (§8). */
  lastKnownPrice: 'last_known_price',
} as const;
export type FallbackTier = (typeof FALLBACK_TIER)[keyof typeof FALLBACK_TIER];

/**
 * §9 Interval width factor per way a price was obtained (own data: `own`), applied to the
 * estimate's standard deviation; fitted on the backtest so each lands near 80 % coverage.
 */
export const WIDTH_FACTOR: Readonly<Record<FallbackTier | 'own', number>> = {
  own: 1,
  grader_premium: 1.1,
  grade_ratio: 0.8,
  card_level: 1,
  graded_ratio: 1.1,
  cross_check: 1.2,
  last_known_price: 1.5,
};

/** §6.1 Smallest between-card spread (ln units) a calibrated condition is trusted to: a fit is never exact. */
export const MIN_DISPERSION = 0.05;

/**
 * §16 Currencies: how many days an ECB reference rate stands for the days after it that have
 * none (weekends, TARGET holidays: at most four in a row since 1999). A longer gap means the
 * rates were not ingested: the observation is refused, never converted at a stale rate.
 */
export const RATE_CARRY_DAYS = 7;

/**
 * §17 Market indexes (docs/methodology.md §17): a chained Jevons index (the default), each
 * step's link the mean of its members' log price moves, each member's share of a link capped;
 * or a chained Laspeyres index, its basket's weights capped (§17.7).
 */
/** §17.1 The index's value at its base date. */
export const INDEX_BASE_VALUE = 1000;
/** §17.2 The most one member moves a link (ln units, ≈ 3 %): its move ÷ members priced, clamped to ± this. */
export const INDEX_MEMBER_CAP = 0.03;
/** §17.3 A member without a price at an instant is carried at its last price for at most this long (ms: 30 days). */
export const INDEX_CARRY_MS = 30 * 24 * 3_600_000;
/** §17.4 Membership: observations of the index's slot in the year before a rebalance, */
export const INDEX_MIN_OBSERVATIONS_YEAR = 2;
/** and in the half-year before it (Card Ladder's rule). */
export const INDEX_MIN_OBSERVATIONS_HALF_YEAR = 1;
/** §17.4 Membership is re-decided every this long from the base date (ms: 91 days, a quarter). */
export const INDEX_REBALANCE_MS = 91 * 24 * 3_600_000;
/**
 * §17.7 The chained Laspeyres method: the most of the basket one member's weight (its price's
 * share) is at a rebalance (cardsearch.ai caps each card at 8-12 %); the excess goes to the others.
 */
export const INDEX_WEIGHT_CAP = 0.1;

/**
 * §18 Cross-source check: the ungraded price is withheld when two sources' medians of the 30
 * days (each in US cents, converted at the ECB rate of its day) differ by more than this factor
 * and by more than CROSS_SOURCE_MIN_GAP_MINOR. Markets differ (a Cardmarket trend in euros
 * against a TCGplayer market price in dollars: shipping, the EU and US markets, the mix of
 * conditions sold), but by tens of percent; a product mapped to the wrong card or variant (a
 * common given its VMAX's price, a parallel its base card's) is off by a factor of several.
 */
export const CROSS_SOURCE_MAX_RATIO = 2.5;
/**
 * §18 ... and by more than this many cents: bulk cards (a few cents on one market, a quarter on
 * the other) differ by large factors that say nothing about the mapping.
 */
export const CROSS_SOURCE_MIN_GAP_MINOR = 500;
/**
 * §18 A source of sales the robust filter drops whole is judged on all its points only when it
 * has at least this many: one sale far from the rest is an outlier (a wild sale, a typo), not a
 * source out of line; two or more that agree with each other and with no other source are. A
 * guide's quote is judged alone: it is already a market's average.
 */
export const CROSS_SOURCE_MIN_POINTS = 2;
