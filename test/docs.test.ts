// @module-tag sqlite-only: the docs against --help: no store
/**
 * docs/cli.md is generated from docs/cli.template.md and the built CLI's --help
 * (scripts/cli-reference.js, `npm run docs:cli`). Rendered again here, it must be what is
 * committed, and every command must have a description and its own section, as sqlite-utils'
 * tests/test_docs.py checks its CLI reference.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  REFERENCE,
  TEMPLATE,
  commandsWithHelp,
  helpBlock,
  renderReference,
} from '../scripts/cli-reference.js';

const commands = commandsWithHelp();
const reference = readFileSync(REFERENCE, 'utf8');
const template = readFileSync(TEMPLATE, 'utf8');
const STALE = 'docs/cli.md is out of date: run npm run docs:cli';

describe('docs/cli.md', () => {
  it('walks every command and subcommand of the CLI', () => {
    expect(commands.map((c) => c.name)).toEqual(
      expect.arrayContaining(['oracle', 'oracle ingest', 'oracle keys', 'oracle keys create']),
    );
    expect(commands.length).toBeGreaterThanOrEqual(15);
  });

  it.each(commands.map((c) => [c.name, c] as const))(
    '"%s" has a description, a section and its current --help',
    (name, command) => {
      const description = command.help.split('\n\n')[1] ?? '';
      expect(description.trim().length, `${name} has no description`).toBeGreaterThan(10);
      expect(template, `docs/cli.template.md has no <!-- help: ${name} --> section`).toContain(
        `<!-- help: ${name} -->`,
      );
      expect(reference.includes(helpBlock(command)), `${STALE} ("${name} --help" changed)`).toBe(true);
    },
  );

  it('is exactly what npm run docs:cli writes', () => {
    expect(reference === renderReference(template, commands), STALE).toBe(true);
  });

  it('refuses a template that lacks a command or names one that does not exist', () => {
    const without = template.replace('<!-- help: oracle keys revoke -->', '');
    expect(() => renderReference(without, commands)).toThrow(
      /no <!-- help: \.\.\. --> section for: oracle keys revoke/,
    );
    expect(() => renderReference(`${template}\n<!-- help: oracle frobnicate -->\n`, commands)).toThrow(
      /do not exist: oracle frobnicate/,
    );
  });
});

describe('README.md', () => {
  // Issue 20: the README is what a newcomer reads in five minutes; the reference lives in docs/.
  it('stays at most 200 lines, with the two set-up commands', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    expect(readme.trimEnd().split('\n').length).toBeLessThanOrEqual(200);
    expect(readme).toContain('npm ci && npm run demo');
    expect(readme).toMatch(/^npm test\b/m);
  });
});
