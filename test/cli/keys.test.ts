/**
 * `oracle keys create | list | revoke` and a real `oracle serve` process: the built CLI
 * (dist/, made by `npm test`'s build step) spawned for real.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/store.js';
import { BIN, childEnv, runCli as oracle, tempDir } from '../_setup.js';
import { fakeUpstream, seedDatabase, type FakeUpstream } from '../http/_helpers.js';

describe('oracle keys', () => {
  const dir = tempDir('oracle-keys-');
  const db = `${dir}/keys.db`;
  beforeAll(async () => {
    // Keys go into a database that exists: the one `oracle ingest` made.
    writeFileSync(join(dir, 'catalog.csv'), 'product_key,product_name\ncharizard-4,Charizard\n');
    expect((await oracle(['--db', db, 'ingest', join(dir, 'catalog.csv')])).code).toBe(0);
  });

  it.each([
    ['create', '--label', 'x'],
    ['list'],
    ['revoke', 'key_0123456789ab'],
  ])('keys %s in a directory without the database exits 1 naming its absolute path, and creates no file', async (...args) => {
    const empty = tempDir('oracle-keys-empty-');
    const result = await oracle(['keys', ...args], { cwd: empty });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `oracle: database ${join(empty, 'oracle.db')} does not exist: load data with 'oracle ingest' first, or name your database with --db <path> (or ORACLE_DB)\n`,
    );
    expect(readdirSync(empty)).toEqual([]);
    expect(existsSync(join(empty, 'oracle.db'))).toBe(false);
  });

  it('creates a key, prints it once on stdout, and stores only its SHA-256', async () => {
    const { code, stdout, stderr } = await oracle(['--db', db, 'keys', 'create', '--label', 'acme integration']);
    expect(code).toBe(0);
    const key = stdout.trim();
    // 32 random bytes, base64url: 256 bits.
    expect(key).toMatch(/^ork_[A-Za-z0-9_-]{43}$/);
    expect(stderr).toMatch(/created API key key_[0-9a-f]{12} \("acme integration"\).*only this once/);
    const store = await openStore(db);
    const dump = JSON.stringify(store.apiKeys.list());
    store.close();
    expect(dump).not.toContain(key);
    const second = (await oracle(['--db', db, 'keys', 'create', '--label', 'other'])).stdout.trim();
    expect(second).not.toBe(key);
  });

  it('lists id, label, created, last used and revoked, as a table or JSON, without secrets', async () => {
    const table = await oracle(['--db', db, 'keys', 'list']);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/id.*label.*created.*last used.*revoked/);
    expect(table.stdout).toContain('acme integration');
    const json = JSON.parse((await oracle(['--db', db, 'keys', 'list', '--json'])).stdout);
    expect(json[0]).toEqual({
      id: expect.stringMatching(/^key_/),
      label: 'acme integration',
      created_at: expect.stringMatching(/Z$/),
      last_used_at: null,
      revoked_at: null,
    });
  });

  it('revokes a key by id, and exits 2 for an id with no active key', async () => {
    const [first] = JSON.parse((await oracle(['--db', db, 'keys', 'list', '--json'])).stdout);
    expect((await oracle(['--db', db, 'keys', 'revoke', first.id])).code).toBe(0);
    const [after] = JSON.parse((await oracle(['--db', db, 'keys', 'list', '--json'])).stdout);
    expect(after.revoked_at).toMatch(/Z$/);
    const again = await oracle(['--db', db, 'keys', 'revoke', first.id]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/^oracle: no active API key has id/);
  });

  it('rejects an empty label with exit 2', async () => {
    const { code, stderr } = await oracle(['--db', db, 'keys', 'create', '--label', '  ']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/--label/);
  });
});

/** Starts `oracle serve --port 0`, resolves with its URL from the listening line. */
function serve(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [BIN, ...args, '--port', '0'], {
    env: childEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stdout: string[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => stdout.push(line));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stderr! }).on('line', (line) => {
      const match = /^listening on (http:\/\/\S+)$/.exec(line);
      if (match) resolve(match[1]!);
    });
    child.on('exit', () => reject(new Error('serve exited before listening')));
  });
  return { child, url, exited, stdout };
}

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
    const server = serve(['--db', db, 'serve'], { ORACLE_API_KEYS: 'ork_env-one, ork_env-two' });
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
    const server = serve(['--db', db, 'serve', '--offline'], { ORACLE_API_KEYS: 'k', ORACLE_REFSOURCE_URL: upstream.template });
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
