// @module-tag sqlite-only: opens a SQLite file and a PostgreSQL database itself
/**
 * Every command on PostgreSQL answers as on SQLite: one catalog and one observation history
 * ingested through `oracle ingest` into a SQLite file and into a fresh PostgreSQL database,
 * then each command run with `--db <file>` and `--db postgres://...` at fixed instants, their
 * outputs compared byte for byte (SQLite's answer is the expectation: it is the store the
 * rest of the suite holds to the README).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { describeWithPg, freshPgDatabase } from '../_pg.js';
import { runOracle } from '../_cli.js';
import { tempDir, type CliResult } from '../_setup.js';

const AS_OF = '2026-10-15T12:00:00Z';
const AS_OF_MS = Date.parse(AS_OF);
const HOUR = 3_600_000;

/** A small deterministic generator, so a failure repeats. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

const PRODUCTS = [
  ['pokemon-base-set-charizard-4-102', '631245', 'Charizard', '4/102 Holo', 'Base Set', 'vintage', '1000'],
  ['pokemon-base-set-blastoise-2-102', '631246', 'Blastoise', '2/102 Holo', 'Base Set', 'vintage', ''],
  [
    'pokemon-151-charizard-ex-199-165',
    '631247',
    'Charizard ex',
    '199/165 Special Illustration Rare',
    'Scarlet & Violet 151',
    'modern',
    '2000',
  ],
  ['mtg-arabian-nights-juzam-djinn', '631248', 'Juzám Djinn', '', 'Arabian Nights', 'vintage', ''],
  [
    'pokemon-team-rocket-dark-charizard-4-82',
    '631249',
    'Dark Charizard',
    '4/82 Holo',
    'Team Rocket',
    'vintage',
    '',
  ],
  ['never-sold', '631250', 'Never Sold', '', 'Promos', 'modern', ''],
] as const;

const GRADES: [string, string, number][] = [
  ['', '', 1],
  ['PSA', '10', 12],
  ['PSA', '9', 5],
  ['BGS', '9.5', 8],
  ['CGC', '8', 3],
];

function files(dir: string): { catalog: string; observations: string; collection: string } {
  const next = random(7);
  const catalog = join(dir, 'catalog.csv');
  writeFileSync(
    catalog,
    'product_key,refsource_id,product_name,subtitle,set_name,product_type,era,release_date,tcgplayer_id\n' +
      PRODUCTS.map(
        ([key, ref, name, sub, set, era, tcg]) =>
          `${key},${ref},"${name}","${sub}","${set}",single_card,${era},1999-01-09,${tcg}`,
      ).join('\n') +
      '\n',
  );
  const lines = ['product_key,source,observed_at,price_minor,grader,grade,external_id'];
  PRODUCTS.slice(0, 5).forEach(([key], p) => {
    const base = 5_000 * (p + 1);
    for (let h = 1; h <= 60 * 24; h += 1 + Math.floor(next() * 7)) {
      const [grader, grade, factor] = GRADES[Math.floor(next() * GRADES.length)]!;
      const at = new Date(AS_OF_MS + 48 * HOUR - h * HOUR).toISOString().replace('.000', '');
      const price = Math.round(base * factor * (0.8 + 0.4 * next()) * (next() < 0.03 ? 5 : 1));
      const source = ['ebay', 'tcgplayer', 'pricecharting'][Math.floor(next() * 3)]!;
      const external = source === 'ebay' ? `e${p}-${h}` : '';
      lines.push(`${key},${source},${at},${price},${grader},${grade},${external}`);
      // Some rows twice: the identity keeps one.
      if (next() < 0.05) lines.push(lines.at(-1)!);
    }
  });
  const observations = join(dir, 'observations.csv');
  writeFileSync(observations, lines.join('\n') + '\n');
  const collection = join(dir, 'collection.csv');
  writeFileSync(
    collection,
    'product_key,condition,quantity,cost_basis_minor\n' +
      'pokemon-base-set-charizard-4-102,ungraded,2,9000\npokemon-base-set-charizard-4-102,psa10,1,50000\n' +
      'pokemon-151-charizard-ex-199-165,bgs9,1,\nnever-sold,ungraded,1,100\nno-such-card,ungraded,1,\n',
  );
  return { catalog, observations, collection };
}

/**
 * What a run printed, with what differs by nature blanked: elapsed times, and the clock time
 * a calibration is stored at (the two runs may straddle a second).
 */
