/**
 * The real Redis of the rate-limit tests (vitest globalSetup). It is the one named by
 * ORACLE_TEST_REDIS_URL when `node scripts/test-services.js npm test` (.ci/run) started it;
 * otherwise one started here by the same script's code and stopped after the run. Without
 * redis-server the Redis tests are skipped with one line saying how to install it, except
 * in CI (CI=true), where that fails the run.
 */
import type { TestProject } from 'vitest/node';
import { findRedisServer, REDIS_INSTALL_HINT, startRedis } from '../scripts/test-services.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** redis://127.0.0.1:<port>, or null when the Redis tests are skipped. */
    redisUrl: string | null;
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const given = process.env.ORACLE_TEST_REDIS_URL;
  if (given) {
    project.provide('redisUrl', given);
    return undefined;
  }
  if (!findRedisServer()) {
    if (process.env.CI)
      throw new Error(
        `redis-server not found: CI runs the Redis tests; install it with: ${REDIS_INSTALL_HINT}`,
      );
    process.stdout.write(
      `Redis tests skipped: redis-server not found (install it with: ${REDIS_INSTALL_HINT})\n`,
    );
    project.provide('redisUrl', null);
    return undefined;
  }
  const redis = await startRedis();
  project.provide('redisUrl', redis.url);
  return () => redis.stop();
}
