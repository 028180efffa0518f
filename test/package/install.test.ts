// @module-tag sqlite-only: npm pack and a global install of the package: the store it opens is the default SQLite file
/**
 * The package as someone with no clone gets it: `npm pack` (of the built tree: npm test builds
 * first), installed globally into a prefix of its own with no build step, then the tour's
 * commands run from that prefix's `oracle` in a folder with no database, a HOME of its own and
 * an XDG data directory, and its `oracle mcp` answers the SDK's client over stdio. npm reads its cache (warm from this checkout's install) and
 * better-sqlite3 gets this checkout's compiled binary as its prebuilt one (prebuild-install's
 * local prebuilds), as the registry's prebuilt binary would come on a machine with internet:
 * compiling it from source here would take minutes. Skipped, saying why, where npm or the
 * build is missing.
 */
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../_setup.js';

const npmVersion = spawnSync('npm', ['--version'], { encoding: 'utf8' });
const built = existsSync(join(ROOT, 'dist', 'cli', 'main.js'));
// A global install takes a minute or more on the 2-core machine, more than the whole suite can spare:
// `npm run test:package` runs this file alone (.ci/run does, after npm test).
const skip =
  process.env.ORACLE_TEST_PACKAGE !== '1'
    ? 'it runs alone: npm run test:package'
    : npmVersion.status !== 0
      ? 'npm is not on PATH'
      : !built
        ? 'no build: run npm run build (npm test does) before packing'
        : null;
if (skip !== null) console.warn(`test/package/install.test.ts skipped: ${skip}`);

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
};
const npmCache = spawnSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).stdout.trim();

function ok(result: SpawnSyncReturns<string>, what: string): string {
  expect(result.error, what).toBeUndefined();
  expect(result.status, `${what}\n${result.stderr}`).toBe(0);
  return result.stdout;
}

/** better-sqlite3's binary as a prebuild-install archive (build/Release/better_sqlite3.node), in `dir`. */
function localPrebuild(dir: string): void {
  const sqlite = join(ROOT, 'node_modules', 'better-sqlite3');
  const { version } = JSON.parse(readFileSync(join(sqlite, 'package.json'), 'utf8')) as { version: string };
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  ok(
    spawnSync('tar', ['-czf', join(dir, name), '-C', sqlite, 'build/Release/better_sqlite3.node'], {
      encoding: 'utf8',
    }),
    'tar',
  );
}

describe.skipIf(skip !== null)('the npm package', () => {
  it('installs globally from its tarball without building, and runs the tour from any folder', async () => {
    const tmp = tempDir('oracle-package-');
    const [prefix, home, data, work, prebuilds] = ['prefix', 'home', 'data', 'work', 'prebuilds'].map(
      (name) => join(tmp, name),
    ) as [string, string, string, string, string];
    for (const dir of [home, work, prebuilds]) mkdirSync(dir);

    const packed = JSON.parse(
      ok(
        spawnSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', tmp], {
          cwd: ROOT,
          encoding: 'utf8',
        }),
        'npm pack',
      ),
    ) as [{ filename: string; size: number; files: { path: string }[] }];
    const { filename, size, files } = packed[0];
    const paths = files.map((file) => file.path);
    expect(filename).toBe(`${pkg.name}-${pkg.version}.tgz`);
    // What run time needs is in it (the bundle, its code cache, the parse worker, the
    // migrations); what only a clone builds from is not.
    expect(paths).toEqual(
      expect.arrayContaining(['bin/oracle.js', 'dist/cli/main.js', 'drizzle/meta/_journal.json']),
    );
    expect(paths.some((path) => /^dist\/cli\/main\.js\.\w+\.v8cache$/.test(path))).toBe(true);
    expect(paths.filter((path) => /^(src|build|sample|test)\//.test(path))).toEqual([]);
    console.info(`npm pack: ${filename}, ${(size / 1e6).toFixed(2)} MB, ${files.length} files`);

    localPrebuild(prebuilds);
    const npmEnv = {
      ...process.env,
      HOME: home,
      npm_config_cache: npmCache,
      npm_config_update_notifier: 'false',
      npm_config_better_sqlite3_local_prebuilds: prebuilds,
    };
    const started = performance.now();
    ok(
      spawnSync(
        'npm',
        [
          'install',
          '-g',
          '--prefix',
          prefix,
          join(tmp, filename),
          '--prefer-offline',
          '--no-audit',
          '--no-fund',
        ],
        { cwd: work, env: npmEnv, encoding: 'utf8' },
      ),
      'npm install -g',
    );
    console.info(`npm install -g: ${((performance.now() - started) / 1000).toFixed(1)} s`);

    const env: NodeJS.ProcessEnv = {
      PATH: `${join(prefix, 'bin')}:${process.env.PATH}`,
      HOME: home,
      XDG_DATA_HOME: data,
    };
    const oracle = (...args: string[]) =>
      spawnSync(join(prefix, 'bin', 'oracle'), args, { cwd: work, env, encoding: 'utf8', timeout: 120_000 });
    expect(ok(oracle('--version'), 'oracle --version')).toBe(`${pkg.version}\n`);
    const demo = ok(oracle('demo'), 'oracle demo');
    expect(demo).toContain(`Database: ${join(data, 'oracle', 'oracle.db')}`);
    expect(demo).toMatch(/\nUngraded: \$[\d,]+\.\d\d/);
    expect(existsSync(join(work, 'oracle.db'))).toBe(false);
    // One instant for the CLI and the MCP tool below: the demo's history ends at this hour.
    const at = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000).toISOString();
    const bundle = JSON.parse(
      ok(oracle('price', 'pokemon-base-set-charizard-4-102', '--at', at, '--json'), 'oracle price'),
    ) as {
      ungraded: { price_minor: number | null };
    };
    expect(bundle.ungraded.price_minor).toBeGreaterThan(0);
    const search = ok(oracle('catalog', '--search', 'charizard 4/102'), 'oracle catalog --search');
    expect(search).toContain('pokemon-base-set-charizard-4-102');
    // The MCP SDK came with the package: an assistant's client starts the installed `oracle mcp`.
    const client = new Client({ name: 'install-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: join(prefix, 'bin', 'oracle'),
        args: ['mcp'],
        cwd: work,
        env: env as Record<string, string>,
      }),
    );
    try {
      const result = await client.callTool({
        name: 'price',
        arguments: { product_key: 'pokemon-base-set-charizard-4-102', at },
      });
      const answer = result.structuredContent as { prices: { price_minor: number }[] };
      expect(answer.prices[0]!.price_minor).toBe(bundle.ungraded.price_minor);
    } finally {
      await client.close();
    }
  }, 300_000);
});
