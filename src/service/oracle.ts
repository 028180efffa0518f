/**
 * The oracle: the library every adapter calls, once per command or request. The CLI opens a
 * store, makes one call and closes it (cli/open-service.ts); the server makes one call per request
 * over a store that reopens by itself (store/watched-store.ts). Both parse, call one method
 * of this object, and format. Every method returns a promise. Caches for the server's hot path
 * live at its edge (src/http/server-cache.ts, bundle-cache.ts), keyed there by `dataVersion()`;
 * a pricing call takes the edge's KeptBundle and never sees a cache key. The one thing kept
 * between calls here is pricing's calibrations, a cache of this service's own reads that must
 * be read again once the data version moved, since another process may have stored a newer
 * calibration (pricingAt).
 *
 * Pricing is pricing.ts over the store; reference-source ids are resolved through the
 * upstream when there is one (refsource-resolver.ts); API keys are keys.ts.
 */
import { OUTLIER_STDDEVS, WINDOW_HOURS, type PricingBundle, type PricingParams } from '../domain/bundle.js';
import type { CollectionRow, RowProblem } from '../domain/collection.js';
import { InvalidParameterError, NotARefsourceIdError } from '../domain/errors.js';
import type { ExplainedEvidence } from '../domain/evidence.js';
import type { SalesBody } from '../domain/sales.js';
import type { MoversBody } from '../domain/movers.js';
import { findMovers, type MoversQuery } from './movers.js';
import type { IndexSpanRequest, RawIndexDefinition } from '../domain/market-index.js';
import {
  addIndex,
  definitionBody,
  indexByName,
  type IndexBody,
  type IndexDefinitionBody,
} from './market-index.js';
import { publishedIndex, publishIndex, type IndexPublication } from './index-publication.js';
import type { HistoryRequest } from '../domain/history.js';
import { REFSOURCE_ID } from '../domain/params.js';
import type { CatalogEntry } from '../domain/product.js';
import {
  INDEX_WATCH_SLOT,
  type DeliveryStatus,
  type StoredWatchEvent,
  type WatchDefinition,
  type WatchRule,
} from '../domain/watch.js';
import { DAY_MS, toIsoUtc } from '../domain/time.js';
import type { IngestResult } from '../ingest/pipeline.js';
import type { ApiKeyRecord, Store } from '../store/store.js';
import { calibrate, showCalibration, type CalibrationReport } from './calibration.js';
import type { History } from './history.js';
import { ingestAll, type IngestAllOptions } from './ingest-all.js';
import type { KeyIdentity, KeyVerifier } from './keys.js';
import {
  createPricing,
  type PricedWithChanges,
  type Pricing,
  type ProductRef,
  type SeriesParams,
} from './pricing.js';
import { searchCatalog, type SearchResult } from './search.js';
import { createTurns } from './turns.js';
import { catalogPage, type CatalogPageBody } from './catalog.js';
import {
  createOfflineResolver,
  type RefsourceResolver,
  type Resolution,
  type ResolverMode,
  type UpstreamStats,
} from './refsource-resolver.js';
import type { Valuation } from './valuation.js';
import type { ValuationHistory } from './valuation-history.js';
import type { CheckOptions, CheckReport } from './watch.js';

// keys.ts is imported on first use, not at load, because it loads node:crypto, which commands that never touch keys should not pay for at start-up (test/cli/start-up.test.ts).
const loadKeys = () => import('./keys.js');
// The same for watch checks (node:crypto for event ids, the webhook's HMAC).
const loadWatch = () => import('./watch.js');

export interface PricingQuery {
  windowHours: number;
  outlierStddevs: number;
  /** Price as of this instant (the API's `at`, already checked against the clock); default: now. */
  asOf?: number;
  /** Add the bundle's extra grades (CONTRACT.md additions 6): the API's `extra_grades=true`, `--extra-grades`. */
  extraGrades?: boolean;
  /** Also price in this currency (CONTRACT.md additions 20): the API's `currency=`, `--currency`; absent or USD: cents only. */
  currency?: string;
}

