/**
 * `oracle serve --redis`: two real `oracle serve` processes on one database (a SQLite file, or
 * PostgreSQL in the vitest project `postgres`: the scaled set-up of docs/deploy.md) sharing one
 * rate limit through a real Redis, that Redis stopped and started again under them, and the
 * option's validation. The limiter keeps nothing in the database: on PostgreSQL only the
 * shared burst runs, the scaled set-up's smoke test.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runOracle } from '../_cli.js';
import { TEST_STORE } from '../_pg.js';
import { spawnServe, tempDir, type ServeProcess } from '../_setup.js';
import { describeWithRedis, redisDatabase, startPrivateRedis } from '../_redis.js';
import { PRODUCTS, pricingPath, seededTestDatabase, STORED_KEY } from '../http/_helpers.js';

/** A Redis database of this file's own in each project: both runs count the same key ids, at the same time. */
const DB = TEST_STORE === 'postgres' ? 3 : 2;
const PATH = pricingPath(PRODUCTS.plain.productKey);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Answer {
  status: number;
  limit: string | null;
  remaining: string | null;
  reset: string | null;
  retryAfter: string | null;
}

async function get(url: string): Promise<Answer> {
  const res = await fetch(url + PATH, { headers: { 'x-api-key': STORED_KEY } });
  await res.arrayBuffer();
  const h = res.headers;
  return {
    status: res.status,
    limit: h.get('ratelimit-limit'),
    remaining: h.get('ratelimit-remaining'),
    reset: h.get('ratelimit-reset'),
    retryAfter: h.get('retry-after'),
  };
}

/** One request after another to `url`. */
async function getMany(url: string, n: number): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (let i = 0; i < n; i++) answers.push(await get(url));
  return answers;
}

const lines = (server: ServeProcess, pattern: RegExp) => server.stderr.filter((line) => pattern.test(line));

