/**
 * The oracle as a long-running server uses it: one call per request, over a lazily opened
 * store, with computed bundles and the catalog cached until the next write, API keys
 * verified, and reference-source ids resolved through the upstream. The HTTP adapter
 * parses, calls one of these, and formats. Calls that can answer from the open store answer
 * synchronously (Awaitable): a cached request never waits on a promise.
 */
import type { PricingBundle } from '../domain/bundle.js';
import { parseSnapshotDate } from '../domain/params.js';
import type { Store } from '../store/store.js';
import type { Awaitable } from './awaitable.js';
import { createBundleCache, BUNDLE_CACHE_DEFAULTS, type BundleCacheOptions } from './bundle-cache.js';
import type { CatalogBody, SearchBody } from './catalog.js';
import { createKeyVerifier, type KeyIdentity, type KeySession } from './key-verifier.js';
import { createOracle, type Oracle, type SeriesParams } from './oracle.js';
import type { HistoryRequest } from '../domain/history.js';
import type { EvidenceBody } from '../domain/evidence.js';
import type { HistoryBody } from './history.js';
import type { RefsourceResolver, Resolution, ResolverMode, UpstreamStats } from './refsource-resolver.js';
import { createStoreHandle, type StoreHandle } from './store-handle.js';

export interface PricingQuery {
  windowHours: number;
  outlierStddevs: number;
  /** Price as of this instant (the API's `at`, already checked against the clock); default: now. */
  asOf?: number;
}

export interface ApiService {
  /**
   * The caller's identity, or null for an unknown or revoked key. `session` is the
   * connection's (createKeySession()): its later requests with the same key skip the hash.
   */
  verifyKey(secret: string, now: number, session?: KeySession): Awaitable<KeyIdentity | null>;
  /** SPEC.md 4.2: the bundle of a catalog key, as of `now`. */
  pricing(productKey: string, query: PricingQuery, now: number): Awaitable<PricingBundle>;
  /** SPEC.md 4.3: the bundle of a reference-source id, as of `now`. */
  refsource(id: string, query: PricingQuery, now: number): Promise<PricingBundle>;
  /** SPEC.md 4.4: the bundle of a reference-source id for a UTC date. */
  snapshot(id: string, date: string | undefined, outlierStddevs: number, now: number): Promise<PricingBundle>;
  /** SPEC.md 4.5. */
  catalog(): Awaitable<CatalogBody>;
  /** The price history of a catalog key's slots (CONTRACT.md additions 4). */
  history(productKey: string, params: SeriesParams, request: HistoryRequest): Awaitable<HistoryBody>;
  /**
   * What the server has to serve: the database's products and observations, the keys that
   * can call it (stored and not revoked, plus ORACLE_API_KEYS), and where reference-source
   * ids are resolved. Throws DatabaseUnavailableError when the database cannot be read.
   */
  inventory(): Awaitable<ServiceInventory>;
  /** The evidence of one slot of a catalog key's bundle (`oracle explain`): not cached, it is read to be understood. */
  evidence(productKey: string, slot: string, query: PricingQuery, now: number): Awaitable<EvidenceBody>;
  /** Catalog full-text search (CONTRACT.md additions 4): best matches first. */
  search(q: string, limit: number): Awaitable<SearchBody>;
  /** Counters for the metrics route: bundle cache lookups, upstream calls, the circuit's state. */
  stats(): ServiceStats;
  /** Writes pending key last-used times and closes the upstream client and the store. */
  close(): Promise<void>;
}

export interface ServiceInventory {
  products: number;
  observations: number;
  storedKeys: number;
  envKeys: number;
  refsource: ResolverMode;
}

export interface ServiceStats {
  bundleCache: { hits: number; misses: number };
  upstream: UpstreamStats;
}

export interface ApiServiceDeps {
  /** SQLite file; the server starts without it and answers 503 until it exists. */
  dbPath: string;
  resolver: RefsourceResolver;
  /** Keys from ORACLE_API_KEYS, accepted besides the stored ones. */
  envKeys?: readonly string[];
  bundleCache?: BundleCacheOptions;
  /** How often, at most, the path is checked for a deleted, emptied or replaced file (store-handle.ts). */
  fileCheckIntervalMs?: number;
  /** For tests: how the oracle is built over the store. */
  createOracle?: (deps: { store: Store }) => Oracle;
}

/** How often pending `last_used_at` times are written. */
export const KEY_TOUCH_INTERVAL_MS = 30_000;

