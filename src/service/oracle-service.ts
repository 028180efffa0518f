/**
 * The oracle service: what every adapter calls, once per request. The CLI (one command over
 * a store it opens, command-store.ts) and the HTTP API (a long-running server over a lazily
 * opened, watched store, store-handle.ts) call the same methods; both parse, call one of
 * these, and format. Computed bundles and the catalog are cached until the next write, API
 * keys are made, listed, revoked and verified here, and reference-source ids are resolved
 * through the upstream when there is one.
 *
 * Calls that can answer from memory answer synchronously (Awaitable): a cached request
 * never waits on a promise. Everything that reads the store waits for it (the store's
 * interface is async, store/store.ts).
 */
import type { PricingBundle, PricingParams } from '../domain/bundle.js';
import type { CollectionRow, RowProblem } from '../domain/collection.js';
import type { EvidenceBody } from '../domain/evidence.js';
import { InvalidParameterError } from '../domain/errors.js';
import type { HistoryRequest } from '../domain/history.js';
import { REFSOURCE_ID } from '../domain/params.js';
import { toIsoUtc, toUtcDate } from '../domain/time.js';
import type { CatalogEntry } from '../domain/product.js';
import type { ApiKeyRecord, Store } from '../store/store.js';
import { andThen, onFirstUse, type Awaitable } from './awaitable.js';
import type { BundleCache, BundleCacheOptions } from './bundle-cache.js';
import { calibrate, showCalibration, type CalibrationReport } from './calibration.js';
import type { CatalogBody, SearchBody } from './catalog.js';
import type { IngestOptions, IngestResult } from '../ingest/pipeline.js';
import type { History } from './history.js';
import type { KeyIdentity, KeySession, KeyVerifier } from './key-verifier.js';
import { createOracle, type Oracle, type PricedWithChanges, type ProductRef, type SeriesParams } from './oracle.js';
import { createOfflineResolver, type RefsourceResolver, type Resolution, type ResolverMode, type UpstreamStats } from './refsource-resolver.js';
import type { StoreHandle } from './store-handle.js';
import type { Valuation } from './valuation.js';

export interface PricingQuery {
  windowHours: number;
  outlierStddevs: number;
  /** Price as of this instant (the API's `at`, already checked against the clock); default: now. */
  asOf?: number;
}

/** A new API key: its secret is shown once and never stored (only its SHA-256 is). */
export interface CreatedKey {
  id: string;
  secret: string;
}

/** The options of every source of an ingest (ingestAll), and where its rejected records go. */
export interface IngestAllOptions extends Omit<IngestOptions, 'rejects'> {
  /** Rejected records are appended to this file (opened once the store is), each with `runAt`. */
  rejectsPath?: string;
  /** Epoch ms: the start of the run, as the rejects file names it. */
  runAt: number;
  onResult?: (result: IngestResult) => void;
}

/** Every product's bundle, one at a time (see Oracle.exportBundles), and how many there are. */
export interface BundleExport {
  count: number;
  bundles: AsyncGenerator<PricingBundle>;
}

