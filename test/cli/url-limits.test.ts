// @module-tag sqlite-only: the URL bounds are the reader's, whatever the store; the runs are read from the SQLite file
/**
 * A URL source's deadline and minimum transfer rate (issue 35.3): a server that drips its body,
 * or never ends it, is given up on with a message naming the option, the rows read before are
 * kept and the run is recorded as failed.
 */
import Database from 'better-sqlite3';
import { writeFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOracle } from '../_cli.js';
import { tempDir } from '../_setup.js';

const CATALOG =
  'product_key,refsource_id,product_name,product_type,era,release_date\ncharizard-4,1001,Charizard #4,single_card,vintage,1999-01-09\n';
const HEADER = 'product_key,source,observed_at,price_minor,external_id\n';
const row = (i: number) =>
  `charizard-4,ebay,2025-03-01T10:${String(i % 60).padStart(2, '0')}:00Z,35000,e-${i}\n`;

describe('URL sources: --url-deadline and --url-min-rate', () => {
  let server: Server;
  let base: string;
  const open = new Set<ServerResponse>();
  beforeAll(async () => {
    server = createServer((req, res) => {
      open.add(res);
      res.on('close', () => open.delete(res));
      res.writeHead(200, { 'content-type': 'text/csv' });
      res.write(HEADER + row(1) + row(2));
      let i = 3;
      // /drip: a byte every 200 ms (5 bytes/s); /steady: a row every 100 ms, for ever.
      const timer = setInterval(
        () => {
          if (res.destroyed) return clearInterval(timer);
          if (req.url === '/drip') res.write('c');
          else res.write(row(i++));
        },
        req.url === '/drip' ? 200 : 100,
      );
      res.on('close', () => clearInterval(timer));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const res of open) res.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  async function freshDatabase(): Promise<string> {
    const dir = tempDir();
    const db = join(dir, 'oracle.db');
    writeFileSync(join(dir, 'catalog.csv'), CATALOG);
    expect((await runOracle(['--db', db, 'ingest', join(dir, 'catalog.csv')])).code).toBe(0);
    return db;
  }

  function stored(db: string): { observations: number; run: { status: string; error: string | null } } {
    const d = new Database(db, { readonly: true });
    try {
      const observations = d.prepare('SELECT count(*) FROM observations').pluck().get() as number;
      const run = d
        .prepare("SELECT status, error FROM ingest_runs WHERE source LIKE 'http%' ORDER BY id DESC LIMIT 1")
        .get() as { status: string; error: string | null };
      return { observations, run };
    } finally {
      d.close();
    }
  }

  it('gives up on a source sending below --url-min-rate over --url-min-rate-time, keeping the rows before', async () => {
    const db = await freshDatabase();
    const result = await runOracle([
      '--db',
      db,
      'ingest',
      `${base}/drip`,
      '--url-min-rate',
      '100',
      '--url-min-rate-time',
      '1',
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^oracle: http:\/\/127\.0\.0\.1:\d+\/drip: sent \d+ bytes in 1 s, slower than 100 bytes\/s \(--url-min-rate, over --url-min-rate-time 1 s\): stopped; what was committed before stays/m,
    );
    const { observations, run } = stored(db);
    expect(observations).toBe(2);
    expect(run.status).toBe('failed');
    expect(run.error).toMatch(/--url-min-rate/);
  });

  it('gives up on a source not read to its end within --url-deadline (ORACLE_URL_DEADLINE), keeping the rows before', async () => {
    const db = await freshDatabase();
    const result = await runOracle(['--db', db, 'ingest', `${base}/steady`], {
      env: { ORACLE_URL_DEADLINE: '2' },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^oracle: http:\/\/127\.0\.0\.1:\d+\/steady: not read within 2 s \(--url-deadline\): stopped; what was committed before stays/m,
    );
    const { observations, run } = stored(db);
    // Two rows at once, then about ten a second for two seconds: most of them, none twice.
    expect(observations).toBeGreaterThan(5);
    expect(run.status).toBe('failed');
  });

  it('refuses a bound that is not a whole number of at least 1, naming the option', async () => {
    const result = await runOracle([
      '--db',
      join(tempDir(), 'x.db'),
      'ingest',
      `${base}/steady`,
      '--url-min-rate',
      '0',
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--url-min-rate.*must be a whole number of bytes a second, 1 or more/);
  });
});
