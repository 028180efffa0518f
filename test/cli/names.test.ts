/**
 * A card named by its name everywhere a key goes (issue 33 item 7), on the real SportsCardsPro
 * download (test/fixtures/README.md), whose "Aaron Judge #99" has 62 parallels
 * ("Aaron Judge [Aqua Lava] #99", ...): the exact name is the base card for price, explain,
 * history, sales, watch add and value; a phrase naming several lists them base card first, on
 * the terminal and in the API's 400 body.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newTestDatabase } from '../_pg.js';
import { runOracle } from '../_cli.js';
import { ROOT, tempDir, type CliResult } from '../_setup.js';
import { ENV_KEY, pricingPath, startServer, type TestServer } from '../http/_helpers.js';

const GUIDE = join(ROOT, 'test/fixtures/pricecharting/sportscardspro-baseball-2025-topps-chrome.csv');
const JUDGE = 'baseball-cards-2025-topps-chrome-aaron-judge-99';
const NOW = Date.parse('2026-01-15T12:00:00Z');

let dir: string;
let db: string;

const oracle = (...args: string[]): Promise<CliResult> => runOracle(['--db', db, ...args], { now: NOW });

beforeAll(async () => {
  dir = tempDir('oracle-names-');
  db = await newTestDatabase(dir);
  expect((await oracle('ingest', '--kind', 'catalog', GUIDE)).code).toBe(0);
  expect((await oracle('ingest', GUIDE)).code).toBe(0);
});

describe('a card named by its exact name', () => {
  it.each([
    ['price', ['price', 'Aaron Judge #99', '--json'], (body: any) => body.product_key],
    [
      'explain',
      ['explain', 'aaron judge  #99', '--slot', 'ungraded', '--json'],
      (body: any) => body.product_key,
    ],
    ['history', ['history', 'Aaron Judge #99', '--json'], (body: any) => body.product_key],
    ['sales', ['sales', 'Aaron Judge #99', '--json'], (body: any) => body.product_key],
  ])('resolves to the base card, not its parallels (%s)', async (_, args, keyOf) => {
    const run = await oracle(...args);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(keyOf(JSON.parse(run.stdout))).toBe(JUDGE);
  });

  it('is the product of watch add, stored by its key', async () => {
    const run = await oracle('watch', 'add', 'Aaron Judge #99', '--above', '20', '--json');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ product_key: JUDGE });
  });

  it('is the product of a collection line of value', async () => {
    const file = join(dir, 'collection.csv');
    writeFileSync(file, 'product_key,condition,quantity\n"Aaron Judge #99",ungraded,2\n');
    const run = await oracle('value', file, '--json');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.stringify(JSON.parse(run.stdout))).toContain(JUDGE);
  });

  it('lists a phrase naming several products base card first, with their keys (exit 2)', async () => {
    const run = await oracle('price', 'Aaron Judge');
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^oracle: "Aaron Judge" names \d+ products, not one: give one of their keys\n/,
    );
    // The first row of the table to choose from is the base card; its parallels follow.
    const rows = run.stderr.split('\n').filter((line) => line.startsWith('  baseball-cards'));
    expect(rows[0]).toMatch(new RegExp(`^  ${JUDGE}( |$)`));
    // Beside its key, or under it where the keys leave the name too little of the 80 columns.
    expect(run.stderr).toMatch(new RegExp(`\\n  ${JUDGE}\\s+Aaron Judge #99`));
    expect(rows.length).toBeGreaterThan(1);
  });
});

describe('the API', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ dbPath: db, now: () => NOW });
  });
  afterAll(async () => {
    await server.close();
  });

  it("keeps product_key a key, and answers a name with a 400 whose detail offers the card's key first", async () => {
    const res = await fetch(`${server.url}${pricingPath('Aaron Judge #99')}`, {
      headers: { 'x-api-key': ENV_KEY },
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { detail: string };
    expect(body.detail).toMatch(
      new RegExp(`^unknown product_key "Aaron Judge #99" \\(did you mean "${JUDGE}"`),
    );
  });
});
