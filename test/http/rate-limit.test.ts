// @module-tag sqlite-only: the limiter alone: no store
/**
 * The rate limiter's two implementations, the bucket in this process and the bucket in a
 * real Redis, against one suite (as hono runs one router suite against every router); then
 * what only the shared one does: replicas, skewed clocks, a script cache flushed, Redis
 * stopped and hung mid-test.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRateLimiter, type RateDecision, type RateLimiter } from '../../src/http/rate-limit.js';
import {
  createRedisRateLimiter,
  REDIS_COMMAND_TIMEOUT_MS,
  REDIS_RETRY_MS,
  redisLocation,
  type RedisRateLimiter,
} from '../../src/http/redis-rate-limit.js';
import {
  describeWithRedis,
  REDIS_URL,
  redisDatabase,
  startPrivateRedis,
  type PrivateRedis,
} from '../_redis.js';

const DB = 1;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Implementation {
  name: string;
  available: boolean;
  make(limitPerMinute: number): Promise<RateLimiter>;
}

const opened: RedisRateLimiter[] = [];
afterAll(async () => {
  await Promise.all(opened.splice(0).map((limiter) => limiter.close()));
});

/**
 * A connected limiter. Its command timeout is longer than the server's: a busy test machine
 * can stall Redis past 250 ms, and a fallback would change the exact counts asserted here;
 * the test of a hung Redis passes the server's.
 */
async function redisLimiter(
  url: string,
  limitPerMinute: number,
  log: string[] = [],
  commandTimeoutMs = 2_000,
): Promise<RedisRateLimiter> {
  const limiter = createRedisRateLimiter({
    url,
    limitPerMinute,
    log: (line) => log.push(line),
    commandTimeoutMs,
  });
  opened.push(limiter);
  await limiter.connect();
  return limiter;
}

const implementations: Implementation[] = [
  { name: 'in-process', available: true, make: async (limit) => createRateLimiter(limit) },
  {
    name: 'Redis',
    available: REDIS_URL !== null,
    make: (limit) => redisLimiter(redisDatabase(DB), limit),
  },
];

/** `n` takes one after another for `key`, at the real time (the Redis bucket reads Redis's clock anyway). */
async function takeMany(limiter: RateLimiter, key: string, n: number): Promise<RateDecision[]> {
  const decisions: RateDecision[] = [];
  for (let i = 0; i < n; i++) decisions.push(await limiter.take(key, Date.now()));
  return decisions;
}

describe('token bucket (in-process, on a given clock)', () => {
  it('allows a burst of the limit, then one token per 60/limit seconds', async () => {
    const limiter = createRateLimiter(60);
    for (let i = 0; i < 60; i++) expect((await limiter.take('a', 1_000)).allowed).toBe(true);
    const denied = await limiter.take('a', 1_000);
    expect(denied).toMatchObject({ allowed: false, remaining: 0, retryAfterSeconds: 1, resetSeconds: 60 });
    expect((await limiter.take('a', 2_000)).allowed).toBe(true);
    expect((await limiter.take('a', 2_000)).allowed).toBe(false);
    expect(await limiter.take('b', 2_000)).toMatchObject({ allowed: true, remaining: 59 });
  });
});

for (const impl of implementations) {
  (impl.available ? describe : describe.skip)(`token bucket (${impl.name})`, () => {
    it('allows a burst of the limit with Remaining counting down and Reset growing by 60/limit s, then denies with Retry-After', async () => {
      const limiter = await impl.make(5);
      const decisions = await takeMany(limiter, randomUUID(), 7);
      // Each token takes 60/5 = 12 s to come back; the bucket is full again 12 s per token taken.
      expect(decisions.slice(0, 5)).toEqual(
        [4, 3, 2, 1, 0].map((remaining, i) => ({
          allowed: true,
          limit: 5,
          remaining,
          resetSeconds: 12 * (i + 1),
          retryAfterSeconds: 0,
        })),
      );
      for (const denied of decisions.slice(5)) {
        expect(denied).toEqual({
          allowed: false,
          limit: 5,
          remaining: 0,
          resetSeconds: 60,
          retryAfterSeconds: 12,
        });
      }
    });

    it('keeps one bucket per key', async () => {
      const limiter = await impl.make(2);
      const [a, b] = [randomUUID(), randomUUID()];
      expect((await takeMany(limiter, a, 3)).map((d) => d.allowed)).toEqual([true, true, false]);
      expect((await takeMany(limiter, b, 1))[0]).toMatchObject({ allowed: true, remaining: 1 });
    });

    it('refills one token per 60/limit seconds', async () => {
      const limiter = await impl.make(60);
      const key = randomUUID();
      await takeMany(limiter, key, 60);
      expect((await limiter.take(key, Date.now())).allowed).toBe(false);
      await sleep(1_100);
      const [refilled, empty] = await takeMany(limiter, key, 2);
      expect(refilled).toMatchObject({ allowed: true, remaining: 0 });
      expect(empty).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
    });
  });
}

describe('Redis location in log lines', () => {
  it.each([
    ['redis://:s3cret@cache.internal:6379/0', 'redis://cache.internal:6379/0'],
    ['redis://oracle:s3cret@127.0.0.1:6380', 'redis://127.0.0.1:6380'],
  ])('shows %s as %s, never the password', (url, shown) => {
    expect(redisLocation(url)).toBe(shown);
  });
});

