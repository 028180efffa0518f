/**
 * Files oracle makes are the owner's alone, and a read-only database neither fails with a
 * message that names no file nor leaves a -wal / -shm that blocks a later writer (issue 24, 5).
 * The read-only case needs a user the file's mode binds: root is not bound by 0444, so as root
 * the commands run as `nobody` (setpriv); without setpriv, as root, that test is skipped.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TEST_STORE } from '../_pg.js';
import { runOracle } from '../_cli.js';
import { BIN, runCommand, tempDir } from '../_setup.js';

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

/** `oracle ...args` as a user the file modes bind: nobody when this is root, this user otherwise. */
function asUser(args: string[]) {
  if (!isRoot) return runCommand(process.execPath, [BIN, ...args]);
  return runCommand('setpriv', ['--reuid=nobody', '--regid=nogroup', '--clear-groups', process.execPath, BIN, ...args]);
}

describe.skipIf(TEST_STORE !== 'sqlite')('file modes and read-only databases', () => {
  it('creates the database and the --rejects and --out files 0600 under the usual umask', async () => {
    const dir = tempDir();
    const db = join(dir, 'new.db');
    const csv = join(dir, 'catalog.csv');
    writeFileSync(csv, 'product_key,product_name\nk,K\n,missing key\n');
    const previous = process.umask(0o022);
    try {
      const ingest = await runOracle(['--db', db, 'ingest', csv, '--rejects', join(dir, 'rejects.ndjson'), '--max-rejects', '5']);
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

  it.skipIf(isRoot && !hasSetpriv)('a read-only file: ingest names it and what to do, leaves nothing behind; readers work; a writer after chmod works', async () => {
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
    expect(refused.stderr).toBe(`oracle: database ${db}: the database file is read-only: make it writable (chmod u+w ${db}) or run as its owner; commands that only read work on it as it is\n`);
    expect(readdirSync(dir).sort()).toEqual(['catalog.csv', 'o.db']);
    const reader = await asUser(['--db', db, 'catalog', '--json']);
    expect(reader.code).toBe(0);
    expect(reader.stdout).toContain('"product_key":"k"');
    chmodSync(db, 0o644);
    const writer = await asUser(['--db', db, 'ingest', csv]);
    expect(writer.stderr).toBe('');
    expect(writer.code).toBe(0);
    for (const side of ['-wal', '-shm']) if (existsSync(`${db}${side}`)) expect(mode(`${db}${side}`) & 0o200).toBe(0o200);
    // A read-only directory (a read-only mount): the reader cannot make its -shm, and says where and what to do.
    chmodSync(dir, 0o555);
    try {
      const mounted = await asUser(['--db', db, 'catalog']);
      expect(mounted.code).toBe(1);
      expect(mounted.stderr).toContain(`the directory of the database is read-only: SQLite needs to create ${db}-shm beside it: make ${dir} writable`);
    } finally {
      chmodSync(dir, 0o777);
    }
  }, 30_000);
});
