/**
 * `oracle watch add | list | remove | check | events` in process (test/_cli.ts), and
 * `oracle serve --watch` in a process of its own alerting a real receiver after an
 * `oracle ingest` in this one raised the price. The check's semantics and the delivery's
 * guarantees on both stores: test/service/watch.test.ts. Under the `postgres` project only the
 * server runs again: there the ingest reaches it by the commit's notification.
 */
import { createHmac } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOracle as oracle } from '../_cli.js';
import { TEST_STORE } from '../_pg.js';
import { databaseWith, spawnServe, tempDir, testProduct } from '../_setup.js';

const KEY = 'pokemon-base-set-charizard-4-102';
const HOUR = 3_600_000;
const SECRET = 'whsec_cli';

/** Ungraded sales at `priceMinor`, one an hour for `hours` hours before `now`. */
const sales = (now: number, hours: number, priceMinor: number, prefix: string) =>
  Array.from({ length: hours }, (_, h) => ({
    productKey: KEY,
    source: 'ebay',
    observedAt: now - (h + 1) * HOUR,
    priceMinor,
    grader: 'ungraded',
    grade: null,
    externalId: `${prefix}${h}`,
  }));

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A receiver on 127.0.0.1 answering `status()` to every POST. */
async function startReceiver(status: () => number = () => 204) {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(status()).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/oracle`;
  return { url, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const signed = (body: string) => `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;

describe('oracle watch', () => {
  const now = Date.parse('2026-11-20T12:00:00Z');
  let db: string;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const run = (args: string[], env: Record<string, string> = {}) =>
    oracle(['--db', db, 'watch', ...args], { now, env });

  beforeAll(async () => {
    db = await databaseWith([testProduct({ productKey: KEY })], sales(now, 12, 10_000, 'a'));
    receiver = await startReceiver();
  });
  afterAll(() => receiver.close());

  // The commands' parsing and output are the same on either store (the store's part: test/service/watch.test.ts).
  it.skipIf(TEST_STORE === 'postgres')(
    'adds rules as people write them, lists and removes them; bad rules exit 2 and store nothing',
    async () => {
      const added = await run(['add', KEY, '--slot', 'PSA 10', '--above', '1,250.50', '--json']);
      expect(added.code).toBe(0);
      expect(JSON.parse(added.stdout)).toMatchObject({
        product_key: KEY,
        slot: 'psa10',
        kind: 'above',
        amount_minor: 125_050,
        label: 'psa10 at or above $1,250.50',
        firing: false,
      });
      const move = await run(['add', KEY, '--move', '-10%', '--over', '2w', '--label', 'dip']);
      expect(move).toMatchObject({
        code: 0,
        stdout: `watch 2: ${KEY} ungraded moves 10% down over 14d ("dip")\n`,
      });

      for (const [args, message] of [
        [['add', KEY], /exactly one of --above, --below, --move, --narrower, --wider, --stale \(got none\)/],
        [['add', KEY, '--above', '10', '--stale'], /\(got --above and --stale\)/],
        [['add', KEY, '--above', '10.001'], /--above must be an amount in US dollars/],
        [
          ['add', KEY, '--above', '99999999999999'],
          /--above must be an amount in US dollars from \$0\.01 to \$10,000,000,000/,
        ],
        [['add', KEY, '--move', '0%'], /--move must be a percentage above 0/],
        [['add', KEY, '--move', '5', '--over', '7x'], /--over must be a span of hours, days or weeks/],
        [['add', KEY, '--stale', '--over', '7d'], /--over is the span of --move/],
        [['add', KEY, '--stale', '--slot', 'raw-lp'], /--slot must be a slot/],
        [['add', KEY, '--stale', '--webhook', 'ftp://x'], /--webhook must be an http\(s\) URL/],
        [
          ['add', 'pokemon-base-set-charizzard-4-10', '--stale'],
          /unknown product_key .*did you mean "pokemon-base-set-charizard-4-102"/,
        ],
        [['remove', '99'], /no watch rule has id 99/],
      ] as const) {
        const result = await run([...args]);
        expect(result.code, args.join(' ')).toBe(2);
        expect(result.stderr).toMatch(message);
      }
      const listed = JSON.parse((await run(['list', '--json'])).stdout) as { id: number }[];
      expect(listed.map((r) => r.id)).toEqual([1, 2]);
      expect(await run(['remove', '1'])).toMatchObject({ code: 0, stderr: 'removed watch 1\n' });
      expect((await run(['list'])).stdout).toMatch(/ungraded moves 10% down over 14d[\s\S]*\n1 rule\n$/);
      await run(['remove', '2']);
    },
  );

  it.skipIf(TEST_STORE === 'postgres')(
    'check fires once per crossing, POSTs the signed event, and exits 1 while a receiver is down',
    async () => {
      const added = JSON.parse((await run(['add', KEY, '--below', '120', '--json'])).stdout) as {
        id: number;
      };
      // Rules 1 and 2 were removed: their ids are not given again, so their events never name this rule.
      expect(added.id).toBe(3);
      const env = { ORACLE_WEBHOOK_SECRET: SECRET };
      const first = await run(['check', '--webhook', receiver.url], env);
      expect(first.code).toBe(0);
      expect(first.stdout).toMatch(/ungraded at or below \$120\.00|\$100\.00/);
      expect(first.stdout).toMatch(
        /1 rule checked as of 2026-11-20T12:00:00Z: 1 fired\ndelivered evt_[0-9a-f-]{36} to http:\/\/127\.0\.0\.1:\d+ \(attempt 1\)\n$/,
      );
      expect(receiver.received).toHaveLength(1);
      const { headers, body } = receiver.received[0]!;
      expect(headers['x-oracle-signature-256']).toBe(signed(body));
      expect(JSON.parse(body)).toMatchObject({
        rule: { id: added.id },
        product_key: KEY,
        value: 10_000,
        previous_value: null,
      });

      // Five minutes later, as cron runs it: the condition still holds, no second alert.
      const again = await oracle(['--db', db, 'watch', 'check', '--webhook', receiver.url, '--json'], {
        now: now + 300_000,
        env,
      });
      expect(again.code).toBe(0);
      expect(JSON.parse(again.stdout)).toMatchObject({ fired: [], deliveries: [], pending: 0 });
      expect(receiver.received).toHaveLength(1);

      // A look back (--at before now) is a preview: it says what would fire then, records nothing
      // and sends nothing, so the rule's state and the receiver are untouched.
      const events = (await run(['events', '--json'])).stdout;
      const back = await oracle(
        ['--db', db, 'watch', 'check', '--at', '2026-11-19T12:00:00Z', '--webhook', receiver.url, '--json'],
        { now: now + 360_000, env },
      );
      expect(back.code).toBe(0);
      expect(JSON.parse(back.stdout)).toMatchObject({ preview: true, deliveries: [], pending: 0 });
      expect((await run(['events', '--json'])).stdout).toBe(events);
      expect(receiver.received).toHaveLength(1);

      // A receiver that refuses it (a 4xx: not retried within the check): the event is recorded,
      // pending, listed, and the exit says so.
      const down = await startReceiver(() => 401);
      try {
        await run(['add', KEY, '--above', '50', '--webhook', down.url]);
        const failed = await oracle(['--db', db, 'watch', 'check'], {
          now: now + 600_000,
          env: { ...env, ORACLE_WEBHOOK_URL: receiver.url },
        });
        expect(failed.code).toBe(1);
        expect(failed.stderr).toMatch(
          /1 event not delivered at .*: the next check retries \(oracle watch events --pending\)/,
        );
        expect(down.received).toHaveLength(1);
        const pending = JSON.parse((await run(['events', '--pending', '--json'])).stdout) as {
          status: string;
          attempts: number;
          last_error: string;
          receiver: string;
        }[];
        expect(pending).toEqual([
          expect.objectContaining({
            status: 'pending',
            attempts: 1,
            last_error: 'HTTP 401',
            receiver: new URL(down.url).origin,
          }),
        ]);
      } finally {
        await down.close();
      }
    },
  );
});

describe.skipIf(TEST_STORE === 'postgres')('oracle serve --watch in process', () => {
  // The clock is the program's, as every command's: a run given a clock checks as of it.
  it("checks the rules as of the program's clock and stops on SIGTERM", async () => {
    const now = Date.parse('2026-11-20T12:00:00Z');
    const db = await databaseWith([testProduct({ productKey: KEY })], sales(now, 6, 10_000, 'a'));
    const run = (args: string[]) => oracle(['--db', db, ...args], { now });
    expect((await run(['watch', 'add', KEY, '--above', '50'])).code).toBe(0);
    const served = run(['serve', '--watch', '--port', '0']);
    let events: { created_at: string }[] = [];
    while (events.length === 0) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      events = JSON.parse((await run(['watch', 'events', '--json'])).stdout) as typeof events;
    }
    process.emit('SIGTERM');
    expect(await served).toMatchObject({ code: 0 });
    expect(events).toEqual([expect.objectContaining({ created_at: '2026-11-20T12:00:00Z' })]);
    expect(process.listenerCount('SIGTERM') + process.listenerCount('SIGINT')).toBe(0);
  });
});