/** What `oracle sales` and the sales route ask: the pricing query, which condition, how far back, how many. */
export interface SalesQuery extends Omit<PricingQuery, 'extraGrades'> {
  /** One condition key (`psa10`, `bgs9.5`), or null for all of them. */
  condition: string | null;
  /** Only observations of this span (ms) before the as-of instant; undefined: everything the pricing read. */
  spanMs?: number;
  limit: number;
}

/**
 * How a caller keeps computed bundles: given the computation of this call's bundle, the bundle
 * it kept for the same request, or the computed one (kept). The server's comes from its cache
 * at the edge (http/server-cache.ts `bundle`), keyed there; commands pass none.
 */
export type KeptBundle = (compute: () => Promise<PricingBundle>) => Promise<PricingBundle>;

/** A new API key: its secret is shown once and never stored (only its SHA-256 is). */
export interface CreatedKey {
  id: string;
  secret: string;
}

/** Every product's bundle, one at a time (see Oracle.exportBundles), and how many there are. */
export interface BundleExport {
  count: number;
  bundles: AsyncGenerator<PricingBundle>;
}

export interface ServiceInventory {
  products: number;
  observations: number;
  storedKeys: number;
  envKeys: number;
  /** The keys that can call the API: the stored ones not revoked, and those of ORACLE_API_KEYS. */
  keys: number;
  /** Ready to serve: the database can be read (else inventory() throws) and a key can call the API. */
  ready: boolean;
  refsource: ResolverMode;
}

/**
 * The oracle's one interface: every method takes one query object, and the instant it runs at
 * (`now`, never read from a clock here) is a field of the queries that need it. Errors are
 * typed, with their data (domain/errors.ts); the CLI, HTTP and MCP adapters word them.
 */