const stable = (r: CliResult) => ({
  code: r.code,
  stdout: r.stdout
    .replace(/ in \d+(\.\d+)? s/g, ' in _ s')
    .replace(/"created_at":"[^"]*"/g, '"created_at":"_"'),
  stderr: r.stderr.replace(/ in \d+(\.\d+)? s/g, ' in _ s'),
});

describeWithPg('every command on PostgreSQL answers as on SQLite', () => {
  let sqlite: string;
  let pg: string;
  let input: ReturnType<typeof files>;
  const both = async (args: readonly string[], options: { input?: string } = {}) => {
    const [a, b] = await Promise.all([
      runOracle(['--db', sqlite, ...args], options),
      runOracle(['--db', pg, ...args], options),
    ]);
    return [stable(a), stable(b)] as const;
  };
  const same = async (args: readonly string[], options: { input?: string } = {}) => {
    const [a, b] = await both(args, options);
    expect(b, args.join(' ')).toEqual(a);
    return a;
  };

  beforeAll(async () => {
    const dir = tempDir();
    input = files(dir);
    sqlite = join(dir, 'oracle.db');
    pg = await freshPgDatabase();
    // The first run creates the stores; the second inserts nothing on either.
    for (let run = 0; run < 2; run++) {
      const ingested = await same(['ingest', input.catalog, input.observations]);
      expect(ingested.code).toBe(0);
      expect(ingested.stdout + ingested.stderr).toMatch(
        run === 0 ? /inserted [1-9]/ : /inserted 0, duplicates [1-9]/,
      );
    }
  });

  it('ingest: the same counts, dry runs and rejects included', async () => {
    const dir = tempDir();
    const extra = join(dir, 'more.csv');
    writeFileSync(
      extra,
      'product_key,source,observed_at,price_minor,grader,grade,external_id\n' +
        'pokemon-base-set-charizard-4-102,ebay,2026-10-15T10:00:00Z,41000,,,new-1\n' +
        'pokemon-base-set-charizard-4-102,ebay,2026-10-15T10:00:00Z,41000,,,new-1\n' +
        'unknown-card,ebay,2026-10-15T10:00:00Z,41000,,,new-2\n' +
        'pokemon-base-set-charizard-4-102,ebay,2026-02-30T10:00:00Z,41000,,,new-3\n',
    );
    await same(['ingest', extra, '--dry-run', '--max-rejects', '5']);
    const written = await same(['ingest', extra, '--max-rejects', '5']);
    expect(written.stdout + written.stderr).toMatch(/inserted 1, duplicates 1, rejected 2/);
  });

  it('price, explain, snapshot and history at fixed instants', async () => {
    for (const [key] of PRODUCTS) {
      const priced = await same(['price', key, '--at', AS_OF, '--json']);
      expect(priced.code).toBe(0);
    }
    const charizard = JSON.parse(
      (await same(['price', 'pokemon-base-set-charizard-4-102', '--at', AS_OF, '--json'])).stdout,
    );
    expect(charizard.ungraded.price_minor).toBeGreaterThan(0);
    expect((await same(['price', 'pokemon-base-set-charizard-4-102', '--at', AS_OF])).stdout).toMatch(/\$/);
    await same([
      'price',
      '--refsource',
      '631247',
      '--at',
      AS_OF,
      '--window-hours',
      '72',
      '--outlier-stddevs',
      '3',
      '--json',
    ]);
    await same(['price', 'pokemon-base-set-charizard-4-10', '--at', AS_OF]);
    await same([
      'explain',
      'pokemon-base-set-charizard-4-102',
      '--slot',
      'ungraded',
      '--at',
      AS_OF,
      '--json',
    ]);
    await same(['explain', 'pokemon-151-charizard-ex-199-165', '--slot', 'psa10', '--at', AS_OF]);
    await same(['snapshot', '631245', '--date', '2026-10-10', '--json']);
    const history = await same([
      'history',
      'pokemon-base-set-charizard-4-102',
      '--from',
      '2026-09-01T00:00:00Z',
      '--to',
      AS_OF,
      '--every',
      '1d',
      '--json',
    ]);
    expect(JSON.parse(history.stdout).points.length).toBeGreaterThan(40);
    await same([
      'history',
      'pokemon-151-charizard-ex-199-165',
      '--from',
      '2026-10-01T00:00:00Z',
      '--to',
      AS_OF,
      '--every',
      '6h',
      '--csv',
    ]);
  });

  it('catalog, search and "did you mean"', async () => {
    await same(['catalog']);
    await same(['catalog', '--json']);
    for (const q of ['charizard', 'base 4/102', 'JUZAM', 'char ex', 'rocket', 'zzz'])
      await same(['catalog', '--search', q]);
  });

  it('value and export', async () => {
    const valued = await same(['value', input.collection, '--at', AS_OF, '--json']);
    expect(valued.code).toBe(3);
    await same(['value', input.collection, '--at', AS_OF, '--csv']);
    await same(['export', '--at', AS_OF]);
    await same(['export', '--at', AS_OF, '--format', 'csv']);
  });

  it('calibrate, then price with the calibration', async () => {
    const fitted = await same(['calibrate', '--at', AS_OF, '--json']);
    expect(fitted.code).toBe(0);
    await same(['calibrate', '--show', '--at', AS_OF, '--json']);
    await same(['price', 'pokemon-151-charizard-ex-199-165', '--at', AS_OF, '--json']);
  });

  it('keys: create, list, revoke', async () => {
    const [a, b] = await both(['keys', 'create', '--label', 'parity']);
    expect([a.code, b.code]).toEqual([0, 0]);
    const id = (r: { stderr: string; stdout: string }) => /(key_[0-9a-f]+)/.exec(r.stderr + r.stdout)![1]!;
    const [revokedA, revokedB] = await Promise.all([
      runOracle(['--db', sqlite, 'keys', 'revoke', id(a)]),
      runOracle(['--db', pg, 'keys', 'revoke', id(b)]),
    ]);
    expect(stable(revokedB).stdout.replace(id(b), 'ID')).toBe(stable(revokedA).stdout.replace(id(a), 'ID'));
    const [listA, listB] = await both(['keys', 'list', '--json']);
    const shape = (r: { stdout: string }) =>
      (JSON.parse(r.stdout) as { label: string; revoked_at: string | null }[]).map((k) => ({
        label: k.label,
        revoked: k.revoked_at !== null,
      }));
    expect(shape(listB)).toEqual(shape(listA));
    expect(shape(listA)).toEqual([{ label: 'parity', revoked: true }]);
  });

  it('names an unreachable server or a missing database without the password, exit 1', async () => {
    const missing = new URL(pg);
    missing.password = 'secret-pw';
    missing.pathname = '/no_such_database';
    const gone = await runOracle(['catalog'], { env: { ORACLE_DB: missing.toString() } });
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/the database does not exist/);
    const closed = new URL(missing);
    closed.port = '1';
    const refused = await runOracle(['--db', closed.toString(), 'catalog']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /postgres:\/\/oracle:\*\*\*@127\.0\.0\.1:1\/no_such_database: the database server cannot be reached/,
    );
    expect(gone.stderr + refused.stderr).not.toContain('secret-pw');
  });
});
