// @module-tag sqlite-only: the source files' imports: no store
/**
 * The import graph of src/ and sample/: no circle, and every arrow points down the layers.
 *
 * Layers, bottom to top, and what each may import besides itself:
 * - domain: nothing (types, errors, validation, leaf helpers such as time and CSV);
 * - engine: domain (pure pricing);
 * - store: domain, engine;
 * - upstream: domain (the reference-price client, beside the store);
 * - ingest: domain, engine, store. Ingest sits below the service, not above it: the service
 *   is the library every command calls once, `oracle ingest` included, so it calls the
 *   pipeline, and the pipeline needs nothing above the store;
 * - service: everything above;
 * - http: everything above, never cli;
 * - mcp: everything above but http (the Model Context Protocol's tools, an adapter as http is);
 * - cli: everything above, http and mcp, since `oracle serve` and `oracle mcp` start their
 *   servers; neither imports cli, so the adapters share no module but through the layers below;
 * - sample/ (a tool beside bench/ and backtest/): domain only, and nothing in src/ imports it but
 *   the command that loads it for someone with no clone, `oracle demo` (SAMPLE_USERS).
 * Inside the store, the dialects (store/sqlite/, store/pg/) are imported only by the opener
 * (store/open-store.ts), and code outside src/store sees only the interface (store.ts), the
 * opener, the server's self-reopening store over it (watched-store.ts) and location.ts.
 *
 * Every import counts, `import type` included: a circle of types is still a circle to read,
 * and a type from a layer above is an arrow running back up.
 *
 * The service and the domain hold no adapter's wording either: no string names a command-line
 * flag or an `oracle` command. They throw typed errors with data, and the CLI, HTTP and MCP
 * adapters word them (cli/error-wording.ts, http/errors.ts, mcp/server.ts).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

type Layer =
  'domain' | 'engine' | 'store' | 'upstream' | 'ingest' | 'service' | 'http' | 'mcp' | 'cli' | 'sample';

const MAY_IMPORT: Record<Layer, readonly Layer[]> = {
  domain: [],
  engine: ['domain'],
  store: ['domain', 'engine'],
  upstream: ['domain'],
  ingest: ['domain', 'engine', 'store'],
  service: ['domain', 'engine', 'store', 'upstream', 'ingest'],
  http: ['domain', 'engine', 'store', 'upstream', 'ingest', 'service'],
  mcp: ['domain', 'engine', 'store', 'upstream', 'ingest', 'service'],
  cli: ['domain', 'engine', 'store', 'upstream', 'ingest', 'service', 'http', 'mcp'],
  sample: ['domain'],
};

/** The one module of src/ that imports sample/: `oracle demo`, which generates the sample data where there is no clone. */
const SAMPLE_USERS = ['src/cli/commands/demo.ts'];

/** The modules of src/store that code outside it may import. */
const STORE_FACE = [
  'src/store/store.ts',
  'src/store/open-store.ts',
  'src/store/watched-store.ts',
  'src/store/location.ts',
];
const STORE_DIALECTS = ['src/store/sqlite/', 'src/store/pg/'];

type Graph = ReadonlyMap<string, readonly string[]>;

/** A worker started from a module file, `new URL('./x.js', import.meta.url)`: an arrow as real as an import. */
const MODULE_URL = /new URL\(\s*['"](\.{1,2}\/[^'"]+\.js)['"]\s*,\s*import\.meta\.url\s*\)/g;

/**
 * The relative module specifiers of a source text: static imports and re-exports (type-only
 * ones too), `import()` and module URLs. TypeScript's own scanner reads the text, so an
 * import in a comment or a string is not taken for one.
 */
function relativeImports(text: string): string[] {
  const { importedFiles } = ts.preProcessFile(text, true, true);
  const specifiers = [
    ...importedFiles.map((f) => f.fileName),
    ...[...text.matchAll(MODULE_URL)].map((m) => m[1]!),
  ];
  return [...new Set(specifiers.filter((s) => s.startsWith('./') || s.startsWith('../')))];
}

function tsFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => posix.join(dir, f.split('\\').join('/')));
}

/** The graph of `dirs` (paths relative to the root), with the specifiers that name no file. */
function importGraph(dirs: readonly string[]): { graph: Graph; unresolved: string[] } {
  const files = dirs.flatMap(tsFiles);
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  const unresolved: string[] = [];
  for (const file of files) {
    const targets: string[] = [];
    for (const specifier of relativeImports(readFileSync(join(ROOT, file), 'utf8'))) {
      const target = relative(ROOT, join(ROOT, dirname(file), specifier))
        .split('\\')
        .join('/');
      const source = target.replace(/\.js$/, '.ts');
      if (known.has(source)) targets.push(source);
      else if (target.endsWith('.js') || !existsSync(join(ROOT, target)))
        unresolved.push(`${file}: ${specifier}`);
      // Anything else is a data file (../../package.json): not a module of the graph.
    }
    graph.set(file, targets);
  }
  return { graph, unresolved };
}