export interface OracleService {
  /**
   * The caller's identity, or null for an unknown or revoked key. `session` is the
   * connection's (createKeySession()): its later requests with the same key skip the hash.
   */
  verifyKey(secret: string, now: number, session?: KeySession): Awaitable<KeyIdentity | null>;
  /**
   * The bundle of a catalog key (SPEC.md 4.2, `id` null) or of a reference-source id,
   * resolved through the upstream when there is one (SPEC.md 4.3, `id` set), as of
   * `query.asOf` or `now`.
   */
  price(ref: ProductRef, query: PricingQuery, now: number): Awaitable<PricingBundle>;
  /** `price`, and how the ungraded price moved over the 7 and 30 days before it (`oracle price`'s table). */
  priceWithChanges(ref: ProductRef, params: PricingParams): Promise<PricedWithChanges>;
  /**
   * SPEC.md 4.4: the bundle of a reference-source id over one UTC day (`parseSnapshotDate`),
   * window 24 hours. Anything but a refsource id (most often a product key) is an
   * InvalidParameterError naming the commands that do what was meant.
   */
  snapshot(id: string, day: { start: number; end: number }, outlierStddevs: number, now: number): Promise<PricingBundle>;
  /** SPEC.md 4.5. */
  catalog(): Awaitable<CatalogBody>;
  /** The same body as JSON text, built by the store (searched: best match first). */
  catalogJson(search?: string): Promise<string>;
  /** The catalog rows with their observation counts, for the analyst's table (searched: best match first). */
  catalogEntries(search?: string): Promise<CatalogEntry[]>;
  /** Catalog full-text search (CONTRACT.md additions 4): best matches first. */
  search(q: string, limit: number): Awaitable<SearchBody>;
  /** The price history of a product's slots over the request's instants, with its summary (CONTRACT.md additions 4). */
  history(ref: ProductRef, params: SeriesParams, request: HistoryRequest): Promise<History>;
  /** The evidence of one slot of a product's bundle (`oracle explain`): not cached, it is read to be understood. */
  evidence(ref: ProductRef, slot: string, query: PricingQuery, now: number): Awaitable<EvidenceBody>;
  /** The value of a collection's rows as of `params.asOf`; `problems` are the file's bad records. */
  value(rows: readonly CollectionRow[], problems: readonly RowProblem[], params: PricingParams): Promise<Valuation>;
  /** Every product's bundle as of `params.asOf`, in catalog row order, in constant memory. */
  exportBundles(params: PricingParams): Promise<BundleExport>;
  /** Fits the calibration at `asOf` from the store's observations and stores it. */
  calibrate(asOf: number, now: number): Promise<CalibrationReport>;
  /** The stored calibration the engine uses at `at`, or null. */
  calibration(at: number): Promise<CalibrationReport | null>;
  /**
   * Ingests every source in turn into the store (ingest/pipeline.ts), after marking
   * `interrupted` the runs of ingests whose process died. A bad source stops only itself: its
   * result carries its failure and the next source is read. Each result is also handed to
   * `onResult` as its source ends, so a command can report it then.
   */
  ingestAll(sources: readonly string[], options: IngestAllOptions): Promise<IngestResult[]>;
  /** Makes a key (a random id and a 256-bit secret) and stores the secret's hash. */
  createKey(label: string, now: number): Promise<CreatedKey>;
  /** Every stored key, oldest first; never a secret (none is stored). */
  listKeys(): Promise<ApiKeyRecord[]>;
  /** False when no active key has this id. */
  revokeKey(id: string, now: number): Promise<boolean>;
  /**
   * What the server has to serve: the database's products and observations, the keys that
   * can call it (stored and not revoked, plus ORACLE_API_KEYS), where reference-source ids
   * are resolved, and whether it is ready (the readiness route and `oracle serve`'s start-up
   * lines both ask here). Throws DatabaseUnavailableError when the database cannot be read.
   */
  inventory(): Awaitable<ServiceInventory>;
  /** Counters for the metrics route: bundle cache lookups, upstream calls, the circuit's state. */
  stats(): ServiceStats;
  /**
   * Makes what repeated calls use (the bundle cache and key verification), which a service
   * otherwise makes on the first call that needs it: a server calls this before it listens,
   * so no request waits for it.
   */
  prepare(): Promise<void>;
  /** Writes pending key last-used times and closes the upstream client and the store. */
  close(): Promise<void>;
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

export interface ServiceStats {
  bundleCache: { hits: number; misses: number };
  upstream: UpstreamStats;
}

export interface OracleServiceDeps {
  /** How the store is held: a command's (createCommandStore) or the server's (createStoreHandle). */
  store: StoreHandle;
  /** Where reference-source ids are resolved; default: the local catalog alone (offline). */
  resolver?: RefsourceResolver;
  /** Keys from ORACLE_API_KEYS, accepted besides the stored ones. */
  envKeys?: readonly string[];
  /** false: no cache, as for a command, whose one call would fill it and never read it. */
  bundleCache?: BundleCacheOptions | false;
  /** For tests: how the pricing is built over the store. */
  createOracle?: (deps: { store: Store }) => Oracle;
}

/** How often pending `last_used_at` times are written. */
export const KEY_TOUCH_INTERVAL_MS = 30_000;

export function createOracleService(deps: OracleServiceDeps): OracleService {
  const handle = deps.store;
  const resolver = deps.resolver ?? createOfflineResolver();
  const buildOracle = deps.createOracle ?? createOracle;
  // The bundle cache and key verification serve a server's repeated calls; a command makes
  // one call, so they (and lru-cache) are imported on first use, off a command's start-up.
  const bundleCacheOptions = deps.bundleCache;
  const bundles =
    bundleCacheOptions === false
      ? undefined
      : onFirstUse<BundleCache>(async () => (await import('./bundle-cache.js')).createBundleCache(bundleCacheOptions));
  const keys = onFirstUse<KeyVerifier>(async () => (await import('./key-verifier.js')).createKeyVerifier(deps.envKeys ?? []));
  const envKeyCount = deps.envKeys?.length ?? 0;
  let catalogCache: { version: number; body: CatalogBody } | undefined;
  let inventoryCache: { version: number; body: ServiceInventory } | undefined;

  // Caches are only valid for the connection that filled them: data versions are per connection.
  let current: { store: Store; oracle: Oracle } | undefined;
  // The last data version seen: when another connection wrote, a new calibration may be among its writes.
  let lastVersion: number | undefined;
  function withStore<T>(fn: (store: Store, version: number, oracle: Oracle) => Awaitable<T>): Awaitable<T> {
    return handle.use((store, version) => {
      if (current?.store !== store) {
        current = { store, oracle: buildOracle({ store }) };
        lastVersion = undefined;
        bundles?.made?.clear();
        keys.made?.reset();
        catalogCache = undefined;
        inventoryCache = undefined;
      }
      if (lastVersion !== undefined && lastVersion !== version) current.oracle.dataChanged();
      lastVersion = version;
      return fn(store, version, current.oracle);
    });
  }
  /** `fn` over the open store's pricing, as a promise (for calls that always read). */
  const withOracle = <T>(fn: (oracle: Oracle, store: Store) => Promise<T>): Promise<T> =>
    Promise.resolve(withStore((store, _version, oracle) => fn(oracle, store)));

  // Started by the first verified key, so building the service starts nothing.
  let touchTimer: NodeJS.Timeout | undefined;
  function startTouching(): void {
    touchTimer = setInterval(() => {
      keys.made?.flush(handle.write).catch(() => {
        // Last-used times are best effort: a locked or missing file must not stop serving.
      });
    }, KEY_TOUCH_INTERVAL_MS);
    touchTimer.unref();
  }

  function findLocal(id: string) {
    return withStore((store) => store.products.findByRefsourceId(id));
  }

  /** A bundle from the cache (or `compute`d), with the upstream's failure named when there was one. */
  function cachedBundle(key: string, now: number, resolution: Resolution | null, compute: (oracle: Oracle) => Promise<PricingBundle>) {
    return withStore((_store, version, oracle) => {
      const bundle = bundles === undefined ? compute(oracle) : andThen(bundles.get(), (cache) => cache.get(key, version, now, () => compute(oracle)));
      return resolution?.upstream ? andThen(bundle, (b) => withUpstreamDegradation(b, resolution.upstream!)) : bundle;
    });
  }

  /**
   * The error for a snapshot of something that cannot be a refsource id, most often a product
   * key: it names the two commands that do what was meant (the product's snapshot by its
   * refsource id, or `oracle price` over the same 24 hours; for today, which has not ended,
   * the last 24 hours, as --at may not be later than now).
   */
  async function notARefsourceId(arg: string, day: { start: number; end: number }, now: number): Promise<InvalidParameterError> {
    const product = await withStore((store) => store.products.findByKey(arg));
    if (product === undefined) {
      return new InvalidParameterError(
        'refsource_id',
        `snapshot takes a refsource id (1 to 20 digits), not ${JSON.stringify(arg)}, which is no product_key either (see oracle catalog --search)`,
      );
    }
    const price = day.end > now ? `'oracle price ${arg}' (the last 24 hours)` : `'oracle price ${arg} --at ${toIsoUtc(day.end)}' (the same 24 hours)`;
    const snapshot = product.refsourceId === null ? '' : ` 'oracle snapshot ${product.refsourceId} --date ${toUtcDate(day.start)}' (its refsource id) or`;
    return new InvalidParameterError('refsource_id', `snapshot takes a refsource id, not a product_key: for ${arg} run${snapshot} ${price}`);
  }

  const queryParams = (query: PricingQuery, now: number): PricingParams => ({
    windowHours: query.windowHours,
    outlierStddevs: query.outlierStddevs,
    asOf: query.asOf ?? now,
  });

  return {
    verifyKey(secret, now, session) {
      if (!touchTimer) startTouching();
      return andThen(keys.get(), (verifier) => verifier.verify(secret, now, withStore, session));
    },

    price(ref, query, now) {
      const { windowHours, outlierStddevs } = query;
      const params = queryParams(query, now);
      if (ref.refsourceId === undefined) {
        const productKey = ref.productKey;
        return cachedBundle(`k|${windowHours}|${outlierStddevs}|${query.asOf ?? ''}|${productKey}`, now, null, async (oracle) =>
          oracle.price(await oracle.productByKey(productKey), params, null),
        );
      }
      const id = ref.refsourceId;
      return resolver.resolve(id, findLocal).then((resolution) =>
        cachedBundle(`r|${windowHours}|${outlierStddevs}|${query.asOf ?? ''}|${id}`, now, resolution, (oracle) =>
          oracle.price(resolution.product, params, id),
        ),
      );
    },

    priceWithChanges(ref, params) {
      return withOracle(async (oracle) => oracle.priceWithChanges(await oracle.product(ref), params, ref.refsourceId ?? null));
    },

    async snapshot(id, day, outlierStddevs, now) {
      if (!REFSOURCE_ID.test(id)) throw await notARefsourceId(id, day, now);
      const resolution = await resolver.resolve(id, findLocal);
      return cachedBundle(`s|${day.start}|${outlierStddevs}|${id}`, now, resolution, (oracle) =>
        oracle.snapshot(resolution.product, day, outlierStddevs),
      );
    },

    catalog() {
      return withStore((_store, version, oracle) => {
        if (catalogCache?.version === version) return catalogCache.body;
        return oracle.catalog().then((body) => {
          catalogCache = { version, body };
          return body;
        });
      });
    },

    catalogJson: (search) => withOracle((oracle) => oracle.catalogJson(search)),
    catalogEntries: (search) => withOracle((oracle) => oracle.catalogEntries(search)),

    history(ref, params, request) {
      return withOracle(async (oracle) => oracle.history(await oracle.product(ref), params, request, ref.refsourceId ?? null));
    },

    evidence(ref, slot, query, now) {
      return withOracle(async (oracle) => oracle.explain(await oracle.product(ref), slot, queryParams(query, now), ref.refsourceId ?? null));
    },

    search(q, limit) {
      return withStore((_store, _version, oracle) => oracle.search(q, limit));
    },

    value: (rows, problems, params) => withOracle((oracle) => oracle.value(rows, problems, params)),

    exportBundles(params) {
      return withOracle(async (oracle) => ({ count: await oracle.productCount(), bundles: oracle.exportBundles(params) }));
    },

    ingestAll(sources, { rejectsPath, runAt, onResult, ...options }) {
      return withOracle(async (_oracle, store) => {
        // Loaded here: the pipeline and its formats are most of the code, and only ingest needs them.
        const [{ ingestSource }, { RejectsWriter }] = await Promise.all([import('../ingest/pipeline.js'), import('../ingest/write/rejects-writer.js')]);
        await store.ingestRuns.markInterrupted();
        const rejects = rejectsPath === undefined ? null : new RejectsWriter(rejectsPath, runAt);
        try {
          const results: IngestResult[] = [];
          for (const source of sources) {
            const result = await ingestSource(store, source, { ...options, rejects });
            results.push(result);
            onResult?.(result);
          }
          return results;
        } finally {
          rejects?.close();
        }
      });
    },

    calibrate: (asOf, now) => withOracle((_oracle, store) => calibrate(store, asOf, now)),
    calibration: (at) => withOracle((_oracle, store) => showCalibration(store, at)),

    createKey(label, now) {
      return withOracle(async (_oracle, store) => {
        const { newApiKey, hashApiKey } = await import('./key-verifier.js');
        const { id, secret } = newApiKey();
        await store.apiKeys.create(id, label, hashApiKey(secret), now);
        return { id, secret };
      });
    },
    listKeys: () => withOracle((_oracle, store) => store.apiKeys.list()),
    revokeKey: (id, now) => withOracle((_oracle, store) => store.apiKeys.revoke(id, now)),

    inventory() {
      return withStore((store, version) => {
        if (inventoryCache?.version === version) return inventoryCache.body;
        return store.inventory().then(({ products, observations, activeKeys }) => {
          inventoryCache = {
            version,
            body: {
              products,
              observations,
              storedKeys: activeKeys,
              envKeys: envKeyCount,
              keys: activeKeys + envKeyCount,
              ready: activeKeys + envKeyCount > 0,
              refsource: resolver.mode,
            },
          };
          return inventoryCache.body;
        });
      });
    },

    stats: () => ({ bundleCache: bundles?.made?.stats() ?? { hits: 0, misses: 0 }, upstream: resolver.stats() }),

    async prepare() {
      await Promise.all([bundles?.get(), keys.get()]);
    },

    async close() {
      clearInterval(touchTimer);
      // Reads stop first: the writer that stores last-used times is then the last connection,
      // and leaves the file checkpointed.
      const write = handle.write;
      await handle.close();
      await keys.made?.flush(write).catch(() => {});
      await resolver.close();
    },
  };
}

/** The bundle with the upstream's failure named in the ungraded slot's meta (CONTRACT.md decision 3). */
function withUpstreamDegradation(bundle: PricingBundle, upstream: 'unavailable'): PricingBundle {
  return { ...bundle, ungraded: { ...bundle.ungraded, meta: { ...bundle.ungraded.meta, refsource_upstream: upstream } } };
}
