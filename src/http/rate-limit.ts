/**
 * Rate limiting (CONTRACT.md decision 4): one token bucket per API key, shared by the
 * pricing, refsource and snapshot routes. A bucket holds `limit` tokens and refills at
 * `limit` per minute, so a key may burst up to the limit and then sustain limit/minute.
 *
 * Headers (draft-ietf-httpapi-ratelimit-headers): RateLimit-Limit is the bucket size,
 * RateLimit-Remaining the whole tokens left, RateLimit-Reset the seconds until the bucket
 * is full again; a 429 adds Retry-After, the seconds until the next token.
 *
 * Two implementations of one interface: the bucket in this process (below) and the bucket
 * in Redis shared by every replica (redis-rate-limit.ts); test/http/rate-limit.test.ts runs
 * one suite against both.
 */
export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  resetSeconds: number;
  /** Seconds until a request would be allowed; 0 when it is. */
  retryAfterSeconds: number;
}

export interface RateLimiter {
  /** Takes a token from the key's bucket if it has one. `nowMs` is the request's time; a shared bucket reads its store's clock instead. */
  take(keyId: string, nowMs: number): Promise<RateDecision>;
}

/** The decision and its headers' figures, from the tokens left after the take. */
export function rateDecision(limitPerMinute: number, tokens: number, allowed: boolean): RateDecision {
  const refillPerSecond = limitPerMinute / 60;
  return {
    allowed,
    limit: limitPerMinute,
    remaining: Math.floor(tokens),
    resetSeconds: Math.ceil((limitPerMinute - tokens) / refillPerSecond),
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((1 - tokens) / refillPerSecond)),
  };
}

interface Bucket {
  tokens: number;
  updatedAt: number;
}

/** Buckets are kept for keys that verified, so their number is bounded by the key count; this caps it anyway. */
const MAX_BUCKETS = 100_000;

/** The buckets in this process. */
export function createRateLimiter(limitPerMinute: number): RateLimiter {
  const refillPerMs = limitPerMinute / 60_000;
  const buckets = new Map<string, Bucket>();

  return {
    take(keyId, nowMs) {
      let bucket = buckets.get(keyId);
      if (bucket) {
        bucket.tokens = Math.min(
          limitPerMinute,
          bucket.tokens + Math.max(0, nowMs - bucket.updatedAt) * refillPerMs,
        );
        bucket.updatedAt = nowMs;
      } else {
        if (buckets.size >= MAX_BUCKETS) dropFullBuckets(buckets, limitPerMinute, refillPerMs, nowMs);
        bucket = { tokens: limitPerMinute, updatedAt: nowMs };
        buckets.set(keyId, bucket);
      }
      const allowed = bucket.tokens >= 1;
      if (allowed) bucket.tokens -= 1;
      return Promise.resolve(rateDecision(limitPerMinute, bucket.tokens, allowed));
    },
  };
}

/** A full bucket carries no state worth keeping: a new one would start full too. */
function dropFullBuckets(
  buckets: Map<string, Bucket>,
  limit: number,
  refillPerMs: number,
  nowMs: number,
): void {
  for (const [id, b] of buckets) {
    if (b.tokens + (nowMs - b.updatedAt) * refillPerMs >= limit) buckets.delete(id);
  }
  // Every bucket is busy: forget the oldest rather than grow without bound.
  if (buckets.size >= MAX_BUCKETS) buckets.delete(buckets.keys().next().value as string);
}