describe(`oracle serve --watch (${TEST_STORE})`, () => {
  it('alerts a receiver seconds after an ingest in another process raised the price, and serves the rule and event', async () => {
    const now = Date.now();
    const dir = tempDir('oracle-watch-serve-');
    const db = await databaseWith([testProduct({ productKey: KEY })], sales(now, 6, 10_000, 'a'));
    const receiver = await startReceiver();
    try {
      expect(
        (await oracle(['--db', db, 'watch', 'add', KEY, '--above', '150', '--webhook', receiver.url])).code,
      ).toBe(0);
      const server = spawnServe(['--db', db, 'serve', '--watch'], {
        ORACLE_WEBHOOK_SECRET: SECRET,
        ORACLE_API_KEYS: 'k',
      });
      try {
        const url = await server.url;
        const csv = ['product_key,source,observed_at,price_minor,grader,grade,external_id'];
        for (let m = 1; m <= 30; m += 1)
          csv.push(`${KEY},ebay,${new Date(now - m * 60_000).toISOString()},40000,ungraded,,b${m}`);
        writeFileSync(join(dir, 'raise.csv'), `${csv.join('\n')}\n`);
        expect((await oracle(['--db', db, 'ingest', join(dir, 'raise.csv')])).code).toBe(0);

        const deadline = Date.now() + 10_000;
        while (receiver.received.length === 0 && Date.now() < deadline)
          await new Promise((resolve) => setTimeout(resolve, 50));
        expect(receiver.received).toHaveLength(1);
        const { headers, body } = receiver.received[0]!;
        expect(headers['x-oracle-signature-256']).toBe(signed(body));
        const event = JSON.parse(body) as {
          id: string;
          product_key: string;
          value: number;
          links: { price: string };
        };
        expect(event).toMatchObject({ product_key: KEY, previous_value: 10_000 });
        // The price the event carries is the one the API shows at the event's instant.
        const priced = (await (
          await fetch(`${url}${event.links.price}`, { headers: { 'x-api-key': 'k' } })
        ).json()) as { ungraded: { price_minor: number } };
        expect(priced.ungraded.price_minor).toBe(event.value);

        const rules: unknown = await (
          await fetch(`${url}/api/v1/developer/watches`, { headers: { 'x-api-key': 'k' } })
        ).json();
        expect(rules).toMatchObject({
          total: 1,
          rules: [{ id: 1, firing: true, receiver: new URL(receiver.url).origin }],
        });
        const events = await fetch(`${url}/api/v1/developer/watches/events?limit=5`, {
          headers: { 'x-api-key': 'k' },
        });
        expect(events.headers.get('ratelimit-limit')).toBe('120');
        expect(((await events.json()) as { events: { id: string }[] }).events.map((e) => e.id)).toEqual([
          event.id,
        ]);
        expect(server.stderr.join('\n')).toContain(`(${event.id})`);
        const bad = await fetch(`${url}/api/v1/developer/watches/events?status=sent`, {
          headers: { 'x-api-key': 'k' },
        });
        expect(bad.status).toBe(400);
        expect(await bad.json()).toEqual({
          detail: 'status must be pending, delivered or unsent (got "sent")',
        });
      } finally {
        server.child.kill('SIGTERM');
        expect(await server.exited).toBe(0);
      }
    } finally {
      await receiver.close();
    }
  }, 20_000);
});
