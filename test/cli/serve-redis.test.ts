/**
 * `oracle serve --redis`: real `oracle serve` processes sharing one rate limit through a real
 * Redis; the option's validation.
 */
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../_setup.js';

describe('oracle serve --redis', () => {
  it.each([
    ['--redis', 'http://127.0.0.1:6379'],
    ['--redis', 'redis://127.0.0.1:6379/cache'],
  ])('refuses %s %s with exit 2 naming the option', async (flag, url) => {
    const { code, stderr } = await runCli(['--db', `${tempDir()}/x.db`, 'serve', flag, url, '--port', '0']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^oracle: --redis \(ORACLE_REDIS_URL\) must /);
  });

  it('reads ORACLE_REDIS_URL, and refuses a bad one the same way', async () => {
    const { code, stderr } = await runCli(['--db', `${tempDir()}/x.db`, 'serve', '--port', '0'], { env: { ORACLE_REDIS_URL: 'not a url' } });
    expect(code).toBe(2);
    expect(stderr).toMatch(/^oracle: --redis \(ORACLE_REDIS_URL\) must be a redis:\/\/ URL/);
  });
});
