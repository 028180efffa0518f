// @module-tag sqlite-only: it fills a 130,000-product SQLite file directly; the catalog route's pages on PostgreSQL are test/cli/catalog.test.ts's and test/http/statuses.test.ts's
/**
 * The catalog a page at a time (issue 35 item 1): the route answers at most CATALOG_PAGE.max
 * products with a cursor to the next page, takes a token from the shared bucket, and refuses a
 * limit above the most or a cursor it never gave; `oracle catalog --json` writes the same body
 * page by page, and the table lists a catalog whose widths once overflowed the stack
 * (Math.max over 125,000 cells). The catalogs are made with one INSERT ... SELECT.
 */
import Database from 'better-sqlite3';
import { Writable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/main.js';
import { CATALOG_PAGE } from '../../src/domain/search.js';
import { runOracle } from '../_cli.js';
import { databaseWith } from '../_setup.js';
import { ENV_KEY, startServer } from './_helpers.js';

/** A database of `count` products `p-000000` ... made by one statement. */
async function catalogOf(count: number): Promise<string> {
  const db = await databaseWith([], []);
  const raw = new Database(db);
  raw
    .prepare(
      `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?)
       INSERT INTO products (product_key, refsource_id, product_name, product_type, era)
       SELECT printf('p-%06d', i), CAST(1000000 + i AS TEXT), 'Card ' || i, 'single_card', 'modern' FROM n`,
    )
    .run(count);
  raw.close();
  return db;
}

interface Page {
  total: number;
  products: { product_key: string }[];
  next_cursor: string | null;
}

describe('GET /api/v1/developer/catalog, a page at a time', () => {
  const COUNT = 2_500;
  let db: string;
  beforeAll(async () => {
    db = await catalogOf(COUNT);
  });

  it('pages through every product once, in key order, never more than the most per page', async () => {
    const server = await startServer({ dbPath: db });
    try {
      const get = (query: string) =>
        fetch(`${server.url}/api/v1/developer/catalog${query}`, { headers: { 'x-api-key': ENV_KEY } });
      const keys: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const response = await get(cursor === null ? '' : `?cursor=${cursor}`);
        expect(response.status).toBe(200);
        const page = (await response.json()) as Page;
        expect(page.total).toBe(COUNT);
        expect(page.products.length).toBeLessThanOrEqual(CATALOG_PAGE.max);
        keys.push(...page.products.map((p) => p.product_key));
        cursor = page.next_cursor;
        pages += 1;
      } while (cursor !== null);
      expect(pages).toBe(Math.ceil(COUNT / CATALOG_PAGE.max));
      expect(keys).toEqual(Array.from({ length: COUNT }, (_, i) => `p-${String(i).padStart(6, '0')}`));

      const small = (await (await get('?limit=7')).json()) as Page;
      expect(small.products.map((p) => p.product_key)).toEqual(keys.slice(0, 7));
      const next = (await (await get(`?limit=3&cursor=${small.next_cursor}`)).json()) as Page;
      expect(next.products.map((p) => p.product_key)).toEqual(keys.slice(7, 10));

      for (const [query, detail] of [
        [`?limit=${CATALOG_PAGE.max + 1}`, /limit/],
        ['?limit=0', /limit/],
        ['?cursor=not%20a%20cursor', /cursor must be the next_cursor of a previous page/],
        ['?cursor=', /cursor/],
      ] as const) {
        const response = await get(query);
        expect(response.status, query).toBe(400);
        expect(((await response.json()) as { detail: string }).detail).toMatch(detail);
      }
    } finally {
      await server.close();
    }
  });

  it('takes a token from the shared rate-limit bucket', async () => {
    const server = await startServer({ dbPath: db, rateLimitPerMinute: 2 });
    try {
      const statuses = [];
      for (let i = 0; i < 3; i += 1) {
        const response = await fetch(`${server.url}/api/v1/developer/catalog?limit=1`, {
          headers: { 'x-api-key': ENV_KEY },
        });
        await response.body?.cancel();
        statuses.push(response.status);
      }
      expect(statuses).toEqual([200, 200, 429]);
    } finally {
      await server.close();
    }
  });

  it('oracle catalog --json writes the whole body, a page per write', async () => {
    const writes: string[] = [];
    const stdout = new Writable({
      write(chunk: Buffer | string, _encoding, done) {
        writes.push(chunk.toString());
        done();
      },
    });
    const code = await run(['node', 'oracle', '--db', db, 'catalog', '--json'], {
      stdout,
      stderr: new Writable({ write: (_c, _e, done) => done() }),
      stdin: process.stdin,
      env: {},
      now: Date.now,
    });
    expect(code).toBe(0);
    // Never the whole catalog in one write: at most a page each.
    expect(writes).toHaveLength(Math.ceil(COUNT / CATALOG_PAGE.max));
    for (const text of writes)
      expect(text.match(/"product_key"/g)!.length).toBeLessThanOrEqual(CATALOG_PAGE.max);
    const body = JSON.parse(writes.join('')) as Page;
    expect(body.total).toBe(COUNT);
    expect(body.products).toHaveLength(COUNT);
    expect(body.products[0]).toEqual({
      product_key: 'p-000000',
      refsource_id: '1000000',
      product_name: 'Card 0',
      product_type: 'single_card',
      era: 'modern',
      earliest_observation: null,
      tcgplayer_id: null,
      printing: null,
      language: null,
    });
  });

  it('oracle catalog lists 130,000 products as a table (Math.max over every cell overflowed the stack)', async () => {
    const big = await catalogOf(130_000);
    const result = await runOracle(['--db', big, 'catalog']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/\np-129999 .*\n130000 products\n$/);
  }, 120_000);
});
