/**
 * `oracle keys create | list | revoke`, in process (test/_cli.ts); the default database of
 * the working directory in a process of its own.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { newTestDatabase } from '../_pg.js';
import { runOracle as oracle } from '../_cli.js';
import { runCli, tempDir } from '../_setup.js';
import { selectRows } from '../_store.js';

describe('oracle keys', () => {
  const dir = tempDir('oracle-keys-');
  let db: string;
  beforeAll(async () => {
    db = await newTestDatabase(dir);
    // Keys go into a database that exists: the one `oracle ingest` made.
    writeFileSync(join(dir, 'catalog.csv'), 'product_key,product_name\ncharizard-4,Charizard\n');
    expect((await oracle(['--db', db, 'ingest', join(dir, 'catalog.csv')])).code).toBe(0);
  });

  it.each([['create', '--label', 'x'], ['list'], ['revoke', 'key_0123456789ab']])(
    'keys %s in a directory without the database exits 1 naming its absolute path, and creates no file',
    async (...args) => {
      const empty = tempDir('oracle-keys-empty-');
      // Outside a project folder the default is the user's database (db-location.ts): here, under `empty`.
      const result = await runCli(['keys', ...args], {
        cwd: empty,
        env: { XDG_DATA_HOME: join(empty, 'data') },
      });
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(
        `oracle: database ${join(empty, 'data', 'oracle', 'oracle.db')} does not exist: load data with 'oracle ingest' (or the sample with 'oracle demo') first, or name your database with --db <path> (or ORACLE_DB)\n`,
      );
      expect(readdirSync(empty)).toEqual([]);
      expect(existsSync(join(empty, 'oracle.db'))).toBe(false);
    },
  );

  it('creates a key, prints it once on stdout, and stores only its SHA-256', async () => {
    const { code, stdout, stderr } = await oracle([
      '--db',
      db,
      'keys',
      'create',
      '--label',
      'acme integration',
    ]);
    expect(code).toBe(0);
    const key = stdout.trim();
    // 32 random bytes, base64url: 256 bits.
    expect(key).toMatch(/^ork_[A-Za-z0-9_-]{43}$/);
    expect(stderr).toMatch(/created API key key_[0-9a-f]{12} \("acme integration"\).*only this once/);
    // The table as stored, read past the store: the key's SHA-256 (hex), and the key nowhere.
    const rows = await selectRows<{ label: string; secret_hash: string }>(db, 'SELECT * FROM api_keys');
    expect(rows).toEqual([
      expect.objectContaining({
        label: 'acme integration',
        secret_hash: createHash('sha256').update(key).digest('hex'),
      }),
    ]);
    expect(JSON.stringify(rows)).not.toContain(key.slice(4));
    const second = (await oracle(['--db', db, 'keys', 'create', '--label', 'other'])).stdout.trim();
    expect(second).not.toBe(key);
  });

  it('lists id, label, created, last used and revoked, as a table or JSON, without secrets', async () => {
    const table = await oracle(['--db', db, 'keys', 'list']);
    expect(table.code).toBe(0);
    // No key is revoked yet: the column is left out (it comes with the first revocation).
    expect(table.stdout).toMatch(/^id +label +created +last used\n/);
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
    const table = (await oracle(['--db', db, 'keys', 'list'], { env: { COLUMNS: '120' } })).stdout;
    expect(table).toMatch(/^id +label +created +last used +revoked\n/);
    expect(table).toContain(`${first.id}  acme integration`);
    expect(table).toContain(after.revoked_at);
    const again = await oracle(['--db', db, 'keys', 'revoke', first.id]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/^oracle: no active API key has id/);
  });

  it.each([
    ['  ', ''],
    ['x'.repeat(101), ''],
    ['tab\there', ' (U+0009 is a control or format character)'],
    ['bell\u0007', ' (U+0007 is a control or format character)'],
  ])('rejects the label %j with exit 2, storing nothing', async (label, named) => {
    const before = await selectRows(db, 'SELECT id FROM api_keys');
    const { code, stdout, stderr } = await oracle(['--db', db, 'keys', 'create', '--label', label]);
    expect({ code, stdout, stderr }).toEqual({
      code: 2,
      stdout: '',
      stderr: `oracle: --label must be 1 to 100 characters without control characters${named}\n`,
    });
    expect(await selectRows(db, 'SELECT id FROM api_keys')).toEqual(before);
  });

  it('stores the label trimmed', async () => {
    const { code, stderr } = await oracle(['--db', db, 'keys', 'create', '--label', '  padded  ']);
    expect(code).toBe(0);
    const id = /(key_[0-9a-f]+)/.exec(stderr)![1]!;
    expect(await selectRows(db, `SELECT label FROM api_keys WHERE id = '${id}'`)).toEqual([
      { label: 'padded' },
    ]);
  });
});
