/**
 * Published market index values (docs/indexes.md, "Published values"): `publishIndex` stores
 * the daily values computed now, each day already published with other figures as that day's
 * next version (never an update); `publishedIndex` is `showIndex` with each published day read
 * back instead of recomputed, so a value once quoted stays what it was unless a version says
 * otherwise.
 */
import { OUTLIER_STDDEVS, WINDOW_HOURS } from '../domain/bundle.js';
import { InvalidParameterError } from '../domain/errors.js';
import { stepMs } from '../domain/history.js';
import {
  INDEX_PUBLISHED_EVERY,
  type IndexSpanRequest,
  type PublishedIndexValue,
} from '../domain/market-index.js';
import { DAY_MS } from '../domain/time.js';
import type { Store } from '../store/store.js';
import { changePct, indexByName, showIndex, type IndexBody, type IndexPoint } from './market-index.js';
import type { Pricing, SeriesParams } from './pricing.js';

/** The parameters published values are computed at: the pricing defaults, in US cents. */
const PUBLISHED_PARAMS: SeriesParams = {
  windowHours: WINDOW_HOURS.default,
  outlierStddevs: OUTLIER_STDDEVS.default,
};

export interface IndexRestatement {
  at: string;
  /** The version this publication stored. */
  version: number;
  value: number;
  previous_version: number;
  previous_value: number;
}

export interface IndexPublication {
  name: string;
  from: string;
  to: string;
  every: string;
  /** Days computed, from the base date to `to`. */
  days: number;
  /** Days published for the first time (version 1). */
  first_published: number;
  /** Days published already with the same figures, left alone. */
  unchanged: number;
  /** Days whose recomputed figures differ: each stored as its next version. */
  restated: IndexRestatement[];
}

const sameFigures = (stored: PublishedIndexValue, p: IndexPoint) =>
  stored.value === p.value &&
  stored.low === p.low &&
  stored.high === p.high &&
  stored.priced === p.priced &&
  stored.linked === p.linked;

/** Publishes the index's daily values from its base date to `to` (default: now), as computed now. */
export async function publishIndex(
  store: Store,
  pricing: Pricing,
  name: string,
  to: string | undefined,
  now: number,
): Promise<IndexPublication> {
  const index = await indexByName(store, name);
  const request = { from: index.baseDate, to, every: INDEX_PUBLISHED_EVERY };
  const body = await showIndex(store, pricing, name, request, PUBLISHED_PARAMS, now);
  const stored = new Map(
    (await store.indexes.values(index.id, Date.parse(body.from), Date.parse(body.to))).map((v) => [v.at, v]),
  );
  const rows: PublishedIndexValue[] = [];
  const restated: IndexRestatement[] = [];
  for (const p of body.points) {
    const at = Date.parse(p.at);
    const before = stored.get(at);
    if (before !== undefined && sameFigures(before, p)) continue;
    const version = (before?.version ?? 0) + 1;
    const { value, low, high, priced, linked } = p;
    rows.push({ at, version, value, low, high, priced, linked, publishedAt: now });
    if (before !== undefined)
      restated.push({
        at: p.at,
        version,
        value,
        previous_version: before.version,
        previous_value: before.value,
      });
  }
  await store.indexes.publish(index.id, rows);
  return {
    name: index.name,
    from: body.from,
    to: body.to,
    every: body.every,
    days: body.points.length,
    first_published: rows.length - restated.length,
    unchanged: body.points.length - rows.length,
    restated,
  };
}

/** Whether a show's points are the published series: daily, at the published parameters. */
function readsPublished(body: IndexBody, params: SeriesParams): boolean {
  return (
    stepMs(body.every) === DAY_MS &&
    params.windowHours === PUBLISHED_PARAMS.windowHours &&
    params.outlierStddevs === PUBLISHED_PARAMS.outlierStddevs &&
    (params.currency === undefined || params.currency === 'USD')
  );
}

/**
 * An index over a span (`showIndex`), each day published read back as published: its latest
 * version, or with `version` its latest up to that one; the days not published computed now.
 */
export async function publishedIndex(
  store: Store,
  pricing: Pricing,
  name: string,
  request: IndexSpanRequest & { version?: number },
  params: SeriesParams,
  now: number,
): Promise<IndexBody> {
  const body = await showIndex(store, pricing, name, request, params, now);
  const { version } = request;
  if (!readsPublished(body, params)) {
    if (version === undefined) return body;
    throw new InvalidParameterError(
      'version',
      `published values are the daily index at the default pricing window and outlier threshold, in US cents: a version is read at every ${INDEX_PUBLISHED_EVERY} with those`,
    );
  }
  const index = await indexByName(store, name);
  if (version !== undefined) {
    const last = await store.indexes.lastVersion(index.id);
    if (version > last)
      throw new InvalidParameterError(
        'version',
        `index ${index.name} has ${last === 0 ? 'no published values' : `versions 1 to ${last}`}; got version ${version}`,
      );
  }
  const published = new Map(
    (await store.indexes.values(index.id, Date.parse(body.from), Date.parse(body.to), version)).map((v) => [
      v.at,
      v,
    ]),
  );
  if (published.size === 0) return body;
  const points = body.points.map((p) => {
    const v = published.get(Date.parse(p.at));
    return v === undefined
      ? p
      : {
          ...p,
          value: v.value,
          low: v.low,
          high: v.high,
          priced: v.priced,
          linked: v.linked,
          version: v.version,
        };
  });
  return { ...body, points, change_pct: changePct(points) };
}
