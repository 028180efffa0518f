/**
 * Redis in the tests: the run's shared server (test/redis-setup.ts), one numbered database
 * per test file so files running side by side never share a bucket, and private servers for
 * tests that stop theirs.
 */
import { describe, inject } from 'vitest';
import { startRedis } from '../scripts/test-services.js';

export const REDIS_URL = inject('redisUrl');

/** `describe`, or `describe.skip` when there is no redis-server (the run printed how to install it). */
export const describeWithRedis = REDIS_URL ? describe : describe.skip;

/** The shared server's database `db` (0-15): give each test file its own. */
export function redisDatabase(db: number): string {
  if (!REDIS_URL) throw new Error('no Redis in this run: wrap the test in describeWithRedis');
  return `${REDIS_URL}/${db}`;
}

export interface PrivateRedis {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/** A Redis of the test's own, to stop and start again on the same port. */
export const startPrivateRedis: (options?: { port?: number }) => Promise<PrivateRedis> = startRedis;
