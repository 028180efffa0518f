/**
 * The server's PostgreSQL store keeps products' priced points in memory between two data
 * versions, so a bundle read is a slice of memory, not a round trip and 42 index descents. On
 * SQLite the read is in process anyway; this is the PostgreSQL store's equivalent of it for
 * the replicas it exists for.
 *
 * Freshness is the bundle cache's: everything kept is dropped when the store's data version
 * (data-version.ts: a local counter moved by NOTIFY, by the listening connection's heartbeat,
 * and by any loss of that connection) moves, so a write by any process is read again as soon
 * as the replica hears of its commit, and nothing read before a lost connection outlives it.
 * Only a store that follows the version (the server's, opened read-only) keeps points: a
 * command's version never moves, so a command always reads the database.
 *
 * A product is read whole, once per version (concurrent first reads share the statement), in
 * the reader's order: per condition by time, price, source and external id (C order). A range
 * is then the slices price-points.ts's statement selects: per condition, the latest `prior`
 * points before the lookback, the latest `depth` of the lookback, and every point of the
 * window. A product of more than `maxPointsPerProduct` observations is not kept (reading it
 * whole would cost more than its reads save): it is remembered as too large, for the version,
 * and its reads go to the database. Memory is bounded by `maxPoints` over all
 * products, least recently read dropped first.
 */
import { LRUCache } from 'lru-cache';
import { PRICED_CONDITIONS } from '../../domain/conditions.js';
import type { PricePoint } from '../../domain/observation.js';
import type { PricePointRange } from '../store.js';

export interface PointCacheLimits {
  /** Most observations a product may have and be kept (its priced points, and its count as the ingest keeps it). */
  maxPointsPerProduct: number;
  /** Most points kept over all products. */
  maxPoints: number;
}

/**
 * Defaults: a product of up to 10,000 priced points is read whole in about the time of a few
 * bundle reads, and 500,000 points (a few tens of MB as columns) hold the catalog's active
 * products of a typical deployment; bench/findings.md section 12 has the figures.
 */
export const POINT_CACHE_DEFAULTS: PointCacheLimits = { maxPointsPerProduct: 10_000, maxPoints: 500_000 };

/** One row of the product's read, in the reader's order. */
export interface CachedPointRow {
  condition: string;
  source: string;
  observed_at: number;
  price_minor: number;
  sales_volume: number | null;
}

/** One condition's points as columns, in the reader's order. */
interface Columns {
  observedAt: Float64Array;
  priceMinor: Float64Array;
  source: string[];
  salesVolume: (number | null)[];
}

/** A product's points per priced condition (PRICED_CONDITIONS' order; null: none), or too large to keep. */
type Kept = { conditions: (Columns | null)[]; points: number } | 'too large';

const CONDITION_INDEX = new Map(PRICED_CONDITIONS.map((c, i) => [c, i]));
/** The window's points come per condition in C order of the names, as the statement orders them. */
const WINDOW_ORDER = PRICED_CONDITIONS.map((_, i) => i).sort((a, b) => (PRICED_CONDITIONS[a]! < PRICED_CONDITIONS[b]! ? -1 : 1));

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

function columnsOf(rows: readonly CachedPointRow[]): (Columns | null)[] {
  const counts = new Array<number>(PRICED_CONDITIONS.length).fill(0);
  for (const row of rows) counts[CONDITION_INDEX.get(row.condition)!]! += 1;
  const conditions = counts.map((n): Columns | null =>
    n === 0 ? null : { observedAt: new Float64Array(n), priceMinor: new Float64Array(n), source: [], salesVolume: [] },
  );
  // Sources repeat on almost every row: one string each, not one per row.
  const sources = new Map<string, string>();
  for (const row of rows) {
    const c = conditions[CONDITION_INDEX.get(row.condition)!]!;
    const i = c.source.length;
    c.observedAt[i] = row.observed_at;
    c.priceMinor[i] = row.price_minor;
    let source = sources.get(row.source);
    if (source === undefined) sources.set(row.source, (source = row.source));
    c.source.push(source);
    c.salesVolume.push(row.sales_volume);
  }
  return conditions;
}

function pushPoints(out: PricePoint[], condition: string, c: Columns, from: number, to: number): void {
  for (let i = from; i < to; i++) {
    out.push({ condition, source: c.source[i]!, observedAt: c.observedAt[i]!, priceMinor: c.priceMinor[i]!, salesVolume: c.salesVolume[i]! });
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
  /** The points of `range` from memory, read whole first if need be; undefined: the product is too large to keep. */
  read(productId: number, range: PricePointRange): Promise<PricePoint[] | undefined>;
}

/**
 * `readAll(productId, limit)`: the product's priced points in the reader's order, undefined
 * when there are more than `limit`; `version()`: the store's data version.
 */
export function createPointCache(
  readAll: (productId: number, limit: number) => Promise<CachedPointRow[] | undefined>,
  version: () => number,
  limits: PointCacheLimits = POINT_CACHE_DEFAULTS,
): PointCache {
  const kept = new LRUCache<number, Kept>({
    maxSize: limits.maxPoints,
    sizeCalculation: (entry) => (entry === 'too large' ? 1 : Math.max(1, entry.points)),
  });
  /** Reads under way, shared by the reads that arrive meanwhile. */
  const reading = new Map<number, Promise<Kept>>();
  let keptVersion = version();

  async function load(productId: number, at: number): Promise<Kept> {
    const rows = await readAll(productId, limits.maxPointsPerProduct);
    const entry: Kept = rows === undefined ? 'too large' : { conditions: columnsOf(rows), points: rows.length };
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
          pending = load(productId, at).finally(() => {
            if (reading.get(productId) === pending) reading.delete(productId);
          });
          reading.set(productId, pending);
        }
        entry = await pending;
      }
      return entry === 'too large' ? undefined : slice(entry.conditions, range);
    },
  };
}
