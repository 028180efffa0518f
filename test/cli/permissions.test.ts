// @module-tag sqlite-only: file modes and a read-only SQLite file
/**
 * Files oracle makes are the owner's alone, and a read-only database neither fails with a
 * message that names no file nor leaves a -wal / -shm that blocks a later writer (issue 24, 5).
 * The read-only case needs a user the file's mode binds: root is not bound by 0444, so as root
 * the commands run as `nobody` (setpriv); without setpriv, as root, that test is skipped.
 */
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  readdirSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { READ_ONLY_COPY_MAX_BYTES, readOnlyCopy } from '../../src/store/sqlite/read-only-copy.js';
import { TEST_STORE } from '../_pg.js';
import { runOracle } from '../_cli.js';
import { BIN, runCommand, spawnServe, tempDir } from '../_setup.js';

const mode = (path: string) => statSync(path).mode & 0o777;
const isRoot = process.getuid?.() === 0;
const hasSetpriv = (() => {
  try {
    execFileSync('setpriv', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
const NOBODY = isRoot ? Number(execFileSync('id', ['-u', 'nobody']).toString()) : -1;

/** What runs a command as a user the file modes bind: nobody when this is root, this user otherwise. */
const AS_USER = isRoot ? ['setpriv', '--reuid=nobody', '--regid=nogroup', '--clear-groups'] : [];

/** `oracle ...args` as a user the file modes bind. */
function asUser(args: string[]) {
  const [file, ...rest] = [...AS_USER, process.execPath, BIN, ...args];
  return runCommand(file!, rest);
}

describe.skipIf(TEST_STORE !== 'sqlite')('file modes and read-only databases', () => {
  it('creates the database and the --rejects and --out files 0600 under the usual umask', async () => {
    const dir = tempDir();
    const db = join(dir, 'new.db');
    const csv = join(dir, 'catalog.csv');
    writeFileSync(csv, 'product_key,product_name\nk,K\n,missing key\n');
    const previous = process.umask(0o022);
    try {
      const ingest = await runOracle([
        '--db',
        db,
        'ingest',
        csv,
        '--rejects',
        join(dir, 'rejects.ndjson'),
        '--max-rejects',
        '5',
      ]);
      expect(ingest.code).toBe(0);
      const exported = await runOracle(['--db', db, 'export', '--out', join(dir, 'prices.ndjson')]);
      expect(exported.code).toBe(0);
    } finally {
      process.umask(previous);
    }
    expect(mode(db)).toBe(0o600);
    expect(mode(join(dir, 'rejects.ndjson'))).toBe(0o600);
    expect(mode(join(dir, 'prices.ndjson'))).toBe(0o600);
  });

  it.skipIf(isRoot && !hasSetpriv)(
    'a read-only file: ingest names it and what to do, leaves nothing behind; readers work; a writer after chmod works',
    async () => {
      const dir = tempDir();
      chmodSync(dir, 0o777);
      const db = join(dir, 'o.db');
      const csv = join(dir, 'catalog.csv');
      writeFileSync(csv, 'product_key,product_name\nk,K\n');
      chmodSync(csv, 0o644);
      expect((await runOracle(['--db', db, 'ingest', csv])).code).toBe(0);
      if (isRoot) chownSync(db, NOBODY, -1);
      chmodSync(db, 0o444);
      const refused = await asUser(['--db', db, 'ingest', csv]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toBe(
        `oracle: database ${db}: the database file is read-only: make it writable (chmod u+w ${db}) or run as its owner; commands that only read work on it as it is\n`,
      );
      expect(readdirSync(dir).sort()).toEqual(['catalog.csv', 'o.db']);
      const reader = await asUser(['--db', db, 'catalog', '--json']);
      expect(reader.code).toBe(0);
      expect(reader.stdout).toContain('"product_key":"k"');
      chmodSync(db, 0o644);
      const writer = await asUser(['--db', db, 'ingest', csv]);
      expect(writer.stderr).toBe('');
      expect(writer.code).toBe(0);
      for (const side of ['-wal', '-shm'])
        if (existsSync(`${db}${side}`)) expect(mode(`${db}${side}`) & 0o200).toBe(0o200);
    },
    30_000,
  );

  // SQLite cannot create a -shm in a read-only directory, for nobody as on a read-only mount.
  it.skipIf(isRoot && !hasSetpriv)(
    'a read-only directory: readers and serve read a WAL file through a copy in memory, said on stderr; a writer is refused, naming it; nothing is left behind',
    async () => {
      const dir = tempDir();
      const db = join(dir, 'o.db');
      const catalog = (key: string) => {
        writeFileSync(join(dir, 'catalog.csv'), `product_key,product_name\n${key},${key.toUpperCase()}\n`);
        return runOracle(['--db', db, 'ingest', join(dir, 'catalog.csv')]);
      };
      expect((await catalog('k')).code).toBe(0);
      if (isRoot) chownSync(db, NOBODY, -1);
      chmodSync(dir, 0o555);
      try {
        const server = spawnServe(['--db', db, 'serve'], { ORACLE_API_KEYS: 'ork_h4' }, AS_USER);
        const [reader, writer] = await Promise.all([
          asUser(['--db', db, 'catalog', '--json']),
          asUser(['--db', db, 'keys', 'create', '--label', 'x']),
        ]);
        const note = `note: reading ${db} through a 1 MiB copy in memory: SQLite cannot create the -shm of this WAL-mode file in ${dir}, which is read-only; to read it in place, make ${dir} writable, or put there a copy in rollback-journal mode, made where the database is writable: sqlite3 <database> "VACUUM INTO '<copy>'"\n`;
        expect(reader.stderr).toBe(note);
        expect(reader.code).toBe(0);
        expect(reader.stdout).toContain('"product_key":"k"');
        expect(writer.stderr).toBe(
          `oracle: database ${db}: the directory of the database is read-only: SQLite keeps its -wal and -shm files beside the database: make ${dir} writable, or move the database; commands that only read work on it as it is\n`,
        );
        expect(writer.code).toBe(1);
        try {
          const url = await server.url;
          expect(server.stderr[0]).toBe(note.trimEnd());
          const ready = async () =>
            ((await (await fetch(`${url}/api/v1/ready`)).json()) as { products: number }).products;
          expect(await ready()).toBe(1);
          if (isRoot) {
            // Written in place by a user who may (root, as the writable side of a mount): the server reads it again.
            expect((await catalog('k2')).code).toBe(0);
            const deadline = Date.now() + 5_000;
            while ((await ready()) !== 2 && Date.now() < deadline);
            expect(await ready()).toBe(2);
          }
        } finally {
          server.child.kill('SIGTERM');
          await server.exited;
        }
        expect(readdirSync(dir).sort()).toEqual(['catalog.csv', 'o.db']);
      } finally {
        chmodSync(dir, 0o777);
      }
    },
    30_000,
  );

  // The refusals of readOnlyCopy, on real files: they need no permissions, only what the files hold.
  it('reads no copy of a file whose -wal holds changes, nor of one above READ_ONLY_COPY_MAX_BYTES; a rollback-journal file needs none', () => {
    const dir = tempDir();
    const db = join(dir, 'o.db');
    const writer = new Database(db);
    writer.pragma('journal_mode = WAL');
    writer.pragma('wal_autocheckpoint = 0');
    writer.exec('CREATE TABLE t (x); INSERT INTO t VALUES (1)');
    const frames = readOnlyCopy(db, dir);
    writer.close(); // the last connection: the -wal goes into the file, and is removed
    expect(frames).toEqual({
      refusal: expect.objectContaining({
        reason: expect.stringContaining('its -wal holds changes not yet in the file'),
      }),
    });

    const clean = readOnlyCopy(db, dir);
    if (clean === null || 'refusal' in clean)
      throw new Error(`expected a copy, got ${JSON.stringify(clean)}`);
    expect([...clean.bytes.subarray(18, 20)]).toEqual([1, 1]);
    expect(new Database(clean.bytes, { readonly: true }).prepare('SELECT x FROM t').pluck().get()).toBe(1);

    truncateSync(db, READ_ONLY_COPY_MAX_BYTES + 1); // sparse: nothing is written
    expect(readOnlyCopy(db, dir)).toEqual({
      refusal: expect.objectContaining({
        reason: expect.stringContaining('the file (257 MiB) is larger than the 256 MiB'),
      }),
    });

    const rollback = join(dir, 'rollback.db');
    new Database(rollback).exec('CREATE TABLE t (x)');
    expect(readOnlyCopy(rollback, dir)).toBeNull();
  });
});