export interface Oracle {
  /**
   * The bundle of a catalog key (SPEC.md 4.2, `ref.refsourceId` unset) or of a reference-source
   * id, resolved through the upstream when there is one (SPEC.md 4.3), as of `query.asOf` or
   * `now`; through `kept` when given. With `query.extraGrades` the bundle carries
   * `extra_grades` (CONTRACT.md additions 6), from one more read made only then.
   */
  price(q: { ref: ProductRef; query: PricingQuery; now: number; kept?: KeptBundle }): Promise<PricingBundle>;
  /** `price`, and how the ungraded price moved over the 7 and 30 days before it (`oracle price`'s table). */
  priceWithChanges(q: {
    ref: ProductRef;
    params: PricingParams;
    extraGrades?: boolean;
  }): Promise<PricedWithChanges>;
  /**
   * SPEC.md 4.4: the bundle of a reference-source id over one UTC day (`parseSnapshotDate`:
   * 00:00Z of the date to 00:00Z of the next day), window 24 hours. Anything but a refsource id
   * (most often a product key) is a NotARefsourceIdError saying what it names instead.
   */
  snapshot(q: {
    id: string;
    day: { start: number; end: number };
    outlierStddevs: number;
    now: number;
    kept?: KeptBundle;
    /** Also in this currency (CONTRACT.md additions 20), as `price`'s `currency`; absent or USD: cents only. */
    currency?: string;
  }): Promise<PricingBundle>;
  /** Every product with its observation count, in catalog order: the edges format it (service/catalog.ts catalogBody, the CLI's table). */
  catalog(): Promise<CatalogEntry[]>;
  /** SPEC.md 4.5's body of the whole catalog as JSON text, built by the store: the fast path of `oracle catalog --json`. */
  catalogJson(): Promise<string>;
  /** One page of the catalog (SPEC.md 4.5's body with `next_cursor`: service/catalog.ts catalogPage). */
  catalogPage(q: { cursor: string | null; limit: number }): Promise<CatalogPageBody>;
  /**
   * Catalog full-text search (CONTRACT.md additions 4), the one way both edges search: products
   * matching every word of `q`, best first, at most `limit` (default: all), with their counts;
   * when none, those of its spelling correction, named in `didYouMean` (search.ts). It runs in
   * turns (turns.ts) as a history does: `owner`, the API key's id, takes turns with the others.
   */
  search(q: { q: string; limit?: number; owner?: string }): Promise<SearchResult>;
  /**
   * The price history of a product's slots over the request's instants, with its summary
   * (CONTRACT.md additions 4): the bundles `price` gives at each instant, the store read once
   * for all of them (price-point-series.ts).
   */
  history(q: { ref: ProductRef; params: SeriesParams; request: HistoryRequest }): Promise<History>;
  /**
   * The history's body as UTF-8 JSON, the bytes of JSON.stringify(history(...).body), written a
   * point at a time in its turn (turns.ts): the history route's answer. `owner`, the API key's
   * id, takes turns with the other keys.
   */
  historyJson(q: {
    ref: ProductRef;
    params: SeriesParams;
    request: HistoryRequest;
    owner?: string;
  }): Promise<Buffer>;
  /**
   * The evidence of one slot (`ungraded`, `psa9`, an extra grade `bgs9.5` ...) of a product's
   * bundle, its points and steps (`oracle explain`).
   */
  evidence(q: {
    ref: ProductRef;
    slot: string;
    query: PricingQuery;
    now: number;
  }): Promise<ExplainedEvidence>;
  /**
   * The recent observations of a product (or of one condition) as its pricing at `query` reads
   * them, newest first, each kept or left out of its price with the engine's reason.
   */
  sales(q: { ref: ProductRef; query: SalesQuery; now: number }): Promise<SalesBody>;
  /**
   * The catalog's biggest gainers and losers of one slot over `query.spanMs` before
   * `query.asOf`, among the products with MOVERS_MIN_OBSERVATIONS of its condition in the span.
   */
  movers(query: MoversQuery): Promise<MoversBody>;
  /** Stores a market index definition (docs/indexes.md). */
  addIndex(q: { definition: RawIndexDefinition; now: number }): Promise<IndexDefinitionBody>;
  /** Every market index definition, by name. */
  indexes(): Promise<IndexDefinitionBody[]>;
  /**
   * A market index's values over a span, its members priced through `price`'s pricing; the
   * days published read back as published (their latest version, or the latest up to `version`).
   */
  index(q: {
    name: string;
    request: IndexSpanRequest & { version?: number };
    params: SeriesParams;
    now: number;
  }): Promise<IndexBody>;
  /** Publishes a market index's daily values up to `to`: a day that changed becomes its next version. */
  publishIndex(q: { name: string; to?: string; now: number }): Promise<IndexPublication>;
  /**
   * The value of a collection's rows at each instant of `request` (`oracle value --history`,
   * valuation-history.ts); `problems` are the file's bad records.
   */
  valueHistory(q: {
    rows: readonly CollectionRow[];
    problems: readonly RowProblem[];
    params: SeriesParams;
    request: HistoryRequest;
  }): Promise<ValuationHistory>;
  /** The value of a collection's rows as of `params.asOf` (valuation.ts); `problems` are the file's bad records. */
  value(q: {
    rows: readonly CollectionRow[];
    problems: readonly RowProblem[];
    params: PricingParams;
  }): Promise<Valuation>;
  /**
   * Every product's bundle as of `params.asOf`, in catalog row order, `id` set to the product's
   * refsource id: products are read a page at a time, so memory stays flat whatever the catalog's size.
   */
  exportBundles(params: PricingParams): Promise<BundleExport>;
  /** Fits the calibration at `asOf` from the store's observations and stores it. */
  calibrate(q: { asOf: number; now: number }): Promise<CalibrationReport>;
  /** The stored calibration the engine uses at `at`, or null. */
  calibration(q: { at: number }): Promise<CalibrationReport | null>;
  /**
   * Ingests every source in turn into the store (ingest/pipeline.ts), after marking
   * `interrupted` the runs of ingests whose process died. A bad source stops only itself: its
   * result carries its failure and the next source is read. Each result is also handed to
   * `onResult` as its source ends, so a command can report it then.
   */
  ingestAll(q: IngestAllOptions & { sources: readonly string[] }): Promise<IngestResult[]>;
  /** Makes a key (a random id and a 256-bit secret) and stores the secret's hash. */
  createKey(q: { label: string; now: number }): Promise<CreatedKey>;
  /** Every stored key, oldest first; never a secret (none is stored). */
  listKeys(): Promise<ApiKeyRecord[]>;
  /** False when no active key has this id. */
  revokeKey(q: { id: string; now: number }): Promise<boolean>;
  /** The caller's identity, or null for an unknown or revoked key. */
  verifyKey(q: { secret: string }): Promise<KeyIdentity | null>;
  /** Writes when stored keys were last used (the server gathers them and writes them now and then). */
  recordKeyUses(q: { uses: readonly (readonly [id: string, at: number])[] }): Promise<void>;
  /**
   * What the server has to serve: the database's products and observations, the keys that
   * can call it (stored and not revoked, plus ORACLE_API_KEYS), where reference-source ids
   * are resolved, and whether it is ready (the readiness route and `oracle serve`'s start-up
   * lines both ask here). Throws DatabaseUnavailableError when the database cannot be read.
   */
  inventory(): Promise<ServiceInventory>;
  /** The store's data version: it moves whenever the data may have changed, so caches of these answers are keyed by it. */
  dataVersion(): number;
  /** Upstream calls by outcome and the circuit's state, for the metrics route. */
  upstreamStats(): UpstreamStats;
  /**
   * Stores a watch rule on a catalog product, named as `oracle price` names it (a key, a name,
   * a search phrase) and stored by its key (UnknownProductError when there is none).
   */
  addWatch(q: { rule: WatchDefinition; now: number }): Promise<WatchRule>;
  /** Every watch rule, by id. */
  watches(): Promise<WatchRule[]>;
  /** False when no rule has this id. */
  removeWatch(q: { id: number }): Promise<boolean>;
  /**
   * Checks every rule as of `options.at` against the bundle `price` gives (default pricing
   * parameters), records the crossings with their events, and delivers every pending event
   * (service/watch.ts).
   */
  checkWatches(options: CheckOptions): Promise<CheckReport>;
  /** The latest `limit` watch events (of `status`), newest first. */
  watchEvents(q: { limit: number; status?: DeliveryStatus }): Promise<StoredWatchEvent[]>;
  /** Closes the upstream client and the store. */
  close(): Promise<void>;
}

