/**
 * The server's PostgreSQL store keeps products' recent priced points in memory between two
 * data versions, so a bundle read is a slice of memory, not a round trip and 42 index
 * descents. On SQLite the read is in process anyway; this is the PostgreSQL store's
 * equivalent of it, for the replicas it exists for.
 *
 * Freshness is the bundle cache's: everything kept is dropped when the store's data version
 * (data-version.ts: a local counter moved by NOTIFY, by the listening connection's heartbeat,
 * and by any loss of that connection) moves, so a write by any process is read again as soon
 * as the replica hears of its commit, and nothing read before a lost connection outlives it.
 * Only a store that follows the version (the server's, opened read-only) keeps points: a
 * command's version never moves, so a command always reads the database.
 *
 * What is kept of a product is its tail, read at its first read in a version (concurrent
 * first reads share it): per priced condition, every point from TAIL_SLACK_MS before that
 * read's lookback on, and the latest `priorPerCondition` before that, in the reader's order
 * (by time, price, source and external id, in C order). A range is then the slices
 * price-points.ts's statement selects: per condition the latest `prior` points before the
 * lookback, the latest `depth` of the lookback, every point of the window. A range the tail
 * cannot answer exactly (a lookback before the tail, more older points than it holds) is read
 * from the database. A product whose tail has more than `maxPointsPerProduct` points is not
 * kept (reading it would cost more than its reads save): it is remembered as too large for
 * the version, and its reads go to the database. Memory is bounded by `maxPoints` over all
 * products, least recently read dropped first.
 */
import { LRUCache } from 'lru-cache';
import { PRICED_CONDITIONS } from '../../domain/conditions.js';
import type { PricePoint } from '../../domain/observation.js';
import type { PricePointRange } from '../store.js';

export interface PointCacheLimits {
  /** Most points of a product's tail that may be kept. */
  maxPointsPerProduct: number;
  /** Most points kept over all products. */
  maxPoints: number;
}

/**
 * Defaults: a tail larger than 10,000 points would cost more to read after every version
 * change than the bundles of one version save; 500,000 points bound the memory over all
 * products (bench/findings.md section 12a: what a read and a point cost).
 */
const POINT_CACHE_DEFAULTS: PointCacheLimits = { maxPointsPerProduct: 10_000, maxPoints: 500_000 };

/**
 * How far before its first read's lookback a product's tail starts: requests for a moment a
 * little earlier (`at`) are answered from it too; the requests for now only move forward.
 */
export const TAIL_SLACK_MS = 7 * 86_400_000;

/** One row of a product's tail. */
export interface CachedPointRow {
  condition: string;
  source: string;
  observed_at: number;
  price_minor: number;
  sales_volume: number | null;
}

/**
 * Reads a product's tail from `from` on: `older`, the latest `prior` points before `from` per
 * condition (conditions in PRICED_CONDITIONS' order, each newest first); `tail`, every point
 * from `from` on (per condition in the reader's order); undefined when `tail` has more than
 * `limit` points.
 */
export type ReadTail = (
  productId: number,
  from: number,
  prior: number,
  limit: number,
) => Promise<{ older: CachedPointRow[]; tail: CachedPointRow[] } | undefined>;

/** One condition's points as columns, in the reader's order. */
interface Columns {
  observedAt: Float64Array;
  priceMinor: Float64Array;
  source: string[];
  salesVolume: (number | null)[];
}

/** A product's tail (conditions in PRICED_CONDITIONS' order; null: no point), or too large to keep. */
type Kept = Tail | 'too large';

interface Tail {
  conditions: (Columns | null)[];
  /** Where the tail starts: every point from here on is kept. */
  from: number;
  /** Per condition, whether every point is kept: fewer than `prior` were found before `from`. */
  whole: boolean[];
  points: number;
}

const CONDITION_INDEX = new Map(PRICED_CONDITIONS.map((c, i) => [c, i]));
/** The window's points come per condition in C order of the names, as the statement orders them. */
const WINDOW_ORDER = PRICED_CONDITIONS.map((_, i) => i).sort((a, b) =>
  PRICED_CONDITIONS[a]! < PRICED_CONDITIONS[b]! ? -1 : 1,
);

