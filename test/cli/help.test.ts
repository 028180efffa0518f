import type { Command } from 'commander';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createProgram } from '../../src/cli/program.js';
import { runCli } from '../_setup.js';

/** Every command, with its full name (`keys create`). */
function commands(program: Command): { name: string; command: Command }[] {
  const out: { name: string; command: Command }[] = [];
  const visit = (command: Command, prefix: string) => {
    for (const sub of command.commands) {
      const name = prefix ? `${prefix} ${sub.name()}` : sub.name();
      out.push({ name, command: sub });
      visit(sub, name);
    }
  };
  visit(program, '');
  return out;
}

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

describe('help and documentation', () => {
  const all = commands(createProgram());

  it('has every command of CONTRACT.md', () => {
    expect(all.map((c) => c.name).sort()).toEqual(
      ['calibrate', 'catalog', 'explain', 'export', 'history', 'ingest', 'keys', 'keys create', 'keys list', 'keys revoke', 'price', 'serve', 'snapshot', 'value'].sort(),
    );
  });

  it.each(all.map((c) => [c.name, c.command] as const))('"%s" has help text for itself and every option', (_name, command) => {
    expect(command.description().length).toBeGreaterThan(10);
    for (const option of command.options) expect(option.description.length, option.flags).toBeGreaterThan(5);
  });

  it.each(all.filter((c) => c.command.commands.length === 0).map((c) => [c.name]))(
    '"%s" is documented in the README with its options',
    (name) => {
      expect(readme).toContain(`oracle ${name}`);
      const command = all.find((c) => c.name === name)!.command;
      for (const option of command.options) expect(readme, `${name} ${option.long}`).toContain(option.long!);
    },
  );
});

describe('--help of the analyst commands', () => {
  it.each(['catalog', 'explain', 'export', 'history', 'value'])('"oracle %s --help" ends with runnable examples', async (name) => {
    const result = await runCli([name, '--help']);
    expect(result.code).toBe(0);
    const examples = result.stdout.split('\nExamples:\n')[1];
    expect(examples, result.stdout).toBeDefined();
    const lines = examples!.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).toMatch(new RegExp(`^ {2}\\$ oracle ${name} `));
  });
});
