// @module-tag sqlite-only: the upstream client's deadlines and connection cap: the store's part, the local
// mapping, is in http/statuses.test.ts, which runs on both
/**
 * An upstream reference source that misbehaves on the wire, served for real on loopback: one
 * that sends its headers and then a byte every 3 s, one that never answers, and one that is
 * merely slow while many distinct ids are asked at once. Deadlines are small here (the
 * client takes them as options); the upstream's own pace is the one that was reported.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createUpstreamResolver } from '../../src/service/upstream-resolver.js';
import { createRefsourceClient } from '../../src/upstream/refsource-client.js';
import {
  fakeUpstream,
  seededTestDatabase,
  startServer,
  STORED_KEY,
  type FakeUpstream,
  type TestServer,
  type UpstreamBehaviour,
} from './_helpers.js';

const NOW = Date.now();
const KEY = { 'x-api-key': STORED_KEY };
let dbPath: string;

let upstream: FakeUpstream;
let server: TestServer | undefined;
let behaviour: UpstreamBehaviour = 200;

beforeAll(async () => {
  dbPath = await seededTestDatabase(NOW);
  upstream = await fakeUpstream(() => behaviour);
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  upstream.calls.length = 0;
  upstream.maxInFlight = 0;
  upstream.delayMs = 0;
});
afterAll(() => upstream.close());

async function serve(options: { deadlineMs: number; maxConnections?: number; failureThreshold?: number }) {
  const client = createRefsourceClient({
    urlTemplate: upstream.template,
    deadlineMs: options.deadlineMs,
    maxConnections: options.maxConnections,
  });
  const resolver = createUpstreamResolver(client, {
    breaker: { failureThreshold: options.failureThreshold ?? 5, coolDownMs: 60_000 },
  });
  return (server = await startServer({ dbPath, resolver }));
}

async function get(path: string) {
  const res = await fetch(server!.url + path, { headers: KEY });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

describe('an upstream that trickles its answer (headers, then one byte every 3 s)', () => {
  it('is cut at the total deadline: a mapped id is priced locally, an unmapped one is 502', async () => {
    behaviour = 'trickle';
    await serve({ deadlineMs: 300 });
    const mapped = await get('/api/v1/developer/refsource/1001');
    expect(mapped.status).toBe(200);
    expect(mapped.body.ungraded.meta.refsource_upstream).toBe('unavailable');
    const unmapped = await get('/api/v1/developer/refsource/424242');
    expect(unmapped.status).toBe(502);
    expect(unmapped.body.detail).toMatch(/upstream timed out \(no complete answer within 300 ms\)/);
    // The detail is the deadline's own: without it the trickled body would take minutes and the
    // test's timeout would end it. How soon it answers is the bench's business, not a bound here.
  });

  it('counts a deadline hit as a failure: the circuit opens and the upstream is no longer called', async () => {
    behaviour = 'trickle';
    await serve({ deadlineMs: 200, failureThreshold: 2 });
    for (const id of ['5001', '5002'])
      expect((await get(`/api/v1/developer/refsource/${id}`)).body.detail).toMatch(/timed out/);
    const third = await get('/api/v1/developer/refsource/5003');
    expect(third.status).toBe(502);
    expect(third.body.detail).toMatch(/marked down after repeated failures/);
    expect(upstream.calls.map((c) => c.path)).toEqual(['/products/5001', '/products/5002']);
  });
});

describe('many distinct ids at once', () => {
  const ids = Array.from({ length: 24 }, (_, i) => String(6000 + i));

  it('never opens more upstream connections than the cap; a slow upstream answers every queued call in turn', async () => {
    behaviour = 200;
    upstream.delayMs = 50;
    await serve({ deadlineMs: 3_000, maxConnections: 4 });
    const answers = await Promise.all(ids.map((id) => get(`/api/v1/developer/refsource/${id}`)));
    // The upstream knows them all, the catalog none: 400 for each, after a real upstream answer.
    expect(answers.map((a) => a.status)).toEqual(ids.map(() => 400));
    expect(upstream.calls).toHaveLength(ids.length);
    expect(upstream.maxInFlight).toBe(4);
  });

  it('answers every request by the deadline when the upstream hangs: the calls waiting for a connection fail with it', async () => {
    behaviour = 'hang';
    await serve({ deadlineMs: 400, maxConnections: 4, failureThreshold: 1_000 });
    // A call the deadline did not end would hang, and the test's timeout would fail it.
    const answers = await Promise.all([...ids, '1001'].map((id) => get(`/api/v1/developer/refsource/${id}`)));
    expect(answers.slice(0, -1).map((a) => a.status)).toEqual(ids.map(() => 502));
    expect(answers.at(-1)!.status).toBe(200);
    expect(upstream.maxInFlight).toBeLessThanOrEqual(4);
  });
});
