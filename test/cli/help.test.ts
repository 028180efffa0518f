// @module-tag sqlite-only: --help: no store
import type { Command } from 'commander';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createProgram } from '../../src/cli/program.js';
import { runOracle } from '../_cli.js';

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

/** The command reference, docs/cli.md (generated from --help and docs/cli.template.md). */
const reference = readFileSync(new URL('../../docs/cli.md', import.meta.url), 'utf8');

describe('help and documentation', () => {
  const all = commands(createProgram());

  it('has every command of CONTRACT.md', () => {
    expect(all.map((c) => c.name).sort()).toEqual(
      [
        'calibrate',
        'catalog',
        'demo',
        'explain',
        'export',
        'history',
        'index',
        'index add',
        'index list',
        'index publish',
        'index show',
        'ingest',
        'keys',
        'keys create',
        'keys list',
        'keys revoke',
        'mcp',
        'movers',
        'price',
        'sales',
        'serve',
        'snapshot',
        'value',
        'watch',
        'watch add',
        'watch check',
        'watch events',
        'watch list',
        'watch remove',
      ].sort(),
    );
  });

  it('holds only the command a run names, the same as in the whole program, none for --version; the whole program when the run names none', () => {
    const argv = (...args: string[]) => ['node', 'oracle', ...args];
    const names = (...args: string[]) =>
      createProgram(undefined, argv(...args)).commands.map((c) => c.name());
    for (const { name, command } of all.filter((c) => !c.name.includes(' '))) {
      const one = createProgram(undefined, argv('--db', 'x.db', '--wide', name, '--json')).commands;
      expect(one.map((c) => c.name())).toEqual([name]);
      expect(one[0]!.helpInformation()).toBe(command.helpInformation());
    }
    expect(names('--db=x.db', 'watch', 'list')).toEqual(['watch']);
    expect(names('--version')).toEqual([]);
    for (const args of [
      [],
      ['--help'],
      ['help', 'price'],
      ['pric'],
      ['--unknown', 'price'],
      ['--help', '--version'],
    ]) {
      expect(names(...args), args.join(' ')).toEqual(
        all.filter((c) => !c.name.includes(' ')).map((c) => c.name),
      );
    }
  });

  it.each(all.map((c) => [c.name, c.command] as const))(
    '"%s" has help text for itself and every option',
    (_name, command) => {
      expect(command.description().length).toBeGreaterThan(10);
      for (const option of command.options)
        expect(option.description.length, option.flags).toBeGreaterThan(5);
    },
  );

  it.each(all.filter((c) => c.command.commands.length === 0).map((c) => [c.name]))(
    '"%s" is documented in docs/cli.md with its options',
    (name) => {
      expect(reference).toContain(`oracle ${name}`);
      const command = all.find((c) => c.name === name)!.command;
      for (const option of command.options)
        expect(reference, `${name} ${option.long}`).toContain(option.long!);
    },
  );
});

describe('configuration', () => {
  /** Variables of the configuration table of docs/cli.md that set an option (ORACLE_DEBUG is read by the error reporter). */
  const variables = [
    ...reference
      .split('\n## Configuration\n')[1]!
      .split('\n## ')[0]!
      .matchAll(/^\| `(ORACLE_[A-Z_]+)` \| `([^`]*)`/gm),
  ];

  it('declares every variable of the docs/cli.md table on the option the table names, and --help shows it', async () => {
    expect(variables.length).toBeGreaterThanOrEqual(10);
    const program = createProgram();
    for (const [, variable, flag] of variables) {
      const [commandName, long] = flag!.includes(' ') ? flag!.split(' ') : [undefined, flag];
      const command =
        commandName === undefined ? program : program.commands.find((c) => c.name() === commandName)!;
      const option = command.options.find((o) => o.long === long);
      expect(option?.envVar, `${flag} ${variable}`).toBe(variable);
      const help = await runOracle([...(commandName === undefined ? [] : [commandName]), '--help']);
      expect(help.stdout.replace(/\s+/g, ' ')).toContain(`env: ${variable})`);
    }
  });
});

describe('--help of the analyst commands', () => {
  it.each(['catalog', 'explain', 'export', 'history', 'value'])(
    '"oracle %s --help" ends with runnable examples',
    async (name) => {
      const result = await runOracle([name, '--help']);
      expect(result.code).toBe(0);
      const examples = result.stdout.split('\nExamples:\n')[1];
      expect(examples, result.stdout).toBeDefined();
      const lines = examples!.trimEnd().split('\n');
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) expect(line).toMatch(new RegExp(`^ {2}\\$ oracle ${name} `));
    },
  );
});
