// @module-tag sqlite-only: SQLite files replaced, locked and corrupt under a server
/**
 * The database file changing under a running server, the way operators change it: truncated,
 * deleted, replaced with `mv`, restored with `cp`, or not an oracle database at all. A real
 * server over a real file; the file is changed with the same system calls (and `cp`, `mv`).
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open-store.js';
import { tempDir } from '../_setup.js';
import {
  pricingPath,
  PRODUCTS,
  seedDatabase,
  startServer,
  STORED_KEY,
  STORED_KEY_ID,
  type TestServer,
} from './_helpers.js';
import { writeProducts } from '../_store.js';

const NOW = Date.now();
const KEY = { 'x-api-key': STORED_KEY };
const CATALOG = '/api/v1/developer/catalog';

async function get(server: TestServer, path: string, headers: Record<string, string> = KEY) {
  const res = await fetch(server.url + path, { headers });
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

/** What a file holds, read with a fresh connection after the server let go of it. */
async function contents(path: string) {
  const store = await openStore(path);
  try {
    return { ...(await store.inventory()), keys: (await store.apiKeys.list()).map((k) => k.id) };
  } finally {
    await store.close();
  }
}

let server: TestServer | undefined;
/** A server over `dbPath` that checks the path on every event-loop turn (the default is every 250 ms). */
const serve = (dbPath: string) => startServer({ dbPath, fileCheckIntervalMs: 0 });
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A seeded database at `<dir>/oracle.db`, and a copy of it taken as a backup. */
async function seeded() {
  const dir = tempDir('oracle-dbfile-');
  const path = `${dir}/oracle.db`;
  await seedDatabase(path, NOW);
  copyFileSync(path, `${dir}/backup.db`);
  return { dir, path, backup: `${dir}/backup.db` };
}

describe('a database file truncated to 0 bytes under a running server', () => {
  it('answers 503 (never 401 for a valid key), writes nothing into it, and keeps a backup copied back with cp after it stops', async () => {
    const { path, backup } = await seeded();
    server = await serve(path);
    expect((await get(server, CATALOG)).status).toBe(200);
    // A request leaves a last-used time to write at shutdown, the write that overwrote the restored backup.
    expect((await get(server, pricingPath(PRODUCTS.plain.productKey))).status).toBe(200);

    truncateSync(path, 0);
    for (const route of [CATALOG, pricingPath(PRODUCTS.plain.productKey), CATALOG]) {
      const { status, body } = await get(server, route);
      expect(status).toBe(503);
      expect(body.detail).toBe('database unavailable: the database file is empty');
    }
    expect((await get(server, '/api/v1/health', {})).status).toBe(200);
    expect(statSync(path).size).toBe(0);

    execFileSync('cp', [backup, path]);
    expect((await get(server, CATALOG)).body.total).toBe(Object.keys(PRODUCTS).length);
    await server.close();
    server = undefined;

    const restored = await contents(path);
    expect(restored.products).toBe(Object.keys(PRODUCTS).length);
    expect(restored.observations).toBe(48);
    expect(restored.keys).toContain(STORED_KEY_ID);
  });

  it('starts on a 0-byte file without writing a schema into it, and serves once an ingest fills it', async () => {
    const dir = tempDir('oracle-dbfile-');
    const path = `${dir}/oracle.db`;
    writeFileSync(path, '');
    server = await serve(path);
    for (let i = 0; i < 3; i++) {
      const { status, body } = await get(server, CATALOG);
      expect(status).toBe(503);
      expect(body.detail).toBe('database unavailable: the database file is empty');
    }
    expect(statSync(path).size).toBe(0);
    await seedDatabase(path, NOW); // ingest creates the schema: the operator asked for it
    expect((await get(server, CATALOG)).status).toBe(200);
  });
});

describe('a database file deleted or replaced under a running server', () => {
  it('answers 503 once the file is deleted (not the old data), and serves the new file once one is there', async () => {
    const { path, backup } = await seeded();
    server = await serve(path);
    expect((await get(server, CATALOG)).status).toBe(200);
    rmSync(path);
    const { status, body } = await get(server, CATALOG);
    expect(status).toBe(503);
    expect(body.detail).toMatch(/^database unavailable: the database file (was deleted|does not exist)$/);
    expect((await get(server, pricingPath(PRODUCTS.plain.productKey))).status).toBe(503);
    copyFileSync(backup, path);
    expect((await get(server, CATALOG)).status).toBe(200);
  });

  it('serves a rebuilt file moved over the old one (mv), after an ingest wrote into the old one beside the server', async () => {
    const { dir, path } = await seeded();
    server = await serve(path);
    expect((await get(server, CATALOG)).body.total).toBe(5);

    // An ingest writes into the old file while the server reads it.
    const writer = await openStore(path);
    await writeProducts(writer, [
      { ...PRODUCTS.plain, productKey: 'added-to-the-old-file', refsourceId: '2001' },
    ]);
    await writer.close();
    expect((await get(server, CATALOG)).body.total).toBe(6);

    // The rebuilt file: the seeded catalog without two products.
    const rebuilt = `${dir}/rebuilt.db`;
    await seedDatabase(rebuilt, NOW);
    const db = new Database(rebuilt);
    db.exec(
      "DELETE FROM observations WHERE product_id IN (SELECT id FROM products WHERE refsource_id IN ('1003','1005'))",
    );
    db.exec("DELETE FROM products WHERE refsource_id IN ('1003','1005')");
    db.close();

    execFileSync('mv', [rebuilt, path]);
    const after = await get(server, CATALOG);
    expect(after.status).toBe(200);
    expect(after.body.total).toBe(3);
    expect(after.body.products.map((p: { product_key: string }) => p.product_key)).not.toContain(
      'added-to-the-old-file',
    );
    expect((await get(server, pricingPath(PRODUCTS.plain.productKey))).status).toBe(200);
    await server.close();
    server = undefined;
    expect((await contents(path)).products).toBe(3);
  });

  it('answers 503, not 401, to a valid key when the key table vanishes from the file', async () => {
    const { path } = await seeded();
    server = await serve(path);
    expect((await get(server, CATALOG)).status).toBe(200);
    const db = new Database(path);
    db.exec('DROP TABLE api_keys');
    db.close();
    const { status, body } = await get(server, CATALOG);
    expect(status).toBe(503);
    expect(body.detail).toBe('database unavailable: the database has no api_keys table');
  });

  it('refuses a SQLite file that is not an oracle database, and leaves it byte for byte as it was', async () => {
    const dir = tempDir('oracle-dbfile-');
    const path = `${dir}/oracle.db`;
    const foreign = new Database(path);
    foreign.exec("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine')");
    foreign.close();
    const before = readFileSync(path);
    server = await serve(path);
    const { status, body } = await get(server, CATALOG);
    expect(status).toBe(503);
    expect(body.detail).toBe('database unavailable: the file is not an oracle database');
    await server.close();
    server = undefined;
    expect(readFileSync(path).equals(before)).toBe(true);
  });
});
