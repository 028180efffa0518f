// @module-tag sqlite-only: it reads the SQLite file and its -wal for leaked secrets; the redaction it checks happens before any store
/**
 * Secrets in URLs never leave the process (issue 35 item 2): a webhook URL with a user name or
 * password is refused at `watch add`, and a URL's credentials and query values are kept out of
 * every message, the database file and every route: a rule stored with credentials by an
 * older version fails its deliveries without quoting them, and an ingest of a URL with a token
 * names it without the token. SQLite only: what is redacted is decided before the store.
 */
import Database from 'better-sqlite3';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactedUrl, redactUrlsIn } from '../../src/domain/redact.js';
import { runOracle } from '../_cli.js';
import { databaseWith, testProduct } from '../_setup.js';
import { ENV_KEY, startServer } from '../http/_helpers.js';

const KEY = 'pokemon-base-set-charizard-4-102';
const HOUR = 3_600_000;
const PASSWORD = 'Pw0rdSecret';
const TOKEN = 'tok3nSecret';
const now = Date.parse('2026-11-20T12:00:00Z');

const leaks = (text: string) => text.includes(PASSWORD) || text.includes(TOKEN);

describe('redactedUrl and redactUrlsIn', () => {
  it.each([
    ['https://user:pw@hooks.example/a/b?token=x&flag', 'https://***@hooks.example/a/b?token=***&flag'],
    ['http://127.0.0.1:9/hook?a=1&b=2#frag', 'http://127.0.0.1:9/hook?a=***&b=***#***'],
    ['https://hooks.example/path', 'https://hooks.example/path'],
    ['not a url', 'not a url'],
  ])('redacts %s', (url, expected) => {
    expect(redactedUrl(url)).toBe(expected);
  });

  it('redacts every URL quoted in a message and nothing else', () => {
    expect(
      redactUrlsIn('Request cannot be constructed from a URL that includes credentials: http://u:p@h/x?k=v'),
    ).toBe('Request cannot be constructed from a URL that includes credentials: http://***@h/x?k=***');
  });
});

describe('secrets in URLs', () => {
  let db: string;
  let receiverUrl: string;
  const receiver = createServer((_req, res) => res.writeHead(404).end());
  const run = (args: string[]) => runOracle(['--db', db, ...args], { now });

  beforeAll(async () => {
    db = await databaseWith(
      [testProduct({ productKey: KEY })],
      Array.from({ length: 12 }, (_, h) => ({
        productKey: KEY,
        source: 'ebay',
        observedAt: now - (h + 1) * HOUR,
        priceMinor: 10_000,
        grader: 'ungraded' as const,
        grade: null,
        externalId: `s${h}`,
      })),
    );
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

  it('refuses a webhook URL with a user name or password at watch add, without echoing it', async () => {
    const hook = `${receiverUrl.replace('//', `//hook:${PASSWORD}@`)}/hook?token=${TOKEN}`;
    for (const args of [
      ['watch', 'add', KEY, '--above', '1', '--webhook', hook],
      ['watch', 'check', '--webhook', hook],
    ]) {
      const result = await run(args);
      expect(result.code, args[1]).toBe(2);
      expect(result.stderr).toMatch(/--webhook .*must not hold a user name or password/);
      expect(result.stderr).toContain('http://***@127.0.0.1:');
      expect(leaks(result.stdout + result.stderr)).toBe(false);
    }
    expect(JSON.parse((await run(['watch', 'list', '--json'])).stdout)).toEqual([]);
  });

  it('keeps the credentials of a rule stored by an older version out of every message, the database and every route', async () => {
    expect((await run(['watch', 'add', KEY, '--above', '1', '--webhook', `${receiverUrl}/plain`])).code).toBe(
      0,
    );
    // As a version before the refusal stored it.
    const raw = new Database(db);
    raw
      .prepare('UPDATE watch_rules SET webhook_url = ?')
      .run(`${receiverUrl.replace('//', `//hook:${PASSWORD}@`)}/hook?token=${TOKEN}`);
    raw.close();

    const check = await run(['watch', 'check']);
    expect(check.code).toBe(1);
    expect(check.stdout).toMatch(
      /not delivered evt_\S+ to http:\/\/127\.0\.0\.1:\d+: network: .*credentials/,
    );
    expect(leaks(check.stdout + check.stderr)).toBe(false);
    for (const args of [
      ['watch', 'events', '--json'],
      ['watch', 'events'],
      ['watch', 'list', '--json'],
    ]) {
      const shown = await run(args);
      expect(shown.code).toBe(0);
      expect(leaks(shown.stdout + shown.stderr), args.join(' ')).toBe(false);
    }
    const stored = new Database(db, { readonly: true });
    const errors = stored.prepare('SELECT last_error FROM watch_events').pluck().all() as string[];
    stored.close();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/credentials: http:\/\/\*\*\*@127\.0\.0\.1:\d+\/hook\?token=\*\*\*/);

    const server = await startServer({ dbPath: db, now: () => now });
    try {
      for (const path of ['/api/v1/developer/watches', '/api/v1/developer/watches/events']) {
        const response = await fetch(`${server.url}${path}`, { headers: { 'x-api-key': ENV_KEY } });
        expect(response.status).toBe(200);
        expect(leaks(await response.text()), path).toBe(false);
      }
      expect(leaks(server.errorLines.join('\n') + server.accessLines.join('\n'))).toBe(false);
    } finally {
      await server.close();
    }
  }, 30_000);

  it('names an ingested URL without its credentials or query values, in its output and the database file', async () => {
    const source = `${receiverUrl.replace('//', `//feed:${PASSWORD}@`)}/prices.csv?token=${TOKEN}`;
    const fresh = await databaseWith([testProduct({ productKey: KEY })], []);
    const result = await runOracle(['--db', fresh, 'ingest', source], { now });
    expect(result.code).toBe(1);
    expect(result.stdout + result.stderr).toContain(
      `${receiverUrl.replace('//', '//***@')}/prices.csv?token=***`,
    );
    expect(leaks(result.stdout + result.stderr)).toBe(false);
    for (const file of [fresh, `${fresh}-wal`].filter((f) => existsSync(f)))
      expect(leaks(readFileSync(file, 'latin1')), file).toBe(false);
    const stored = new Database(fresh, { readonly: true });
    const sources = stored.prepare('SELECT source FROM ingest_runs').pluck().all() as string[];
    stored.close();
    expect(sources.some((s) => s.includes('/prices.csv?token=***'))).toBe(true);
    expect(sources.some(leaks)).toBe(false);
  });
});
