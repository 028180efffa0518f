// @module-tag sqlite-only: SQLite's connection opener
/**
 * Which files a connection may write a schema into: only a caller that asks to create a
 * database does; every other open refuses a missing, empty or foreign file and leaves it as it was.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { DatabaseUnavailableError } from '../../src/domain/errors.js';
import { openStore } from '../../src/store/open-store.js';
import { tempDir } from '../_setup.js';

const dir = tempDir('oracle-connection-');

describe('opening a database file', () => {
  it('refuses a missing file without creating it, unless asked to create', async () => {
    const path = `${dir}/missing.db`;
    await expect(openStore(path)).rejects.toThrow(
      /does not exist: load data with 'oracle ingest' \(or the sample with 'oracle demo'\) first/,
    );
    expect(existsSync(path)).toBe(false);
    await (await openStore(path, { create: true })).close();
    const opened = await openStore(path);
    expect(await opened.inventory()).toEqual({ products: 0, observations: 0, activeKeys: 0 });
    await opened.close();
  });

  it.each([{}, { readonly: true }])(
    'refuses an empty (0-byte) file and leaves it empty (%o)',
    async (options) => {
      const path = `${dir}/empty-${Object.keys(options).join('')}.db`;
      writeFileSync(path, '');
      const error = await openStore(path, options).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DatabaseUnavailableError);
      expect((error as DatabaseUnavailableError).reason).toBe('the database file is empty');
      expect(statSync(path).size).toBe(0);
    },
  );

  it("refuses another program's SQLite file and a file that is not SQLite, unchanged", async () => {
    const foreign = `${dir}/foreign.db`;
    const db = new Database(foreign);
    db.exec('CREATE TABLE t (x)');
    db.close();
    const text = `${dir}/text.db`;
    writeFileSync(text, 'not a database at all\n'.repeat(100));
    for (const [path, reason] of [
      [foreign, 'the file is not an oracle database'],
      [text, 'the file is not a SQLite database'],
    ] as const) {
      const before = readFileSync(path);
      const error = await openStore(path).catch((e: unknown) => e);
      expect((error as DatabaseUnavailableError).reason).toBe(reason);
      expect(readFileSync(path).equals(before)).toBe(true);
    }
  });

  it.each([{}, { readonly: true }, { create: true }])(
    'refuses a file a newer oracle made (schema version ahead), unchanged (%o)',
    async (options) => {
      const path = `${dir}/newer-${Object.keys(options).join('')}.db`;
      await (await openStore(path, { create: true })).close();
      const db = new Database(path);
      const known = db.pragma('user_version', { simple: true }) as number;
      db.pragma(`user_version = ${known + 1}`);
      db.close();
      const before = readFileSync(path);
      const error = await openStore(path, options).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DatabaseUnavailableError);
      expect((error as DatabaseUnavailableError).reason).toBe(
        `the database was made by a newer oracle (schema version ${known + 1}, this one knows ${known})`,
      );
      expect(readFileSync(path).equals(before)).toBe(true);
    },
  );

  it('writes a schema into an empty file when asked to create (ingest)', async () => {
    const path = `${dir}/empty-create.db`;
    writeFileSync(path, '');
    await (await openStore(path, { create: true })).close();
    expect(statSync(path).size).toBeGreaterThan(0);
  });

  it('opens read-only: a write through the connection fails and the file is unchanged', async () => {
    const path = `${dir}/ro.db`;
    await (await openStore(path, { create: true })).close();
    const before = readFileSync(path);
    const store = await openStore(path, { readonly: true });
    await expect(store.apiKeys.create('k', 'x', 'hash', 1)).rejects.toThrow(/readonly/);
    await store.close();
    expect(readFileSync(path).equals(before)).toBe(true);
  });
});