/** One circle per strongly connected part of the graph, as the path that walks it (first = last). */
function findCycles(graph: Graph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const parts: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const part: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      part.push(member);
    } while (member !== node);
    if (part.length > 1 || (graph.get(node) ?? []).includes(node)) parts.push(part);
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return parts.map((part) => circleThrough(graph, new Set(part)));
}

/** A shortest path from the first member (in name order) of a strongly connected part back to it. */
function circleThrough(graph: Graph, part: ReadonlySet<string>): string[] {
  const start = [...part].sort()[0]!;
  const previous = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i]!;
    for (const next of graph.get(node) ?? []) {
      if (!part.has(next)) continue;
      if (next === start) {
        const path = [start];
        for (let at = node; at !== start; at = previous.get(at)!) path.splice(1, 0, at);
        return [...path, start];
      }
      if (!previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  throw new Error(`no circle through ${start}`);
}

/** The CLI's commands, named by their modules (src/cli/commands/watch-add.ts: `watch`). */
const COMMANDS = [
  ...new Set(readdirSync(join(ROOT, 'src/cli/commands')).map((f) => f.replace(/(-.*)?\.ts$/, ''))),
];

/** A command line in a message: a flag (`--at`) or an `oracle` command (`oracle ingest`). */
const COMMAND_LINE = new RegExp(`(?:^|[\\s'"(\`])--[a-z]|\\boracle (?:${COMMANDS.join('|')})\\b`);

/**
 * Strings the service itself sends that name a command: a webhook's text (`oracle watch 3 "label"`)
 * says which rule fired, the one message the service words, as no adapter is there to do it.
 */
const SENT_BY_THE_SERVICE = [{ file: 'src/service/watch.ts', text: 'oracle watch ' }];

/** The string literals and template texts of a source that name a command line, as `file: text`. */
function commandLineStrings(file: string, text: string): string[] {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, text);
  const found: string[] = [];
  const check = (literal: string) => {
    if (!COMMAND_LINE.test(literal)) return;
    if (SENT_BY_THE_SERVICE.some((s) => s.file === file && literal.startsWith(s.text))) return;
    found.push(`${file}: ${literal}`);
  };
  // Braces open inside each template's current `${...}`: at its own `}` the template goes on.
  const templates: number[] = [];
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    if (kind === ts.SyntaxKind.OpenBraceToken && templates.length > 0) templates[templates.length - 1]! += 1;
    else if (kind === ts.SyntaxKind.CloseBraceToken && templates.length > 0) {
      if (templates.at(-1)! > 0) templates[templates.length - 1]! -= 1;
      else {
        if (scanner.reScanTemplateToken(false) === ts.SyntaxKind.TemplateTail) templates.pop();
        check(scanner.getTokenValue());
      }
    } else if (kind === ts.SyntaxKind.SlashToken || kind === ts.SyntaxKind.SlashEqualsToken) {
      scanner.reScanSlashToken();
    } else if (kind === ts.SyntaxKind.TemplateHead) {
      templates.push(0);
      check(scanner.getTokenValue());
    } else if (kind === ts.SyntaxKind.StringLiteral || kind === ts.SyntaxKind.NoSubstitutionTemplateLiteral) {
      check(scanner.getTokenValue());
    }
  }
  return found;
}

function layerOf(file: string): Layer | undefined {
  if (file.startsWith('sample/')) return 'sample';
  const folder = /^src\/([^/]+)\//.exec(file)?.[1];
  return folder !== undefined && folder in MAY_IMPORT ? (folder as Layer) : undefined;
}

/** Every arrow of `graph` the layers forbid, as `from -> to (why)`. */
function layerViolations(graph: Graph, allowed: readonly (readonly [string, string])[] = []): string[] {
  const excused = new Set(allowed.map(([from, to]) => `${from} -> ${to}`));
  const found: string[] = [];
  for (const [from, targets] of graph) {
    const layer = layerOf(from);
    if (layer === undefined) {
      found.push(`${from} is in no layer`);
      continue;
    }
    for (const to of targets) {
      const arrow = `${from} -> ${to}`;
      if (excused.has(arrow)) continue;
      const target = layerOf(to);
      if (target === undefined) found.push(`${arrow} (${to} is in no layer)`);
      else if (target === 'sample' && SAMPLE_USERS.includes(from)) continue;
      else if (target !== layer && !MAY_IMPORT[layer].includes(target))
        found.push(`${arrow} (${layer} may not import ${target})`);
      else if (target === 'store' && layer !== 'store' && !STORE_FACE.includes(to))
        found.push(`${arrow} (outside src/store, import only ${STORE_FACE.join(', ')})`);
      else if (
        STORE_DIALECTS.some((d) => to.startsWith(d) && !from.startsWith(d)) &&
        from !== 'src/store/open-store.ts'
      ) {
        found.push(`${arrow} (a store dialect is imported only by src/store/open-store.ts)`);
      }
    }
  }
  return found.sort();
}

