// @module-tag sqlite-only: the build: no store
/**
 * `npm run build` (scripts/build.js) bundles src/ and writes only the modules it lists as
 * entry points at their own paths, under dist/ (the CLI) and build/ (what bench/, backtest/
 * and tests run in process). Every built module that bin/, bench/, backtest/ or a test
 * imports by path must be one of them: this finds those imports in the code and checks that
 * each file exists after the build (`npm test` builds first).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../_setup.js';

/** Files of the tools and tests, without generated or cached output. */
function codeFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter(
      (f) =>
        /\.(js|ts)$/.test(f) && !f.split('/').some((part) => part === '.work' || part === 'node_modules'),
    )
    .map((f) => join(ROOT, dir, f));
}

/**
 * A quoted `<area>/<module>.js` after `dist/` or `build/` and any `../`, or bare (a helper
 * adds `build/`): how the tools name a built module.
 */
const MODULE_PATH = /['"`](?:\.\.\/)*(?:(dist|build)\/)?([a-z-]+\/[\w-]+)\.js['"`]/g;

function builtModulesImported(): Map<string, string> {
  const found = new Map<string, string>();
  const self = fileURLToPath(import.meta.url);
  for (const file of ['bin', 'bench', 'backtest', 'test'].flatMap(codeFiles).filter((f) => f !== self)) {
    const text = readFileSync(file, 'utf8');
    if (!text.includes('dist') && !text.includes('build')) continue;
    for (const [, dir = 'build', path] of text.matchAll(MODULE_PATH)) {
      const built = `${dir}/${path}.js`;
      if (path && !found.has(built) && existsSync(join(ROOT, 'src', `${path}.ts`)))
        found.set(built, relative(ROOT, file));
    }
  }
  return found;
}

describe('the build', () => {
  it('writes every built module the tools and tests import by path', () => {
    const imported = builtModulesImported();
    expect(imported.get('dist/cli/main.js')).toBe('bin/compile-cli.js');
    expect(imported.has('build/store/open-store.js')).toBe(true);
    const missing = [...imported]
      .filter(([path]) => !existsSync(join(ROOT, path)))
      .map(([path, by]) => `${path} (imported by ${by})`);
    expect(missing).toEqual([]);
  });

  it('writes the bundles in ASCII, which bin/compile-cli.js reads as latin1 (one byte a character)', () => {
    for (const bundle of ['dist/cli/main.js', 'dist/ingest/parallel-worker.js']) {
      const bytes = readFileSync(join(ROOT, bundle));
      expect(
        bytes.findIndex((byte) => byte > 0x7f),
        bundle,
      ).toBe(-1);
    }
  });
});