describeWithRedis('oracle serve replicas sharing --redis', () => {
  let db: string;
  const running: ServeProcess[] = [];
  beforeAll(async () => {
    db = await seededTestDatabase(Date.now());
  });
  afterEach(async () => {
    for (const server of running.splice(0)) {
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    }
  });

  /** `oracle serve` on the shared database with a limit of `limit`, Redis from the flag or (`viaEnv`) ORACLE_REDIS_URL. */
  function replica(redisUrl: string, limit: number, viaEnv = false): ServeProcess {
    const args = [
      '--db',
      db,
      'serve',
      '--rate-limit',
      String(limit),
      ...(viaEnv ? [] : ['--redis', redisUrl]),
    ];
    const server = spawnServe(args, viaEnv ? { ORACLE_REDIS_URL: redisUrl } : {});
    running.push(server);
    return server;
  }

  it('gives one burst spread over two replicas exactly the limit, with the RateLimit headers counting across both', async () => {
    const url = redisDatabase(DB);
    const LIMIT = 4;
    // 4 a minute: a token comes back every 15 s, so a burst slowed by a loaded machine still
    // ends long before one refills (at 10 a minute, one came back every 6 s).
    const [a, b] = [replica(url, LIMIT), replica(url, LIMIT, true)];
    const urls = await Promise.all([a.url, b.url]);
    for (const server of [a, b])
      expect(
        lines(
          server,
          new RegExp(
            `^rate limit: ${LIMIT}/min per key, shared through Redis at redis://127\\.0\\.0\\.1:\\d+/${DB}$`,
          ),
        ),
      ).toHaveLength(1);

    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => get(urls[i % 2]!)));
    // First: a replica that took Redis for down (no answer within its command timeout) limited alone.
    expect([...a.stderr, ...b.stderr].join('\n')).not.toMatch(/unreachable|"level":"error"/);
    const allowed = answers.filter((answer) => answer.status === 200);
    const limited = answers.filter((answer) => answer.status === 429);
    expect([allowed.length, limited.length]).toEqual([LIMIT, 30 - LIMIT]);
    // Each replica got 15 of the 30: at most LIMIT could pass, so both refused the rest of theirs.
    for (const side of [0, 1])
      expect(
        answers.filter((answer, i) => i % 2 === side && answer.status === 429).length,
      ).toBeGreaterThanOrEqual(15 - LIMIT);
    expect(allowed.map((answer) => Number(answer.remaining)).sort((x, y) => x - y)).toEqual(
      Array.from({ length: LIMIT }, (_, i) => i),
    );
    for (const answer of answers) expect(answer.limit).toBe(String(LIMIT));
    const refill = 60 / LIMIT;
    for (const answer of allowed) {
      // Full again `refill` s per token taken, less what refilled since the burst began (under a second's worth).
      const taken = LIMIT - Number(answer.remaining);
      expect(Number(answer.reset)).toBeGreaterThanOrEqual(refill * taken - 1);
      expect(Number(answer.reset)).toBeLessThanOrEqual(refill * taken);
    }
    for (const answer of limited) {
      expect(answer.remaining).toBe('0');
      expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(Number(answer.retryAfter)).toBeLessThanOrEqual(refill);
    }
  });

  it.skipIf(TEST_STORE === 'postgres')(
    'limits per replica while Redis is down, never with a 5xx, says so once, and shares again once it is back',
    async () => {
      let redis = await startPrivateRedis();
      try {
        const [a, b] = [replica(redis.url, 4), replica(redis.url, 4)];
        const [urlA, urlB] = await Promise.all([a.url, b.url]);
        expect((await getMany(urlA, 2)).map((answer) => answer.remaining)).toEqual(['3', '2']);
        expect((await getMany(urlB, 3)).map((answer) => [answer.status, answer.remaining])).toEqual([
          [200, '1'],
          [200, '0'],
          [429, '0'],
        ]);

        await redis.stop();
        // Each replica's own bucket starts full: 4 each, then 429; nothing else.
        for (const url of [urlA, urlB])
          expect((await getMany(url, 6)).map((answer) => answer.status)).toEqual([
            200, 200, 200, 200, 429, 429,
          ]);
        for (const server of [a, b]) {
          const down = lines(server, /unreachable/);
          expect(down).toHaveLength(1);
          expect(JSON.parse(down[0]!)).toMatchObject({
            level: 'warn',
            message: expect.stringMatching(
              /^rate limit: Redis at redis:\/\/127\.0\.0\.1:\d+ unreachable \(.+\); each process limits on its own until it is back$/,
            ),
          });
        }

        redis = await startPrivateRedis({ port: redis.port });
        // The restarted Redis is empty, so the shared bucket starts full: the replicas' first shared
        // answers leave 3 and 2. Until a replica tries Redis again its own bucket (empty) answers 429.
        const firstShared = async (server: ServeProcess, url: string) => {
          for (let tries = 0; tries < 20; tries++) {
            const answer = await get(url);
            if (lines(server, /is back;/).length > 0) return answer;
            expect(answer.status).toBe(429);
            await sleep(200);
          }
          throw new Error('the replica never went back to Redis');
        };
        const shared = await Promise.all([firstShared(a, urlA), firstShared(b, urlB)]);
        expect(shared.map((answer) => [answer.status, answer.remaining]).sort()).toEqual([
          [200, '2'],
          [200, '3'],
        ]);
        for (const server of [a, b]) {
          expect(lines(server, /is back;/)).toEqual([
            expect.stringMatching(/"level":"info".*is back; the limit is shared by every process again/),
          ]);
          expect(
            server.stdout.map((line) => JSON.parse(line).status).filter((status: number) => status >= 500),
          ).toEqual([]);
        }
      } finally {
        await redis.stop();
      }
    },
  );

  it.skipIf(TEST_STORE === 'postgres')(
    'starts with a warning when Redis is unreachable, and limits in the process',
    async () => {
      const gone = await startPrivateRedis();
      await gone.stop();
      const server = replica(gone.url, 2);
      const url = await server.url;
      expect(lines(server, /unreachable/)).toEqual([
        expect.stringMatching(
          /unreachable \(.*ECONNREFUSED.*\); each process limits on its own until it is back/,
        ),
      ]);
      expect((await getMany(url, 3)).map((answer) => [answer.status, answer.remaining])).toEqual([
        [200, '1'],
        [200, '0'],
        [429, '0'],
      ]);
    },
  );
});

describe.skipIf(TEST_STORE === 'postgres')('oracle serve --redis, validation', () => {
  it.each([['http://127.0.0.1:6379'], ['redis://127.0.0.1:6379/cache']])(
    'refuses --redis %s with exit 2 naming the option',
    async (url) => {
      const { code, stderr } = await runOracle([
        '--db',
        `${tempDir()}/x.db`,
        'serve',
        '--redis',
        url,
        '--port',
        '0',
      ]);
      expect(code).toBe(2);
      expect(stderr).toMatch(/^oracle: --redis \(ORACLE_REDIS_URL\) must /);
    },
  );

  it('reads ORACLE_REDIS_URL, and refuses a bad one the same way', async () => {
    const { code, stderr } = await runOracle(['--db', `${tempDir()}/x.db`, 'serve', '--port', '0'], {
      env: { ORACLE_REDIS_URL: 'not a url' },
    });
    expect(code).toBe(2);
    expect(stderr).toMatch(/^oracle: --redis \(ORACLE_REDIS_URL\) must be a redis:\/\/ URL/);
  });
});