describe('the checker', () => {
  it('reads static, type-only, re-exported and dynamic imports and module URLs, not comments or strings', () => {
    const text = [
      "import { a } from './a.js';",
      "import type {\n  B,\n  C,\n} from '../b.js';",
      "export { d } from './d.js';",
      "export * from './e.js';",
      "import './f.js';",
      "const g = await import('./g.js');",
      "const worker = new URL('../h.js', import.meta.url);",
      "import pg from 'pg';",
      "// import { x } from './commented.js';",
      "/* export { y } from './also-commented.js'; */",
      'const s = "import { z } from \'./in-a-string.js\'";',
    ].join('\n');
    expect(relativeImports(text).sort()).toEqual([
      '../b.js',
      '../h.js',
      './a.js',
      './d.js',
      './e.js',
      './f.js',
      './g.js',
    ]);
  });

  it('finds a fabricated circle and walks it', () => {
    const graph: Graph = new Map([
      ['src/engine/a.ts', ['src/engine/b.ts']],
      ['src/engine/b.ts', ['src/engine/c.ts', 'src/engine/d.ts']],
      ['src/engine/c.ts', ['src/engine/a.ts']],
      ['src/engine/d.ts', []],
      ['src/engine/self.ts', ['src/engine/self.ts']],
    ]);
    expect(findCycles(graph)).toEqual(
      expect.arrayContaining([
        ['src/engine/a.ts', 'src/engine/b.ts', 'src/engine/c.ts', 'src/engine/a.ts'],
        ['src/engine/self.ts', 'src/engine/self.ts'],
      ]),
    );
    expect(findCycles(graph)).toHaveLength(2);
    expect(
      findCycles(
        new Map([
          ['src/engine/a.ts', ['src/engine/b.ts']],
          ['src/engine/b.ts', []],
        ]),
      ),
    ).toEqual([]);
  });

  it('reports arrows that run back up, into a dialect or past the store interface', () => {
    const graph: Graph = new Map([
      ['src/domain/a.ts', ['src/engine/b.ts']],
      ['src/engine/b.ts', ['src/domain/a.ts']],
      ['src/http/c.ts', ['src/cli/d.ts', 'src/store/open-store.ts']],
      ['src/cli/d.ts', ['src/http/c.ts']],
      ['src/service/e.ts', ['src/store/sqlite/connection.ts', 'src/store/lock-wait.ts']],
      ['src/store/pg/f.ts', ['src/store/sqlite/g.ts', 'src/store/store.ts']],
      ['sample/h.ts', ['src/engine/b.ts']],
      ['src/i.ts', []],
    ]);
    expect(layerViolations(graph, [['sample/h.ts', 'src/engine/b.ts']])).toEqual([
      'src/domain/a.ts -> src/engine/b.ts (domain may not import engine)',
      'src/http/c.ts -> src/cli/d.ts (http may not import cli)',
      'src/i.ts is in no layer',
      'src/service/e.ts -> src/store/lock-wait.ts (outside src/store, import only src/store/store.ts, src/store/open-store.ts, src/store/watched-store.ts, src/store/location.ts)',
      'src/service/e.ts -> src/store/sqlite/connection.ts (outside src/store, import only src/store/store.ts, src/store/open-store.ts, src/store/watched-store.ts, src/store/location.ts)',
      'src/store/pg/f.ts -> src/store/sqlite/g.ts (a store dialect is imported only by src/store/open-store.ts)',
    ]);
  });
});

describe('src/ and sample/', () => {
  const { graph, unresolved } = importGraph(['src', 'sample']);

  it('import only modules that exist', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(unresolved).toEqual([]);
  });

  it('form no import circle', () => {
    const cycles = findCycles(graph).map((cycle) => cycle.join(' -> '));
    expect(cycles, `import circles:\n${cycles.join('\n')}`).toEqual([]);
  });

  it('import only down the layers', () => {
    expect(layerViolations(graph)).toEqual([]);
  });
});

describe('the wording of src/service and src/domain', () => {
  it('finds a flag or a command in strings and template texts, not in comments or regular expressions', () => {
    const text = [
      "const a = 'run oracle price --at 2026-01-01';",
      'const b = `see (oracle catalog --search)`;',
      'const c = `for ${key} run oracle snapshot ${id}`;',
      '// oracle ingest --kind catalog',
      'const d = /--[a-z]+/;',
      "const e = 'a price of oracle, the library';",
      "const f = 'x - y -- z';",
    ].join('\n');
    expect(commandLineStrings('src/service/x.ts', text)).toEqual([
      'src/service/x.ts: run oracle price --at 2026-01-01',
      'src/service/x.ts: see (oracle catalog --search)',
      'src/service/x.ts:  run oracle snapshot ',
    ]);
  });

  it('names no command-line flag and no oracle command: the adapters word errors', () => {
    const found = ['src/service', 'src/domain']
      .flatMap(tsFiles)
      .flatMap((file) => commandLineStrings(file, readFileSync(join(ROOT, file), 'utf8')));
    expect(found).toEqual([]);
  });
});
