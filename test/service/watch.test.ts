/**
 * Watch checks and webhook delivery (docs/alerts.md) over a real store (a SQLite file, or a
 * fresh PostgreSQL database under the `postgres` project) and a real receiver on a loopback
 * port that checks every signature: a rule fires once per crossing, its event is delivered
 * signed, retried, kept pending while its receiver is down and never recorded twice.
 */
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WatchDefinition, WatchEventBody } from '../../src/domain/watch.js';
import { createOracle, type Oracle } from '../../src/service/oracle.js';
import { openStore } from '../../src/store/open-store.js';
import { newTestDatabase, TEST_STORE } from '../_pg.js';
import { databaseWith, tempDir, testProduct } from '../_setup.js';

const DAY = 86_400_000;
const T0 = Date.parse('2026-09-01T00:00:00Z');
const at = (day: number) => T0 + day * DAY;
const KEY = 'watched-card';
const SECRET = 'whsec_test';
/** Retries a few milliseconds apart: the backoff's shape without its seconds. */
const delivery = { secret: SECRET, retryDelaysMs: [5, 10], timeoutMs: 2_000 };

/** Ungraded sales every 6 hours: $100 on days 0-9, $200 on days 10-19, $100 on days 20-29. */
function sales() {
  const rows = [];
  for (let h = 0; h < 30 * 24; h += 6) {
    const day = Math.floor(h / 24);
    const priceMinor = day >= 10 && day < 20 ? 20_000 : 10_000;
    rows.push({
      productKey: KEY,
      source: 'ebay',
      observedAt: T0 + h * 3_600_000,
      priceMinor,
      grader: 'ungraded',
      grade: null,
      externalId: `s${h}`,
    });
  }
  return rows;
}

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver on 127.0.0.1: answers 500 to the next `failures` requests, then 204. */
async function startReceiver() {
  const received: Received[] = [];
  const state = { failures: 0 };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (state.failures > 0) {
        state.failures -= 1;
        res.writeHead(500).end();
      } else res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook/secret-path`;
  return { url, received, state, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The receiver's side of docs/alerts.md: the signature must be the HMAC-SHA256 of the raw body. */
function verified(r: Received): WatchEventBody {
  const expected = `sha256=${createHmac('sha256', SECRET).update(r.body).digest('hex')}`;
  expect(r.headers['x-oracle-signature-256']).toBe(expected);
  const body = JSON.parse(r.body) as WatchEventBody;
  expect(r.headers['x-oracle-event-id']).toBe(body.id);
  return body;
}

const rule = (overrides: Partial<WatchDefinition>): WatchDefinition => ({
  label: 'test',
  productKey: KEY,
  slot: 'ungraded',
  kind: 'above',
  amountMinor: 15_000,
  percent: null,
  direction: null,
  spanMs: null,
  webhookUrl: null,
  ...overrides,
});

describe(`watch checks and delivery (${TEST_STORE})`, () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver.close());

  /** A database of the card's sales, and an oracle over it. */
  async function seeded(): Promise<{ db: string; oracle: Oracle }> {
    const db = await databaseWith([testProduct({ productKey: KEY, refsourceId: null })], sales());
    return { db, oracle: createOracle({ store: await openStore(db) }) };
  }

  it('fires once per crossing, signed, with the price oracle price shows; again only after the condition was false', async () => {
    const { oracle } = await seeded();
    try {
      const added = await oracle.addWatch({
        rule: rule({ label: 'sell above $150', webhookUrl: receiver.url }),
        now: at(0),
      });
      const check = (day: number, now = at(day)) => oracle.checkWatches({ at: at(day), now, delivery });
      const before = receiver.received.length;

      expect((await check(10)).fired).toEqual([]);
      const crossing = await check(20);
      expect(crossing.fired).toHaveLength(1);
      expect(crossing.deliveries).toEqual([
        expect.objectContaining({ delivered: true, attempts: 1, receiver: new URL(receiver.url).origin }),
      ]);
      const sent = receiver.received.slice(before).map(verified);
      expect(sent).toEqual([crossing.fired[0]]);
      const bundle = await oracle.price({
        ref: { productKey: KEY },
        query: { windowHours: 24, outlierStddevs: 2, asOf: at(20) },
        now: at(20),
      });
      expect(sent[0]).toMatchObject({
        type: 'watch.fired',
        rule: { id: added.id, label: 'sell above $150', kind: 'above', amount_minor: 15_000 },
        product_key: KEY,
        slot: 'ungraded',
        as_of: '2026-09-21T00:00:00Z',
        price: {
          price_minor: bundle.ungraded.price_minor,
          confidence: bundle.ungraded.meta.confidence,
          methodology: bundle.ungraded.methodology,
        },
        value: bundle.ungraded.price_minor,
        previous_value: 10_000,
        links: { price: `/api/v1/developer/pricing/${KEY}?at=2026-09-21T00%3A00%3A00Z` },
      });
      expect(bundle.ungraded.price_minor).toBe(20_000);
      expect(sent[0]!.text).toContain('ungraded at or above $150.00');

      // The same check again (a cron job's next run): the condition still holds, nothing new.
      expect((await check(20, at(20) + 300_000)).fired).toEqual([]);
      expect(receiver.received.length).toBe(before + 1);
      // False at day 30 re-arms the rule without an event; true again is a second crossing.
      expect((await check(30)).fired).toEqual([]);
      expect((await oracle.watches())[0]).toMatchObject({ firing: false, lastValue: 10_000 });
      const again = await check(20, at(31));
      expect(again.fired).toHaveLength(1);
      expect(again.fired[0]!.id).not.toBe(crossing.fired[0]!.id);
      expect(
        receiver.received
          .slice(before)
          .map(verified)
          .map((e) => e.id),
      ).toEqual([crossing.fired[0]!.id, again.fired[0]!.id]);
      expect((await oracle.watchEvents({ limit: 10 })).map((e) => [e.id, e.status])).toEqual([
        [again.fired[0]!.id, 'delivered'],
        [crossing.fired[0]!.id, 'delivered'],
      ]);
    } finally {
      await oracle.close();
    }
  });

  // Delivery and the engine's reading are the same code on either store: the PostgreSQL run keeps
  // the tests of what the store does (state, outbox, pending, concurrent checks).
  it.skipIf(TEST_STORE === 'postgres')(
    'retries a receiver that fails twice within one check: three identical requests, one event',
    async () => {
      const { oracle } = await seeded();
      try {
        await oracle.addWatch({ rule: rule({ webhookUrl: receiver.url }), now: at(0) });
        const before = receiver.received.length;
        receiver.state.failures = 2;
        const report = await oracle.checkWatches({ at: at(20), now: at(20), delivery });
        expect(report.deliveries).toEqual([
          expect.objectContaining({ delivered: true, attempts: 3, error: null }),
        ]);
        const requests = receiver.received.slice(before);
        expect(requests.map((r) => r.headers['x-oracle-attempt'])).toEqual(['1', '2', '3']);
        expect(new Set(requests.map((r) => verified(r).id))).toEqual(new Set([report.fired[0]!.id]));
        expect(new Set(requests.map((r) => r.body)).size).toBe(1);
        expect(await oracle.watchEvents({ limit: 10 })).toEqual([
          expect.objectContaining({ status: 'delivered', attempts: 3, lastError: null }),
        ]);
      } finally {
        await oracle.close();
      }
    },
  );

  it('keeps an undelivered event pending, lists it, and delivers it on the next check without firing again; another receiver never waits', async () => {
    const { oracle } = await seeded();
    const down = await startReceiver();
    try {
      down.state.failures = Number.POSITIVE_INFINITY;
      await oracle.addWatch({
        rule: rule({ label: 'to the receiver that is down', webhookUrl: down.url }),
        now: at(0),
      });
      await oracle.addWatch({
        rule: rule({ label: 'to the one that is up', amountMinor: 12_000 }),
        now: at(0),
      });
      const first = await oracle.checkWatches({ at: at(20), now: at(20), webhook: receiver.url, delivery });
      expect(first.fired).toHaveLength(2);
      expect(first.pending).toBe(1);
      const pending = await oracle.watchEvents({ limit: 10, status: 'pending' });
      expect(pending).toEqual([expect.objectContaining({ ruleId: 1, attempts: 3, lastError: 'HTTP 500' })]);

      down.state.failures = 0;
      const second = await oracle.checkWatches({
        at: at(20),
        now: at(20) + 300_000,
        webhook: receiver.url,
        delivery,
      });
      expect(second.fired).toEqual([]);
      expect(second.deliveries).toEqual([
        expect.objectContaining({ event_id: pending[0]!.id, delivered: true, attempts: 1 }),
      ]);
      expect(second.pending).toBe(0);
      // Four requests of one event (three failed, one taken): the receiver deduplicates on its id.
      expect(down.received.map((r) => verified(r).id)).toEqual(Array(4).fill(pending[0]!.id));
      expect(await oracle.watchEvents({ limit: 10, status: 'pending' })).toEqual([]);
    } finally {
      await down.close();
      await oracle.close();
    }
  });

  it('two checks at once (a cron job beside serve --watch) record a crossing once', async () => {
    const { db, oracle } = await seeded();
    const other = createOracle({ store: await openStore(db) });
    try {
      await oracle.addWatch({ rule: rule({}), now: at(0) });
      const reports = await Promise.all(
        [oracle, other].map((o) => o.checkWatches({ at: at(20), now: at(20) })),
      );
      expect(reports.flatMap((r) => r.fired)).toHaveLength(1);
      expect(await oracle.watchEvents({ limit: 10 })).toEqual([
        expect.objectContaining({ status: 'unsent' }),
      ]);
    } finally {
      await other.close();
      await oracle.close();
    }
  });

  it.skipIf(TEST_STORE === 'postgres')(
    'reads moves, intervals and staleness from the same bundles',
    async () => {
      const { oracle } = await seeded();
      try {
        const bundle = await oracle.price({
          ref: { productKey: KEY },
          query: { windowHours: 24, outlierStddevs: 2, asOf: at(20) },
          now: at(20),
        });
        const { low_minor, high_minor } = bundle.ungraded.meta.confidence as {
          low_minor: number;
          high_minor: number;
        };
        const width = high_minor - low_minor;
        await oracle.addWatch({
          rule: rule({ kind: 'move', amountMinor: null, percent: 50, direction: 'up', spanMs: 10 * DAY }),
          now: at(0),
        });
        await oracle.addWatch({
          rule: rule({ kind: 'move', amountMinor: null, percent: 50, direction: 'down', spanMs: 10 * DAY }),
          now: at(0),
        });
        await oracle.addWatch({ rule: rule({ kind: 'wider', amountMinor: width }), now: at(0) });
        await oracle.addWatch({ rule: rule({ kind: 'narrower', amountMinor: width + 1 }), now: at(0) });
        await oracle.addWatch({ rule: rule({ kind: 'stale', amountMinor: null }), now: at(0) });
        const fired = (await oracle.checkWatches({ at: at(20), now: at(20) })).fired;
        expect(fired.map((e) => [e.rule.id, e.value])).toEqual([
          [1, 100],
          [4, width],
        ]);
        // Ten days after the last sale (day 29.75: 246 hours) the slot is stale (rule 5). Its interval, a
        // prediction interval for the next sale since pricing v4, is narrower than at day 20, when the
        // price was moving: rule 3 stays quiet and rule 4 stays fired. The price is flat from day 30 to 40:
        // no move holds, and rule 1 re-arms.
        const stale = (
          await oracle.price({
            ref: { productKey: KEY },
            query: { windowHours: 24, outlierStddevs: 2, asOf: at(40) },
            now: at(40),
          })
        ).ungraded;
        const interval = stale.meta.confidence as { low_minor: number; high_minor: number };
        expect(stale.meta.stale).toBe(true);
        const later = (await oracle.checkWatches({ at: at(40), now: at(40) })).fired;
        expect(interval.high_minor - interval.low_minor).toBeLessThan(width);
        expect(later.map((e) => [e.rule.id, e.value])).toEqual([[5, 246]]);
        expect(later[0]).toMatchObject({ price: { price_minor: stale.price_minor, stale: true } });
        expect((await oracle.watches()).map((r) => r.firing)).toEqual([false, false, false, true, true]);
      } finally {
        await oracle.close();
      }
    },
  );

  it('refuses a rule on a product the catalog does not have', async () => {
    const oracle = createOracle({
      store: await openStore(await newTestDatabase(tempDir()), { create: true }),
    });
    try {
      await expect(oracle.addWatch({ rule: rule({}), now: at(0) })).rejects.toThrow(
        /unknown product_key "watched-card"/,
      );
      expect(await oracle.watches()).toEqual([]);
    } finally {
      await oracle.close();
    }
  });
});
