/**
 * The rate limit's token buckets in Redis, shared by every `oracle serve` replica given the
 * same `--redis`: N replicas together allow the configured rate per key, not N times it.
 *
 * One round trip per request: a Lua script (EVALSHA, EVAL when Redis answers NOSCRIPT, as
 * after a restart or SCRIPT FLUSH) refills and takes from the bucket atomically. It reads
 * the time with Redis's TIME, so replicas whose clocks disagree still share one bucket
 * timeline. A bucket's key expires when it would be full again: a full bucket and no bucket
 * are the same state.
 *
 * Redis down (README "Rate limit"): the limit fails open to a bucket in this process, so
 * each replica limits on its own; never a 5xx, never a hang. A command that has no answer
 * within REDIS_COMMAND_TIMEOUT_MS counts as Redis down (ioredis's commandTimeout, which
 * covers the reply, not only the write). While it is down, a circuit breaker
 * lets one request a second try Redis again; the others use the local bucket at once. One
 * line is logged when Redis goes away and one when it is back.
 */
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { CircuitBreaker } from '../upstream/circuit-breaker.js';
import { createRateLimiter, rateDecision, type RateLimiter } from './rate-limit.js';

/** Far above a healthy Redis's answer time on a local network, yet short enough that a client barely notices; past it Redis is taken for down. */
export const REDIS_COMMAND_TIMEOUT_MS = 250;
/** Longest wait for a TCP connection to Redis (at start-up and on each reconnect). */
export const REDIS_CONNECT_TIMEOUT_MS = 1_000;
/** While Redis is down, one request per this period tries it again. */
export const REDIS_RETRY_MS = 1_000;

const KEY_PREFIX = 'oracle:ratelimit:';

/**
 * KEYS[1]: the bucket (a hash of tokens and the ms of the last update); ARGV[1]: the limit
 * per minute, which is also the bucket's size. Returns {1 if allowed else 0, tokens left}
 * with the tokens as a string: Redis would truncate a Lua number to an integer.
 */
const TAKE_SCRIPT = `
local limit = tonumber(ARGV[1])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local per_ms = limit / 60000
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1])
if tokens == nil then
  tokens = limit
else
  tokens = math.min(limit, tokens + math.max(0, now - tonumber(state[2])) * per_ms)
end
local allowed = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
end
local text = string.format('%.17g', tokens)
redis.call('HSET', KEYS[1], 'tokens', text, 'at', now)
redis.call('PEXPIRE', KEYS[1], math.max(1, math.ceil((limit - tokens) / per_ms)))
return {allowed, text}
`;
const TAKE_SHA1 = createHash('sha1').update(TAKE_SCRIPT).digest('hex');

export interface RedisRateLimiterOptions {
  /** redis://[user:password@]host:port[/db]. */
  url: string;
  limitPerMinute: number;
  /** Where the Redis down / back lines go (one line each, newline included). */
  log: (line: string) => void;
  commandTimeoutMs?: number;
}

export interface RedisRateLimiter extends RateLimiter {
  /** Connects; resolves false (after logging the down line) when Redis cannot be reached: the limit then starts per process. */
  connect(): Promise<boolean>;
  close(): Promise<void>;
}

/** The URL without its credentials, for log lines. */
export function redisLocation(url: string): string {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}${parsed.pathname.length > 1 ? parsed.pathname : ''}`;
}

export function createRedisRateLimiter(options: RedisRateLimiterOptions): RedisRateLimiter {
  const { limitPerMinute } = options;
  const timeoutMs = options.commandTimeoutMs ?? REDIS_COMMAND_TIMEOUT_MS;
  const where = redisLocation(options.url);
  const client = new Redis(options.url, {
    lazyConnect: true,
    connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
    commandTimeout: timeoutMs,
    // A command while Redis is away fails at once (and the local bucket answers) instead of
    // waiting in a queue or being sent again after a reconnect.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    retryStrategy: (retries) => Math.min(50 * 2 ** retries, REDIS_RETRY_MS),
    // How long close() waits for a socket to end before destroying it; a socket that never
    // connected never ends, and would hold the process open that long at shutdown.
    disconnectTimeout: timeoutMs,
  });
  // Every failed reconnect emits one; the breaker's transitions below are what gets logged,
  // with the socket's last error as the reason where the command's own says only "closed".
  let socketError: Error | undefined;
  client.on('error', (error: Error) => (socketError = error));
  client.on('ready', () => (socketError = undefined));
  const local = createRateLimiter(limitPerMinute);
  const breaker = new CircuitBreaker({ failureThreshold: 1, coolDownMs: REDIS_RETRY_MS });
  const limitArg = String(limitPerMinute);
  let down = false;

  const log = (level: 'warn' | 'info', message: string) =>
    options.log(
      `${JSON.stringify({ time: new Date().toISOString(), level, event: 'rate_limit_redis', message })}\n`,
    );

  function wentDown(error: unknown): void {
    breaker.failure();
    if (down) return;
    down = true;
    const reason =
      socketError?.message ??
      (client.status !== 'ready'
        ? 'connection closed'
        : error instanceof Error
          ? error.message
          : String(error));
    log(
      'warn',
      `rate limit: Redis at ${where} unreachable (${reason}); each process limits on its own until it is back`,
    );
  }

  function cameBack(): void {
    breaker.success();
    if (!down) return;
    down = false;
    log('info', `rate limit: Redis at ${where} is back; the limit is shared by every process again`);
  }

  function evaluate(keyId: string): Promise<[number, string]> {
    const key = KEY_PREFIX + keyId;
    const reply = client.evalsha(TAKE_SHA1, 1, key, limitArg).catch((error: unknown) => {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return client.eval(TAKE_SCRIPT, 1, key, limitArg);
    });
    return reply as Promise<[number, string]>;
  }

  return {
    take(keyId, nowMs) {
      if (!breaker.tryAcquire()) return local.take(keyId, nowMs);
      return evaluate(keyId).then(
        ([allowed, tokens]) => {
          cameBack();
          return rateDecision(limitPerMinute, Number(tokens), allowed === 1);
        },
        (error: unknown) => {
          wentDown(error);
          return local.take(keyId, nowMs);
        },
      );
    },

    async connect() {
      try {
        // Rejects on the first failed attempt; the client keeps reconnecting in the background.
        await client.connect();
        return true;
      } catch (error) {
        wentDown(error);
        return false;
      }
    },

    async close() {
      client.disconnect();
    },
  };
}
