// @module-tag sqlite-only: where the default SQLite file lives (a project folder, XDG): no PostgreSQL URL is ever a default
/**
 * Where a command's database is when none is named (src/cli/db-location.ts): ./oracle.db in a
 * project folder, else the user's in the XDG data directory; --db and ORACLE_DB name another.
 * Real child processes, each in a working directory and with a HOME of its own; `oracle demo`
 * in process, into the user's database of the run's environment.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultDatabase, userDatabase } from '../../src/cli/db-location.js';
import { openStore } from '../../src/store/open-store.js';
import { runOracle } from '../_cli.js';
import { runCli, tempDir } from '../_setup.js';

const CATALOG =
  'product_key,product_name,set_name,product_type,era\nhome-card,Home Card,Home Set,single_card,modern\n';

/** A folder with catalog.csv in it, and a HOME (XDG_DATA_HOME unset) for the child. */
function setting() {
  const cwd = tempDir();
  const home = tempDir();
  writeFileSync(join(cwd, 'catalog.csv'), CATALOG);
  return { cwd, home, env: { HOME: home, XDG_DATA_HOME: '' } };
}

async function productKeys(args: string[], options: Parameters<typeof runCli>[1]): Promise<string[]> {
  const result = await runCli([...args, 'catalog', '--json'], options);
  expect(result.stderr).toBe('');
  return (JSON.parse(result.stdout) as { products: { product_key: string }[] }).products.map(
    (p) => p.product_key,
  );
}

describe('the default database', () => {
  it('is $XDG_DATA_HOME/oracle/oracle.db, or ~/.local/share/oracle/oracle.db when XDG_DATA_HOME is unset or relative', () => {
    expect(userDatabase({ XDG_DATA_HOME: '/data', HOME: '/home/ann' })).toBe('/data/oracle/oracle.db');
    for (const xdg of [undefined, '', 'relative/data'])
      expect(userDatabase({ XDG_DATA_HOME: xdg, HOME: '/home/ann' })).toBe(
        '/home/ann/.local/share/oracle/oracle.db',
      );
    expect(defaultDatabase({ XDG_DATA_HOME: '/data' })).toBe(
      existsSync('oracle.db') ? 'oracle.db' : '/data/oracle/oracle.db',
    );
  });

  it("outside a project folder is the user's: ingest makes its folder, and any other folder reads it", async () => {
    const { cwd, home, env } = setting();
    const ingest = await runCli(['ingest', 'catalog.csv'], { cwd, env });
    expect(ingest.code, ingest.stderr).toBe(0);
    expect(existsSync(join(home, '.local', 'share', 'oracle', 'oracle.db'))).toBe(true);
    expect(existsSync(join(cwd, 'oracle.db'))).toBe(false);
    expect(await productKeys([], { cwd: tempDir(), env })).toEqual(['home-card']);
    // XDG_DATA_HOME moves it: nothing there yet, and the message names where it looked.
    const data = tempDir();
    const elsewhere = await runCli(['catalog'], { cwd, env: { ...env, XDG_DATA_HOME: data } });
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.stderr).toContain(`database ${join(data, 'oracle', 'oracle.db')} does not exist`);
  }, 60_000);

  it('in a project folder (one holding oracle.db) is that file; --db and ORACLE_DB still name another', async () => {
    const { cwd, env } = setting();
    expect((await runCli(['ingest', 'catalog.csv'], { cwd, env })).code).toBe(0);
    const project = tempDir();
    writeFileSync(join(project, 'catalog.csv'), CATALOG.replaceAll('home-card', 'project-card'));
    expect((await runCli(['--db', 'oracle.db', 'ingest', 'catalog.csv'], { cwd: project, env })).code).toBe(
      0,
    );
    expect(await productKeys([], { cwd: project, env })).toEqual(['project-card']);
    expect(await productKeys([], { cwd, env })).toEqual(['home-card']);
    const named = join(project, 'oracle.db');
    expect(await productKeys(['--db', named], { cwd, env })).toEqual(['project-card']);
    expect(await productKeys([], { cwd, env: { ...env, ORACLE_DB: named } })).toEqual(['project-card']);
  }, 120_000);

  it('a named folder that does not exist is an error, not made', async () => {
    const { cwd, env } = setting();
    const result = await runCli(['--db', join(cwd, 'no', 'such', 'x.db'), 'ingest', 'catalog.csv'], {
      cwd,
      env,
    });
    expect(result.code).toBe(1);
    expect(existsSync(join(cwd, 'no'))).toBe(false);
  });
});

describe('oracle demo', () => {
  it("loads the sample into the user's database, calibrates and prices the flagship card", async () => {
    const data = tempDir();
    mkdirSync(join(data, 'unrelated'));
    const result = await runOracle(['demo'], { env: { XDG_DATA_HOME: data } });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const db = join(data, 'oracle', 'oracle.db');
    expect(result.stdout).toContain(
      `Database: ${existsSync('oracle.db') ? join(process.cwd(), 'oracle.db') : db}`,
    );
    expect(result.stdout).toMatch(/^Sample: 55 products, [\d,]+ observations from /);
    expect(result.stdout).toMatch(/read 55, inserted 55, updated 0, duplicates 0, rejected 0/);
    expect(result.stdout).toMatch(/calibrated the grade ratios/);
    expect(result.stdout).toMatch(/\nUngraded: \$[\d,]+\.\d\d {2}80 %: /);
    expect(result.stdout).toContain('oracle explain pokemon-base-set-charizard-4-102 --slot psa10');
    if (existsSync('oracle.db')) return;
    const store = await openStore(db);
    try {
      expect((await store.inventory()).products).toBe(55);
    } finally {
      await store.close();
    }
  }, 180_000);
});
