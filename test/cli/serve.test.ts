/**
 * A real `oracle serve` process (the built CLI): its configuration, its start-up lines, and
 * the readiness route as an operator's probe sees them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli as oracle, spawnServe, tempDir } from '../_setup.js';
import { fakeUpstream, seedDatabase, type FakeUpstream } from '../http/_helpers.js';

describe('oracle serve', () => {
  const db = `${tempDir('oracle-serve-')}/serve.db`;
  let upstream: FakeUpstream;
  beforeAll(async () => {
    await seedDatabase(db, Date.now());
    upstream = await fakeUpstream();
  });
  afterAll(async () => {
    await upstream.close();
  });

  it('listens on a free port, serves keys from ORACLE_API_KEYS, logs JSON lines, and exits 0 on SIGTERM', async () => {
    const server = spawnServe(['--db', db, 'serve'], { ORACLE_API_KEYS: 'ork_env-one, ork_env-two' });
    const url = await server.url;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await fetch(`${url}/api/v1/health`)).status).toBe(200);
    const res = await fetch(`${url}/api/v1/developer/catalog`, { headers: { authorization: 'Bearer ork_env-two' } });
    expect(res.status).toBe(200);
    // No upstream configured and not offline: 503.
    expect((await fetch(`${url}/api/v1/developer/refsource/1001`, { headers: { 'x-api-key': 'ork_env-one' } })).status).toBe(503);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    const lines = server.stdout.map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.status, l.key_id])).toEqual([
      [200, null],
      [200, 'env-2'],
      [503, 'env-1'],
    ]);
    expect(server.stdout.join('\n')).not.toContain('ork_env');
  });

  it('with --offline resolves ids from the local catalog and never calls the configured upstream', async () => {
    const server = spawnServe(['--db', db, 'serve', '--offline'], { ORACLE_API_KEYS: 'k', ORACLE_REFSOURCE_URL: upstream.template });
    const url = await server.url;
    const headers = { 'x-api-key': 'k' };
    expect((await fetch(`${url}/api/v1/developer/refsource/1001`, { headers })).status).toBe(200);
    expect((await fetch(`${url}/api/v1/developer/refsource/31337`, { headers })).status).toBe(400);
    expect(upstream.calls).toEqual([]);
    server.child.kill('SIGINT');
    expect(await server.exited).toBe(0);
  });

  it('exits 2 naming the option for a bad --port or --refsource-url', async () => {
    const port = await oracle(['--db', db, 'serve', '--port', '99999']);
    expect(port.code).toBe(2);
    expect(port.stderr).toMatch(/^oracle: --port \(ORACLE_PORT\) must be an integer from 0 to 65535/);
    const url = await oracle(['--db', db, 'serve', '--refsource-url', 'http://x.example/products']);
    expect(url.code).toBe(2);
    expect(url.stderr).toMatch(/--refsource-url.*\{id\}/);
  });
});