/** First index whose time is >= `at`. */
function lowerBound(t: Float64Array, at: number): number {
  let lo = 0;
  let hi = t.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (t[mid]! < at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function columnsOf(older: readonly CachedPointRow[], tail: readonly CachedPointRow[]): (Columns | null)[] {
  const counts = new Array<number>(PRICED_CONDITIONS.length).fill(0);
  for (const row of older) counts[CONDITION_INDEX.get(row.condition)!]! += 1;
  for (const row of tail) counts[CONDITION_INDEX.get(row.condition)!]! += 1;
  const conditions = counts.map((n): Columns | null =>
    n === 0
      ? null
      : { observedAt: new Float64Array(n), priceMinor: new Float64Array(n), source: [], salesVolume: [] },
  );
  // Sources repeat on almost every row: one string each, not one per row.
  const sources = new Map<string, string>();
  const add = (row: CachedPointRow) => {
    const c = conditions[CONDITION_INDEX.get(row.condition)!]!;
    const i = c.source.length;
    c.observedAt[i] = row.observed_at;
    c.priceMinor[i] = row.price_minor;
    let source = sources.get(row.source);
    if (source === undefined) sources.set(row.source, (source = row.source));
    c.source.push(source);
    c.salesVolume.push(row.sales_volume);
  };
  // Each condition's older points come newest first, all before its tail.
  for (let i = older.length - 1; i >= 0; i--) add(older[i]!);
  for (const row of tail) add(row);
  return conditions;
}

/** Whether `kept` holds every point `range` selects, for every condition. */
function answers(kept: Tail, range: PricePointRange): boolean {
  return kept.conditions.every((c, k) => {
    if (kept.whole[k]) return true;
    // The lookback's and window's points are all kept from `from` on; before the lookback, the latest `prior` must be too.
    return (
      range.lookbackStart >= kept.from &&
      (c === null ? 0 : lowerBound(c.observedAt, range.lookbackStart)) >= range.priorPerCondition
    );
  });
}

function pushPoints(out: PricePoint[], condition: string, c: Columns, from: number, to: number): void {
  for (let i = from; i < to; i++) {
    out.push({
      condition,
      source: c.source[i]!,
      observedAt: c.observedAt[i]!,
      priceMinor: c.priceMinor[i]!,
      salesVolume: c.salesVolume[i]!,
    });
  }
}

/** The points of `range`, in the order price-points.ts's read returns them (older per condition, last condition first; then the window). */
function slice(conditions: readonly (Columns | null)[], range: PricePointRange): PricePoint[] {
  const out: PricePoint[] = [];
  for (let k = conditions.length - 1; k >= 0; k--) {
    const c = conditions[k];
    if (!c) continue;
    const lookback = lowerBound(c.observedAt, range.lookbackStart);
    const window = lowerBound(c.observedAt, range.windowStart);
    pushPoints(out, PRICED_CONDITIONS[k]!, c, Math.max(0, lookback - range.priorPerCondition), lookback);
    pushPoints(out, PRICED_CONDITIONS[k]!, c, Math.max(lookback, window - range.depthPerCondition), window);
  }
  for (const k of WINDOW_ORDER) {
    const c = conditions[k];
    if (!c) continue;
    const window = lowerBound(c.observedAt, range.windowStart);
    pushPoints(out, PRICED_CONDITIONS[k]!, c, window, Math.max(window, lowerBound(c.observedAt, range.asOf)));
  }
  return out;
}

export interface PointCache {
  /** The points of `range` from memory, the product's tail read first if need be; undefined: read them from the database. */
  read(productId: number, range: PricePointRange): Promise<PricePoint[] | undefined>;
}

/** `readTail`: the store's read of a product's tail; `version()`: the store's data version. */
export function createPointCache(
  readTail: ReadTail,
  version: () => number,
  limits: PointCacheLimits = POINT_CACHE_DEFAULTS,
): PointCache {
  const kept = new LRUCache<number, Kept>({
    maxSize: limits.maxPoints,
    sizeCalculation: (entry) => (entry === 'too large' ? 1 : Math.max(1, entry.points)),
  });
  /** Reads under way, shared by the reads that arrive meanwhile. */
  const reading = new Map<number, Promise<Kept>>();
  /** The version what is kept was read at; read on the first read, so opening a store does not start its listening. */
  let keptVersion: number | undefined;

  async function load(productId: number, range: PricePointRange, at: number): Promise<Kept> {
    const from = range.lookbackStart - TAIL_SLACK_MS;
    const prior = range.priorPerCondition;
    const found = await readTail(productId, from, prior, limits.maxPointsPerProduct);
    let entry: Kept = 'too large';
    if (found !== undefined) {
      const conditions = columnsOf(found.older, found.tail);
      const whole = conditions.map((c) => (c === null ? 0 : lowerBound(c.observedAt, from)) < prior);
      entry = { conditions, from, whole, points: found.older.length + found.tail.length };
    }
    // Read under an older version: good for the reads that waited on it, not for keeping.
    if (keptVersion === at) kept.set(productId, entry);
    return entry;
  }

  return {
    async read(productId, range) {
      const at = version();
      if (at !== keptVersion) {
        kept.clear();
        reading.clear();
        keptVersion = at;
      }
      let entry = kept.get(productId);
      if (entry === undefined) {
        let pending = reading.get(productId);
        if (pending === undefined) {
          pending = load(productId, range, at).finally(() => {
            if (reading.get(productId) === pending) reading.delete(productId);
          });
          reading.set(productId, pending);
        }
        entry = await pending;
      }
      return entry === 'too large' || !answers(entry, range) ? undefined : slice(entry.conditions, range);
    },
  };
}