export interface OracleDeps {
  store: Store;
  /** Where reference-source ids are resolved; default: the local catalog alone (offline). */
  resolver?: RefsourceResolver;
  /** Keys from ORACLE_API_KEYS, accepted besides the stored ones. */
  envKeys?: readonly string[];
}

export function createOracle(deps: OracleDeps): Oracle {
  const { store } = deps;
  const resolver = deps.resolver ?? createOfflineResolver();
  const envKeys = deps.envKeys ?? [];
  // Long work (a history's series, a search's spelling correction) takes turns (turns.ts).
  const turns = createTurns();
  const pricing = createPricing(store, turns);
  let verifier: Promise<KeyVerifier> | undefined;
  const verifyWith = () =>
    (verifier ??= loadKeys().then(({ createKeyVerifier }) => createKeyVerifier(envKeys)));

  // The last data version seen: when another process wrote, a newer calibration may be among its writes.
  let seenVersion: number | undefined;
  /** The pricing, its calibrations forgotten when the data changed since the last call; `version` is the store's now. */
  function pricingAt(version: number): Pricing {
    if (seenVersion !== undefined && seenVersion !== version) pricing.dataChanged();
    seenVersion = version;
    return pricing;
  }
  const currentPricing = () => pricingAt(store.dataVersion());

  /** `compute`'s bundle, through `kept` when given. */
  function bundleOf(
    kept: KeptBundle | undefined,
    compute: (pricing: Pricing) => Promise<PricingBundle>,
  ): Promise<PricingBundle> {
    const run = () => compute(currentPricing());
    return kept === undefined ? run() : kept(run);
  }

  /** A resolved id's bundle, with the upstream's failure named when there was one (never kept: it is this request's). */
  async function resolvedBundle(
    kept: KeptBundle | undefined,
    resolution: Resolution,
    compute: (pricing: Pricing) => Promise<PricingBundle>,
  ) {
    const bundle = await bundleOf(kept, compute);
    return resolution.upstream ? withUpstreamDegradation(bundle, resolution.upstream) : bundle;
  }

  const findLocal = (id: string) => store.products.findByRefsourceId(id);

  /** The error for a snapshot of something that cannot be a refsource id, with the product it names as a key, if any. */
  async function notARefsourceId(
    given: string,
    day: { start: number; end: number },
    now: number,
  ): Promise<NotARefsourceIdError> {
    const product = await store.products.findByKey(given);
    const named = product && { productKey: product.productKey, refsourceId: product.refsourceId };
    return new NotARefsourceIdError(given, named ?? null, day, day.end <= now);
  }

  const queryParams = (query: PricingQuery, now: number): PricingParams => ({
    windowHours: query.windowHours,
    outlierStddevs: query.outlierStddevs,
    asOf: query.asOf ?? now,
    ...(query.currency === undefined || query.currency === 'USD' ? {} : { currency: query.currency }),
  });

  const oracle: Oracle = {
    // Not async itself: a kept bundle by product key is one promise, the one `kept` returns.
    price({ ref, query, now, kept }) {
      const params = queryParams(query, now);
      const extra = query.extraGrades === true;
      if (ref.refsourceId === undefined) {
        return bundleOf(kept, async (p) => p.price(await p.product(ref), params, null, extra));
      }
      const id = ref.refsourceId;
      return resolver
        .resolve(id, findLocal)
        .then((resolution) =>
          resolvedBundle(kept, resolution, (p) => p.price(resolution.product, params, id, extra)),
        );
    },

    async priceWithChanges({ ref, params, extraGrades }) {
      const p = currentPricing();
      return p.priceWithChanges(await p.product(ref), params, ref.refsourceId ?? null, extraGrades);
    },

    async snapshot({ id, day, outlierStddevs, now, kept, currency }) {
      if (!REFSOURCE_ID.test(id)) throw await notARefsourceId(id, day, now);
      const resolution = await resolver.resolve(id, findLocal);
      const other = currency === undefined || currency === 'USD' ? undefined : currency;
      return resolvedBundle(kept, resolution, (p) =>
        p.snapshot(resolution.product, day, outlierStddevs, other),
      );
    },

    catalog: () => store.products.catalog(),
    catalogJson: () => store.products.catalogJson(),
    catalogPage: (query) => catalogPage(store, query),
    search: ({ q, limit, owner }) => turns.run((pause) => searchCatalog(store, q, limit, pause), owner),

    async history({ ref, params, request }) {
      const p = currentPricing();
      return p.history(await p.product(ref), params, request, ref.refsourceId ?? null);
    },

    async historyJson({ ref, params, request, owner }) {
      const p = currentPricing();
      return p.historyJson(await p.product(ref), params, request, ref.refsourceId ?? null, owner);
    },

    async evidence({ ref, slot, query, now }) {
      const p = currentPricing();
      return p.explain(await p.product(ref), slot, queryParams(query, now), ref.refsourceId ?? null);
    },

    async sales({ ref, query, now }) {
      const p = currentPricing();
      const product = await p.product(ref);
      const params = queryParams(query, now);
      const read = await p.sales(product, query.condition, params, ref.refsourceId ?? null);
      const since = query.spanMs === undefined ? null : toIsoUtc(params.asOf - query.spanMs);
      const matching = since === null ? read : read.filter((point) => point.observed_at >= since);
      const converter = await p.converter(params);
      const listed = matching.slice(0, query.limit);
      // Each listed sale in the currency at its own day's rate, as `price` converts the points it prices.
      const sales =
        converter === null
          ? listed
          : listed.map((point) => ({
              ...point,
              converted_minor: converter.convert(point.price_minor, Date.parse(point.observed_at)),
            }));
      return {
        id: ref.refsourceId ?? null,
        product_key: product.productKey,
        product_name: product.productName,
        condition: query.condition,
        as_of: toIsoUtc(params.asOf),
        window_hours: params.windowHours,
        outlier_stddevs: params.outlierStddevs,
        since,
        total: matching.length,
        kept: matching.filter((point) => point.kept).length,
        limit: query.limit,
        sales,
        ...(converter !== null && { converted: converter.rates() }),
      };
    },

    movers: async (query) => findMovers(store, currentPricing(), query),

    addIndex: ({ definition, now }) => addIndex(store, currentPricing(), definition, now),
    indexes: async () => (await store.indexes.list()).map(definitionBody),
    index: ({ name, request, params, now }) =>
      publishedIndex(store, currentPricing(), name, request, params, now),
    publishIndex: ({ name, to, now }) => publishIndex(store, currentPricing(), name, to, now),

    valueHistory: async ({ rows, problems, params, request }) =>
      currentPricing().valueHistory(rows, problems, params, request),
    value: async ({ rows, problems, params }) => currentPricing().value(rows, problems, params),

    async exportBundles(params) {
      const p = currentPricing();
      return { count: await store.products.count(), bundles: p.exportBundles(params) };
    },

    ingestAll: ({ sources, ...options }) => ingestAll(store, sources, options),

    calibrate: ({ asOf, now }) => calibrate(store, asOf, now),
    calibration: ({ at }) => showCalibration(store, at),

    async createKey({ label, now }) {
      const { newApiKey, hashApiKey } = await loadKeys();
      const { id, secret } = newApiKey();
      await store.apiKeys.create(id, label, hashApiKey(secret), now);
      return { id, secret };
    },
    listKeys: () => store.apiKeys.list(),
    revokeKey: ({ id, now }) => store.apiKeys.revoke(id, now),
    verifyKey: async ({ secret }) => (await verifyWith())(store, secret),
    recordKeyUses: ({ uses }) => store.apiKeys.touch(uses),

    async inventory() {
      const { products, observations, activeKeys } = await store.inventory();
      const keys = activeKeys + envKeys.length;
      return {
        products,
        observations,
        storedKeys: activeKeys,
        envKeys: envKeys.length,
        keys,
        ready: keys > 0,
        refsource: resolver.mode,
      };
    },

    async addWatch({ rule, now }) {
      if (rule.slot === INDEX_WATCH_SLOT) {
        if (rule.kind !== 'move')
          throw new InvalidParameterError(
            'index',
            'a rule on an index watches its moves: its kind must be move',
          );
        await indexByName(store, rule.productKey);
        return store.watches.add(rule, now);
      }
      // Named as `oracle price` names it (a key, a name, a search phrase); stored by its key.
      const product = await currentPricing().product({ productKey: rule.productKey, orName: true });
      return store.watches.add({ ...rule, productKey: product.productKey }, now);
    },
    watches: () => store.watches.rules(),
    removeWatch: ({ id }) => store.watches.remove(id),
    async checkWatches(options) {
      const { checkWatches } = await loadWatch();
      const params = { windowHours: WINDOW_HOURS.default, outlierStddevs: OUTLIER_STDDEVS.default };
      return checkWatches(
        store,
        (productKey, asOf, extraGrades) =>
          oracle.price({ ref: { productKey }, query: { ...params, asOf, extraGrades }, now: options.now }),
        options,
        async (name, at, spanMs) => {
          // Daily values: the last at or before `at`, and the last at or before the span's start
          // (none when the span reaches before the base date: no value to move from).
          const body = await oracle.index({
            name,
            request: { from: toIsoUtc(at - spanMs - DAY_MS), to: toIsoUtc(at), every: '1d' },
            params,
            now: options.now,
          });
          const then = body.points.findLast((p) => Date.parse(p.at) <= at - spanMs);
          return { now: body.points.at(-1)!.value, then: then?.value ?? null };
        },
      );
    },
    watchEvents: ({ limit, status }) => store.watches.events(limit, status),

    dataVersion: () => store.dataVersion(),
    upstreamStats: () => resolver.stats(),

    async close() {
      await store.close();
      await resolver.close();
    },
  };
  return oracle;
}

/** The bundle with the upstream's failure named in the ungraded slot's meta (CONTRACT.md decision 3). */
function withUpstreamDegradation(bundle: PricingBundle, upstream: 'unavailable'): PricingBundle {
  return {
    ...bundle,
    ungraded: { ...bundle.ungraded, meta: { ...bundle.ungraded.meta, refsource_upstream: upstream } },
  };
}
