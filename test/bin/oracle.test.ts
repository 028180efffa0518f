// @module-tag sqlite-only: bin/oracle.js around the bundle: no store
/**
 * bin/oracle.js around the bundle: a clear line when there is no build, and a failure, never a
 * success, when the CLI's main never settles (the event loop emptied while it waited).
 */
import { cpSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCommand, tempDir } from '../_setup.js';

/** A package of its own holding a copy of bin/, and `bundle` as its dist/cli/main.js when given. */
function packageWithBin(bundle?: string): string {
  const root = tempDir('bin-');
  mkdirSync(join(root, 'bin'));
  for (const file of readdirSync(join(ROOT, 'bin'))) cpSync(join(ROOT, 'bin', file), join(root, 'bin', file));
  if (bundle !== undefined) {
    mkdirSync(join(root, 'dist', 'cli'), { recursive: true });
    writeFileSync(join(root, 'dist', 'package.json'), '{ "type": "commonjs" }\n');
    writeFileSync(join(root, 'dist', 'cli', 'main.js'), bundle);
  }
  return join(root, 'bin', 'oracle.js');
}

describe('bin/oracle.js', () => {
  it('says to build when dist/ is missing, and exits 1', async () => {
    const bin = packageWithBin();
    const result = await runCommand(process.execPath, [bin, '--version']);
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(result.stderr).toMatch(
      /^oracle: .*\/dist\/cli\/main\.js is missing: run 'npm run build' \(npm ci runs it\)\n$/,
    );
  });

  it('exits 70 with one line when main never settles', async () => {
    const bin = packageWithBin(
      'exports.EXIT = { internal: 70 };\nexports.main = () => new Promise(() => {});\n',
    );
    const result = await runCommand(process.execPath, [bin, '--version']);
    expect(result).toMatchObject({
      code: 70,
      stdout: '',
      stderr: 'oracle: the command stopped before it finished (a bug in oracle: please report it)\n',
    });
  });

  it('passes on the code main settles with', async () => {
    const bin = packageWithBin('exports.EXIT = { internal: 70 };\nexports.main = async () => 3;\n');
    expect(await runCommand(process.execPath, [bin])).toMatchObject({ code: 3, stdout: '', stderr: '' });
  });
});
