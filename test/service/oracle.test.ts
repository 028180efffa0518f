// @module-tag sqlite-only: the oracle's cache hand-off and keys over a SQLite file: keys run on both stores
// in cli/keys.test.ts
/**
 * The oracle: a pricing call goes through the KeptBundle it is handed (the server's cache at its
 * edge, keyed there) before it reads the store, and the keys a command makes are the keys a
 * server over the same file accepts.
 */
import Database from 'better-sqlite3';
import { readFileSync, writeFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { createBundleCache, priceCacheKey } from '../../src/http/bundle-cache.js';
import { createServerCache } from '../../src/http/server-cache.js';
import type { IngestResult } from '../../src/ingest/pipeline.js';
import { createOracle } from '../../src/service/oracle.js';
import { createOfflineResolver } from '../../src/service/refsource-resolver.js';
import { openStore } from '../../src/store/open-store.js';
import type { OpenOptions } from '../../src/store/store.js';
import { createWatchedStore } from '../../src/store/watched-store.js';
import { tempDir } from '../_setup.js';
import { PRODUCTS, seedDatabase, STORED_KEY } from '../http/_helpers.js';

const NOW = Date.now();
const dbPath = `${tempDir('oracle-')}/oracle.db`;
beforeAll(() => seedDatabase(dbPath, NOW));

/** The oracle over a store a command opens, as withService makes it. */
async function commandOracle(path: string, options: OpenOptions = {}, envKeys: string[] = []) {
  return createOracle({ store: await openStore(path, options), envKeys });
}

describe('a kept bundle handed to price', () => {
  it('answers the bundle the edge kept without reading the store, and hands it the one it computed', async () => {
    const store = await openStore(dbPath);
    let reads = 0;
    const read = store.pricePoints.read.bind(store.pricePoints);
    // Counting the pricing reads: the real reader, observed.
    (store.pricePoints as { read: typeof read }).read = (...args) => {
      reads += 1;
      return read(...args);
    };
    const oracle = createOracle({ store, resolver: createOfflineResolver() });
    try {
      const bundles = createBundleCache();
      const cache = createServerCache(oracle, bundles);
      const query = { windowHours: 24, outlierStddevs: 2 };
      const ref = { productKey: PRODUCTS.plain.productKey };
      const kept = () => cache.bundle(priceCacheKey(ref, query), NOW);
      const computed = await oracle.price({ ref, query, now: NOW, kept: kept() });
      expect(await oracle.price({ ref, query, now: NOW, kept: kept() })).toBe(computed);
      expect(reads).toBe(1);
      expect(bundles.stats()).toEqual({ hits: 1, misses: 1 });
      // Without a cache (a command), every call reads.
      expect(await oracle.price({ ref, query, now: NOW })).toEqual(computed);
      expect(reads).toBe(2);
    } finally {
      await oracle.close();
    }
  });
});

describe('keys', () => {
  it('makes, lists and revokes keys that a server over the same file accepts, then refuses', async () => {
    const maker = await commandOracle(dbPath);
    const { id, secret } = await maker.createKey({ label: 'integration', now: NOW });
    await maker.close();
    expect(id).toMatch(/^key_[0-9a-f]{12}$/);
    expect(secret).toMatch(/^ork_[\w-]{43}$/);

    const server = createOracle({
      store: createWatchedStore(dbPath, { fileCheckIntervalMs: 0 }),
      envKeys: ['ork_from_env'],
    });
    try {
      expect(await server.verifyKey({ secret: secret })).toEqual({ id, fromEnv: false });
      expect(await server.verifyKey({ secret: STORED_KEY })).toEqual({ id: 'key_stored', fromEnv: false });
      expect(await server.verifyKey({ secret: 'ork_from_env' })).toEqual({ id: 'env-1', fromEnv: true });
      const lister = await commandOracle(dbPath);
      const listed = await lister.listKeys();
      await lister.close();
      expect(listed.find((k) => k.id === id)).toMatchObject({
        label: 'integration',
        createdAt: NOW,
        revokedAt: null,
      });
      expect(JSON.stringify(listed)).not.toContain(secret);

      const revoker = await commandOracle(dbPath);
      expect(await revoker.revokeKey({ id, now: NOW + 1 })).toBe(true);
      expect(await revoker.revokeKey({ id, now: NOW + 2 })).toBe(false); // already revoked
      await revoker.close();
      expect(await server.verifyKey({ secret: secret })).toBeNull();
    } finally {
      await server.close();
    }
  });
});

describe('ingestAll', () => {
  it('marks a dead run interrupted, reads every source whatever one of them does, reports each as it ends, and appends their rejects', async () => {
    const dir = tempDir('oracle-ingest-');
    const db = `${dir}/oracle.db`;
    writeFileSync(
      `${dir}/catalog.csv`,
      'product_key,refsource_id,product_name\ncharizard-4,1001,Charizard #4\n',
    );
    writeFileSync(
      `${dir}/observations.csv`,
      'product_key,source,observed_at,price_minor\ncharizard-4,ebay,2025-03-01T10:00:00Z,35000\ncharizard-4,ebay,2025-03-01T11:00:00Z,-5\n',
    );
    // A run written before runs named their process, left `running`: its process is gone.
    const first = await commandOracle(db, { create: true });
    await first.ingestAll({
      sources: [`${dir}/catalog.csv`],
      maxRejects: 0,
      runAt: NOW,
      clock: () => NOW,
      stdin: Readable.from([]),
    });
    await first.close();
    const raw = new Database(db);
    raw
      .prepare(
        "INSERT INTO ingest_runs (source, kind, format, dry_run, started_at) VALUES ('killed.csv', 'observations', 'csv', 0, 1)",
      )
      .run();
    raw.close();

    const reported: IngestResult[] = [];
    const service = await commandOracle(db);
    const runAt = Date.UTC(2026, 0, 2, 3, 4, 5, 6);
    const results = await service
      .ingestAll({
        sources: [`${dir}/missing.csv`, `${dir}/observations.csv`],
        maxRejects: 5,
        rejectsPath: `${dir}/rejects.ndjson`,
        runAt,
        clock: () => NOW,
        stdin: Readable.from([]),
        onResult: (result) => reported.push(result),
      })
      .finally(() => service.close());

    expect(reported).toEqual(results);
    expect(results.map((r) => [r.source, r.failure === null, r.counts.inserted, r.counts.rejected])).toEqual([
      [`${dir}/missing.csv`, false, 0, 0],
      [`${dir}/observations.csv`, true, 1, 1],
    ]);
    const rejects = readFileSync(`${dir}/rejects.ndjson`, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(rejects).toEqual([expect.objectContaining({ run_at: '2026-01-02T03:04:05.006Z', line: 3 })]);
    const check = new Database(db, { readonly: true });
    const killed = check.prepare("SELECT status FROM ingest_runs WHERE source = 'killed.csv'").get();
    check.close();
    expect(killed).toEqual({ status: 'interrupted' });
  });
});

describe('readiness', () => {
  it('is ready once a key can call the API, stored or from ORACLE_API_KEYS, and not after the last is revoked', async () => {
    const db = `${tempDir('oracle-ready-')}/oracle.db`;
    const inventory = async (envKeys: string[] = []) => {
      const service = await commandOracle(db, { create: true }, envKeys);
      return service.inventory().finally(() => service.close());
    };
    expect(await inventory()).toMatchObject({ storedKeys: 0, envKeys: 0, keys: 0, ready: false });
    expect(await inventory(['ork_from_env', 'ork_other'])).toMatchObject({
      storedKeys: 0,
      envKeys: 2,
      keys: 2,
      ready: true,
    });

    const maker = await commandOracle(db);
    const { id } = await maker.createKey({ label: 'ready', now: NOW });
    await maker.close();
    expect(await inventory()).toMatchObject({ storedKeys: 1, envKeys: 0, keys: 1, ready: true });
    expect(await inventory(['ork_from_env'])).toMatchObject({
      storedKeys: 1,
      envKeys: 1,
      keys: 2,
      ready: true,
    });

    const revoker = await commandOracle(db);
    await revoker.revokeKey({ id, now: NOW + 1 });
    await revoker.close();
    expect(await inventory()).toMatchObject({ keys: 0, ready: false });
  });
});
