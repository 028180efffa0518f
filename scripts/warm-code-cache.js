// The last step of the build: runs the built CLI in a child process over the commands scripts
// and people start most (--version, catalog, price, history) on a small database of its own,
// then saves V8's code cache of the bundle beside it, named by the bundle's build id, for
// bin/oracle.js to compile from (docs/benchmarks.md, "Build layout"). The cache holds what
// those commands compiled; any other code is compiled on first use, as without a cache. Every
// start deserialises the whole cache, so what a command that is not timed would add to it is
// left out: ingest's code (the database is loaded by `oracle ingest` in a process of its own;
// its run takes seconds) and --help's (every command's declaration and commander's help
// layout, read by a person) (bench/findings.md, 10a).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HOUR_MS = 3_600_000;
const GRADERS = ['PSA', 'BGS', 'CGC', 'SGC'];
const PRODUCTS = ['warm-card-one', 'warm-card-two'];
/** How long the warm-up may take before the build goes on without a cache. */
const TIMEOUT_MS = 120_000;
/** The CLI, which loads the warm-up's database in a process of its own (no cache is made there). */
const BIN = fileURLToPath(new URL('../bin/oracle.js', import.meta.url));

/** Two cards, each with ten sales a slot over the 30 days before `at`. */
function writeInputs(dir, at) {
  writeFileSync(
    join(dir, 'catalog.csv'),
    'product_key,product_name,set_name,product_type,era\n' +
      PRODUCTS.map((key, i) => `${key},Card ${i},Warm Set,single_card,modern\n`).join(''),
  );
  const slots = [
    ['', ''],
    ...GRADERS.flatMap((grader) => [7, 8, 9, 10].map((grade) => [grader, String(grade)])),
  ];
  const rows = ['product_key,source,observed_at,price_minor,grader,grade,external_id'];
  for (const [p, key] of PRODUCTS.entries()) {
    for (const [s, [grader, grade]] of slots.entries()) {
      for (let n = 0; n < 10; n++) {
        const observedAt = new Date(Date.parse(at) - (n * 72 + s + 1) * HOUR_MS).toISOString();
        const price = (1_000 + 500 * s) * (p + 1) + 37 * ((n * 7) % 10);
        rows.push(`${key},ebay,${observedAt},${price},${grader},${grade},warm-${p}-${s}-${n}`);
      }
    }
  }
  writeFileSync(join(dir, 'observations.csv'), `${rows.join('\n')}\n`);
}

/** The child: runs the commands in one process through bin/compile-cli.js and saves the cache. */
async function warmInThisProcess(dir, at) {
  const { compileCli } = createRequire(import.meta.url)('../bin/compile-cli.js');
  const { cli, script, cachePath } = compileCli();
  if (cachePath === undefined) throw new Error('the bundle has no build id on its first line');
  const db = ['--db', join(dir, 'warm.db')];
  const runs = [
    ['--version'],
    [...db, 'catalog', '--json'],
    [...db, 'catalog'],
    [...db, 'price', PRODUCTS[0], '--at', at, '--json'],
    [...db, 'price', PRODUCTS[1], '--at', at],
    [...db, 'history', PRODUCTS[0], '--to', at, '--json'],
  ];
  for (const args of runs) {
    const code = await cli.main(['node', 'oracle', ...args]);
    if (code !== 0) throw new Error(`oracle ${args.join(' ')} exited ${code}`);
  }
  writeFileSync(cachePath, script.createCachedData());
}

/**
 * Makes the cache in a child process (its commands print to stdout and set the exit code),
 * without NODE_OPTIONS: V8 takes a cache only in a process with the flags it was made with, and
 * `oracle` runs without any. A failure is a warning: the CLI works without the cache, only
 * starting slower.
 */
export function warmCodeCache() {
  let dir;
  try {
    dir = mkdtempSync(join(tmpdir(), 'oracle-warm-'));
    // The last whole hour: --at may not be in the future, whatever the machine's clock says.
    const at = new Date(Math.floor(Date.now() / HOUR_MS) * HOUR_MS).toISOString();
    writeInputs(dir, at);
    const env = { ...process.env };
    delete env.NODE_OPTIONS;
    const db = join(dir, 'warm.db');
    const children = [
      [BIN, '--db', db, 'ingest', join(dir, 'catalog.csv'), join(dir, 'observations.csv')],
      [fileURLToPath(import.meta.url), dir, at],
    ];
    for (const args of children) {
      const child = spawnSync(process.execPath, args, {
        stdio: ['ignore', 'ignore', 'pipe'],
        encoding: 'utf8',
        env,
        timeout: TIMEOUT_MS,
      });
      if (child.error) throw child.error;
      if (child.status !== 0) throw new Error(child.stderr.trim() || `exit ${child.status ?? child.signal}`);
    }
  } catch (error) {
    console.warn(
      `build: no code cache for dist/cli/main.js (oracle starts slower): ${error instanceof Error ? error.message : error}`,
    );
  } finally {
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url))
  await warmInThisProcess(process.argv[2], process.argv[3]);