export function createApiService(deps: ApiServiceDeps): ApiService {
  const handle: StoreHandle = createStoreHandle(deps.dbPath, { fileCheckIntervalMs: deps.fileCheckIntervalMs });
  const buildOracle = deps.createOracle ?? createOracle;
  const bundles = createBundleCache(deps.bundleCache ?? BUNDLE_CACHE_DEFAULTS);
  const keys = createKeyVerifier(deps.envKeys ?? []);
  const envKeyCount = deps.envKeys?.length ?? 0;
  let catalogCache: { version: number; body: CatalogBody } | undefined;
  let inventoryCache: { version: number; body: ServiceInventory } | undefined;

  // Caches are only valid for the connection that filled them: data_version is per connection.
  let current: { store: Store; oracle: Oracle } | undefined;
  // The last data version seen: when another connection wrote, a new calibration may be among its writes.
  let lastVersion: number | undefined;
  function withStore<T>(fn: (store: Store, version: number, oracle: Oracle) => T): Awaitable<T> {
    return handle.use((store, version) => {
      if (current?.store !== store) {
        current = { store, oracle: buildOracle({ store }) };
        lastVersion = undefined;
        bundles.clear();
        keys.reset();
        catalogCache = undefined;
        inventoryCache = undefined;
      }
      if (lastVersion !== undefined && lastVersion !== version) current.oracle.dataChanged();
      lastVersion = version;
      return fn(store, version, current.oracle);
    });
  }

  // Started by the first verified key, so building the service starts nothing.
  let touchTimer: NodeJS.Timeout | undefined;
  function startTouching(): void {
    touchTimer = setInterval(() => {
      keys.flush(handle.write).catch(() => {
        // Last-used times are best effort: a locked or missing file must not stop serving.
      });
    }, KEY_TOUCH_INTERVAL_MS);
    touchTimer.unref();
  }

  function findLocal(id: string) {
    return withStore((store) => store.products.findByRefsourceId(id));
  }

  /** A bundle from the cache (or `compute`d), with the upstream's failure named when there was one. */
  function cachedBundle(key: string, now: number, resolution: Resolution | null, compute: (oracle: Oracle) => PricingBundle) {
    return withStore((_store, version, oracle) => {
      const bundle = bundles.get(key, version, now, () => compute(oracle));
      return resolution?.upstream ? withUpstreamDegradation(bundle, resolution.upstream) : bundle;
    });
  }

  return {
    verifyKey(secret, now, session) {
      if (!touchTimer) startTouching();
      return keys.verify(secret, now, withStore, session);
    },

    pricing(productKey, query, now) {
      const { windowHours, outlierStddevs, asOf = now } = query;
      return cachedBundle(`k|${windowHours}|${outlierStddevs}|${query.asOf ?? ''}|${productKey}`, now, null, (oracle) =>
        oracle.price(oracle.productByKey(productKey), { windowHours, outlierStddevs, asOf }, null),
      );
    },

    async refsource(id, query, now) {
      const { windowHours, outlierStddevs, asOf = now } = query;
      const resolution = await deps.resolver.resolve(id, findLocal);
      return cachedBundle(`r|${windowHours}|${outlierStddevs}|${query.asOf ?? ''}|${id}`, now, resolution, (oracle) =>
        oracle.price(resolution.product, { windowHours, outlierStddevs, asOf }, id),
      );
    },

    async snapshot(id, date, outlierStddevs, now) {
      // The date is checked before the upstream is asked: a bad request costs no upstream call.
      const day = parseSnapshotDate(date, now);
      const resolution = await deps.resolver.resolve(id, findLocal);
      return cachedBundle(`s|${day.start}|${outlierStddevs}|${id}`, now, resolution, (oracle) =>
        oracle.snapshot(resolution.product, day, outlierStddevs),
      );
    },

    catalog() {
      return withStore((_store, version, oracle) => {
        if (catalogCache?.version !== version) catalogCache = { version, body: oracle.catalog() };
        return catalogCache.body;
      });
    },

    history(productKey, params, request) {
      return withStore((_store, _version, oracle) => oracle.history(oracle.productByKey(productKey), params, request, null).body);
    },

    evidence(productKey, slot, query, now) {
      const { windowHours, outlierStddevs, asOf = now } = query;
      return withStore((_store, _version, oracle) =>
        oracle.explain(oracle.productByKey(productKey), slot, { windowHours, outlierStddevs, asOf }, null),
      );
    },

    search(q, limit) {
      return withStore((_store, _version, oracle) => oracle.search(q, limit));
    },

    inventory() {
      return withStore((store, version) => {
        if (inventoryCache?.version !== version) {
          const { products, observations, activeKeys } = store.inventory();
          inventoryCache = {
            version,
            body: { products, observations, storedKeys: activeKeys, envKeys: envKeyCount, refsource: deps.resolver.mode },
          };
        }
        return inventoryCache.body;
      });
    },

    stats: () => ({ bundleCache: bundles.stats(), upstream: deps.resolver.stats() }),

    async close() {
      clearInterval(touchTimer);
      // Reads stop first: the writer that stores last-used times is then the last connection,
      // and leaves the file checkpointed.
      const write = handle.write;
      handle.close();
      await keys.flush(write).catch(() => {});
      await deps.resolver.close();
    },
  };
}

/** The bundle with the upstream's failure named in the ungraded slot's meta (CONTRACT.md decision 3). */
function withUpstreamDegradation(bundle: PricingBundle, upstream: 'unavailable'): PricingBundle {
  return { ...bundle, ungraded: { ...bundle.ungraded, meta: { ...bundle.ungraded.meta, refsource_upstream: upstream } } };
}
