/**
 * The price points of many instants of one product (a price history), read with one
 * statement for the latest few per condition before the earliest instant's lookback, then,
 * condition by condition, every priced point from there to the latest instant a page of
 * SERIES_PAGE_POINTS at a time (two statements per instant before). The engine sorts them once
 * into a timeline and slices it per instant (engine/series.ts), so every instant sees exactly
 * what `read` (price-points.ts) returns for its range and is priced as `oracle price --at`
 * would price it.
 *
 * Pages, because better-sqlite3 reads synchronously: a busy product's long history is a great
 * many points, and read in one statement it would hold the event loop for as long. Between
 * two pages the read awaits the caller's `pause` (service/turns.ts), where the server answers
 * whatever arrived meanwhile.
 */
import type { Statement } from 'better-sqlite3';
import { PRICED_CONDITIONS } from '../../domain/conditions.js';
import { conditionColumns, seriesSpan, type Row, type SeriesColumns } from '../series-points.js';
import { type SqliteDatabase } from './connection.js';
import type { PricePointRange, ReadPause } from '../store.js';
import type { ConditionPoints } from '../../domain/observation.js';
import { onFirstUse } from '../../domain/first-use.js';

/**
 * Most points one statement of a series read takes: a few milliseconds of the event loop,
 * a small share of the slice a history runs in (service/turns.ts SLICE_MS).
 */
export const SERIES_PAGE_POINTS = 2_000;

/** A page of a condition's points as four JSON arrays of one aggregate row. */
type PageRow = [observedAt: string, priceMinor: string, source: string, salesVolume: string];

/** The priced conditions in the order a GROUP BY condition returns them (the order of the reads before pages). */
const CONDITION_ORDER = [...PRICED_CONDITIONS].sort();

const noPause: ReadPause = () => Promise.resolve();

export function createPricePointSeriesReader(db: SqliteDatabase, pagePoints = SERIES_PAGE_POINTS) {
  // A busy product's year is a great many points: one aggregate row per page, its columns as
  // JSON arrays, hands them over far more cheaply than a row array per point
  // (bench/findings.md). A page follows the covering index's scan of one condition, in the
  // index's order (time, price, source), the engine's, with no sort (checked in the tests;
  // the engine sorts anyway if an order ever differs). LIMIT -1 is no limit.
  const pageColumns = onFirstUse(() =>
    db
      .prepare<[number, string, number, number, number], PageRow>(
        `SELECT json_group_array(observed_at), json_group_array(price_minor), json_group_array(source), json_group_array(sales_volume)
         FROM (SELECT observed_at, price_minor, source, CASE WHEN external_id = '' THEN sales_volume END AS sales_volume FROM observations
           WHERE product_id = ? AND condition = ? AND observed_at >= ? AND observed_at < ?
           ORDER BY observed_at, price_minor, source, external_id LIMIT ?)`,
      )
      .raw(),
  );
  // Limits are literals, as in price-points.ts: one statement per limit, prepared once.
  const olderStatements = new Map<number, Statement<[{ productId: number; before: number }], Row>>();
  function olderThan(limit: number) {
    let statement = olderStatements.get(limit);
    if (statement === undefined) {
      if (!Number.isSafeInteger(limit) || limit < 0)
        throw new RangeError(`point limit must be an integer >= 0 (got ${limit})`);
      const parts = PRICED_CONDITIONS.map(
        (
          c,
        ) => `SELECT * FROM (SELECT condition, source, observed_at, price_minor, CASE WHEN external_id = '' THEN sales_volume END FROM observations
         WHERE product_id = @productId AND condition = '${c}' AND observed_at < @before ORDER BY observed_at DESC LIMIT ${limit})`,
      );
      statement = db.prepare<[{ productId: number; before: number }], Row>(parts.join(' UNION ALL ')).raw();
      olderStatements.set(limit, statement);
    }
    return statement;
  }

  /** The points of one condition in [from, to), at most `limit` (-1: all). */
  function page(
    productId: number,
    condition: string,
    from: number,
    to: number,
    limit: number,
  ): SeriesColumns {
    const [observedAt, priceMinor, source, salesVolume] = pageColumns().get(
      productId,
      condition,
      from,
      to,
      limit,
    )!;
    return {
      observedAt: JSON.parse(observedAt) as number[],
      priceMinor: JSON.parse(priceMinor) as number[],
      source: JSON.parse(source) as string[],
      salesVolume: JSON.parse(salesVolume) as (number | null)[],
    };
  }

  /**
   * The points of one condition in [from, to), a page at a time. A full page ends before its
   * last instant, whose points the next page starts with, so no instant is split between two
   * pages; a page that is all one instant gives way to that instant's points, however many.
   */
  async function conditionPages(
    productId: number,
    condition: string,
    from: number,
    to: number,
    pause: ReadPause,
  ): Promise<SeriesColumns[]> {
    const pages: SeriesColumns[] = [];
    while (from < to) {
      await pause();
      const read = page(productId, condition, from, to, pagePoints);
      const n = read.observedAt.length;
      if (n < pagePoints) {
        pages.push(read);
        break;
      }
      const last = read.observedAt[n - 1]!;
      let cut = n - 1;
      while (cut > 0 && read.observedAt[cut - 1] === last) cut--;
      if (cut === 0) {
        await pause();
        pages.push(page(productId, condition, last, last + 1, -1));
        from = last + 1;
      } else {
        pages.push({
          observedAt: read.observedAt.slice(0, cut),
          priceMinor: read.priceMinor.slice(0, cut),
          source: read.source.slice(0, cut),
          salesVolume: read.salesVolume.slice(0, cut),
        });
        from = last;
      }
    }
    return pages;
  }

  return {
    /** Every point any of the ranges needs (seriesSpan), per priced condition in time order; `pause` between two statements. */
    async readSeries(
      productId: number,
      ranges: readonly PricePointRange[],
      pause = noPause,
    ): Promise<ConditionPoints[]> {
      const span = seriesSpan(ranges);
      if (span === null) return [];
      const columns = conditionColumns(olderThan(span.prior).all({ productId, before: span.from }));
      for (const condition of CONDITION_ORDER) {
        const pages = await conditionPages(productId, condition, span.from, span.to, pause);
        if (pages.some((p) => p.observedAt.length > 0)) columns.addPages(condition, pages);
      }
      return columns.done();
    },
  };
}