describeWithRedis('token bucket in Redis, shared', () => {
  let admin: Redis;
  beforeAll(() => {
    admin = new Redis(redisDatabase(DB));
  });
  afterAll(() => admin.disconnect());

  it('gives two replicas with clocks an hour apart exactly the limit together, under concurrent load', async () => {
    const [a, b] = [await redisLimiter(redisDatabase(DB), 10), await redisLimiter(redisDatabase(DB), 10)];
    const key = randomUUID();
    const now = Date.now();
    // Replica b's clock is an hour ahead: were its clock used, its takes would refill the bucket.
    const decisions = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 ? a.take(key, now) : b.take(key, now + 3_600_000))),
    );
    expect(decisions.filter((d) => d.allowed)).toHaveLength(10);
    expect(
      decisions
        .filter((d) => d.allowed)
        .map((d) => d.remaining)
        .sort((x, y) => x - y),
    ).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('keeps a bucket in Redis only until it would be full again', async () => {
    const limiter = await redisLimiter(redisDatabase(DB), 6);
    const key = randomUUID();
    await takeMany(limiter, key, 2);
    const ttl = await admin.pttl(`oracle:ratelimit:${key}`);
    // Two tokens taken at 6/min: full again in 20 s.
    expect(ttl).toBeGreaterThan(19_000);
    expect(ttl).toBeLessThanOrEqual(20_000);
  });

  it('loads the script again (EVAL) when Redis has forgotten it, and the bucket carries on', async () => {
    const limiter = await redisLimiter(redisDatabase(DB), 3);
    const key = randomUUID();
    await takeMany(limiter, key, 1);
    await admin.script('FLUSH');
    expect((await takeMany(limiter, key, 3)).map((d) => [d.allowed, d.remaining])).toEqual([
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
  });
});

describeWithRedis('token bucket in Redis, while Redis is down', () => {
  let redis: PrivateRedis;
  beforeAll(async () => {
    redis = await startPrivateRedis();
  });
  afterAll(async () => {
    await redis.stop();
  });

  it('falls back to a bucket per process with one log line, and shares again with one more once Redis is back', async () => {
    const log: string[] = [];
    const limiter = await redisLimiter(redis.url, 3, log);
    const key = randomUUID();
    expect((await takeMany(limiter, key, 2)).map((d) => d.remaining)).toEqual([2, 1]);

    await redis.stop();
    // The local bucket starts full: this process alone now allows the limit.
    expect((await takeMany(limiter, key, 4)).map((d) => d.allowed)).toEqual([true, true, true, false]);
    expect(log).toHaveLength(1);
    expect(JSON.parse(log[0]!)).toMatchObject({
      level: 'warn',
      message: expect.stringMatching(
        /^rate limit: Redis at redis:\/\/127\.0\.0\.1:\d+ unreachable \(.+\); each process limits on its own until it is back$/,
      ),
    });

    redis = await startPrivateRedis({ port: redis.port });
    await sleep(REDIS_RETRY_MS + 200);
    // The restarted Redis is empty: the shared bucket starts full again.
    expect((await takeMany(limiter, key, 1))[0]).toMatchObject({ allowed: true, remaining: 2 });
    expect(log).toHaveLength(2);
    expect(JSON.parse(log[1]!)).toMatchObject({
      level: 'info',
      message: expect.stringMatching(/is back; the limit is shared by every process again$/),
    });
  });

  it(
    'answers from the local bucket when Redis hangs, instead of waiting for it',
    { timeout: 5_000 },
    async () => {
      const log: string[] = [];
      const limiter = await redisLimiter(redis.url, 3, log, REDIS_COMMAND_TIMEOUT_MS);
      const key = randomUUID();
      await takeMany(limiter, key, 1);
      const pid = Number((await redisInfo(redis.url)).process_id);
      process.kill(pid, 'SIGSTOP');
      try {
        expect((await takeMany(limiter, key, 2)).map((d) => d.allowed)).toEqual([true, true]);
        expect(log.map((line) => JSON.parse(line).message)).toEqual([
          expect.stringMatching(/unreachable \(Command timed out\)/),
        ]);
      } finally {
        process.kill(pid, 'SIGCONT');
      }
    },
  );

  it('starts on a bucket per process, with the log line, when Redis is unreachable at start-up', async () => {
    const stopped = await startPrivateRedis();
    await stopped.stop();
    const log: string[] = [];
    const limiter = createRedisRateLimiter({
      url: stopped.url,
      limitPerMinute: 2,
      log: (line) => log.push(line),
    });
    opened.push(limiter);
    expect(await limiter.connect()).toBe(false);
    expect((await takeMany(limiter, randomUUID(), 3)).map((d) => d.allowed)).toEqual([true, true, false]);
    expect(log).toHaveLength(1);
    expect(JSON.parse(log[0]!).message).toMatch(/unreachable \(.*ECONNREFUSED.*\)/);
  });
});

async function redisInfo(url: string): Promise<Record<string, string>> {
  const client = new Redis(url);
  try {
    const text = await client.info('server');
    return Object.fromEntries(
      text
        .split('\r\n')
        .filter((line) => line.includes(':'))
        .map((line) => line.split(':', 2) as [string, string]),
    );
  } finally {
    client.disconnect();
  }
}
