/**
 * The commander program: every command, option and help text of CONTRACT.md in one place.
 * Actions import their command module only when run, so each command loads only what it needs.
 */
import { Command, Option } from 'commander';
import type { CommandContext } from './context.js';
import { resolveContext } from './context.js';
import { VERSION } from './version.js';


type Action = (args: unknown[], ctx: CommandContext) => Promise<number>;

/** Wraps a lazily imported command so its result becomes the exit code. */
function lazy(load: () => Promise<{ run: Action }>) {
  return async (...args: unknown[]) => {
    const command = args[args.length - 1] as Command;
    const ctx = resolveContext(command);
    const { run } = await load();
    const code = await run(args.slice(0, -1), ctx);
    if (code !== 0) process.exitCode = code;
  };
}

/** The `Examples:` block shown after a command's options in its --help. */
function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((line) => `  $ ${line}`).join('\n')}\n`;
}

/** The pricing options every pricing command shares (same names, ranges and defaults as the API). */
const windowHoursOption = () => new Option('--window-hours <n>', 'TWAP lookback in hours, 1-72').default('24');
const outlierStddevsOption = () =>
  new Option('--outlier-stddevs <n>', 'outlier threshold in robust standard deviations, 1-10').default('2');
const refsourceOption = () => new Option('--refsource <id>', 'address the product by its reference-source id instead');

export function createProgram(): Command {
  const program = new Command('oracle')
    .description('Open price oracle for collectible trading cards: TWAP prices with outlier filtering over a local SQLite file.')
    .version(VERSION, '-V, --version')
    .option('--db <path>', 'SQLite database file (env ORACLE_DB)', undefined)
    .exitOverride()
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({ outputError: (text, write) => write(`oracle: ${text.replace(/^error: /, '')}`) });

  program
    .command('ingest')
    .description('load observation or catalog records from files, stdin (-) or http(s) URLs; *.gz is decompressed')
    .argument('<source...>', "file path, '-' for stdin, or an http(s) URL")
    .addOption(new Option('--kind <kind>', 'record kind (default: detected from the header or keys)').choices(['observations', 'catalog']))
    .option('--format <format>', 'csv | ndjson | json | pricecharting | tcgplayer | sold-listings (default: from the extension, else sniffed)')
    .option('--rejects <file>', 'write rejected records as NDJSON {source, line, reason, record}')
    .option('--max-rejects <n>', 'exit 3 when more records than n are rejected', '0')
    .option('--dry-run', 'validate and report, write nothing')
    .option('--observed-at <time>', 'observation time for price-guide rows (pricecharting, tcgplayer), ISO-8601 with zone, at most 5 minutes ahead (default: now)')
    .option('--subtype <name>', 'tcgplayer: read only this printing (default: every printing, each on its own product)')
    .option('--lock-wait <seconds>', 'how long to wait for another writer of the database before giving up', '600')
    .action(lazy(() => import('./commands/ingest.js')));

  program
    .command('price')
    .description('price one product: the ungraded price and the grader x grade matrix')
    .argument('[product_key]', 'catalog key of the product')
    .addOption(refsourceOption())
    .addOption(windowHoursOption())
    .addOption(outlierStddevsOption())
    .option('--at <time>', 'price as of this ISO-8601 time with zone, now at the latest (default: now)')
    .option('--json', 'print exactly the API body')
    .action(lazy(() => import('./commands/price.js')));

  program
    .command('history')
    .description('price history of a product: a chart of each slot, first/last/min/max and the change over 7, 30 and 90 days')
    .argument('[product_key]', 'catalog key of the product')
    .addOption(refsourceOption())
    .option('--slots <list>', 'comma-separated slots: ungraded, psa10, bgs9 ... (grader and grade 7-10)', 'ungraded,psa10')
    .option('--from <time>', 'first instant, ISO-8601 with zone (default: 90 days before --to)')
    .option('--to <time>', 'last instant, ISO-8601 with zone (default: now)')
    .option('--every <step>', 'step between points: <n>h, <n>d or <n>w (at most 1,000 points)', '1d')
    .addOption(windowHoursOption())
    .addOption(outlierStddevsOption())
    .option('--json', 'print {product_key, slots, every, points: [{at, <slot>: {price_minor, confidence}}]} (the API body)')
    .option('--csv', 'print CSV: at, then per slot its price and interval in cents')
    .addHelpText(
      'after',
      examples(
        'oracle history pokemon-base-set-charizard-4-102',
        'oracle history --refsource 631245 --slots ungraded,psa9,bgs10 --every 1w --from 2026-01-01T00:00:00Z',
        'oracle history pokemon-base-set-charizard-4-102 --every 1h --from 2026-11-20T00:00:00Z --csv > hourly.csv',
      ),
    )
    .action(lazy(() => import('./commands/history.js')));

  program
    .command('value')
    .description("value a collection: each line's unit price, interval and subtotal, the total with its interval, the gain against cost basis")
    .argument('<collection.csv>', "CSV with product_key or refsource_id, condition, quantity[, cost_basis_minor]; '-' for stdin")
    .option('--at <time>', 'value as of this ISO-8601 time with zone (default: now)')
    .addOption(windowHoursOption())
    .addOption(outlierStddevsOption())
    .option('--json', 'print {at, lines, total, problems} as JSON')
    .option('--csv', 'print CSV: one row per line, then a total row')
    .addHelpText(
      'after',
      examples('oracle value my-cards.csv', 'oracle value my-cards.csv --at 2026-10-01T00:00:00Z --csv > value-october.csv'),
    )
    .action(lazy(() => import('./commands/value.js')));

  program
    .command('export')
    .description("every product's bundle as of one instant, streamed as NDJSON or CSV: the bulk dump")
    .option('--at <time>', 'price as of this ISO-8601 time with zone (default: now)')
    .addOption(new Option('--format <format>', 'ndjson: one API bundle per line; csv: one row per product, every slot in cents').choices(['ndjson', 'csv']).default('ndjson'))
    .option('--out <file>', 'write to this file (via <file>.partial, renamed when complete) instead of stdout')
    .addOption(windowHoursOption())
    .addOption(outlierStddevsOption())
    .addHelpText(
      'after',
      examples('oracle export --out prices.ndjson', 'oracle export --at 2026-11-01T00:00:00Z --format csv --out prices-2026-11-01.csv'),
    )
    .action(lazy(() => import('./commands/export.js')));

  program
    .command('explain')
    .description('the evidence behind one slot\'s price: every observation read, kept or why not, its weight, and each step to the price')
    .argument('[product_key]', 'catalog key of the product')
    .option('--slot <slot>', 'the slot to explain: ungraded or a grader and grade 7-10 (psa9, bgs10 ...)')
    .addOption(refsourceOption())
    .addOption(windowHoursOption())
    .addOption(outlierStddevsOption())
    .option('--at <time>', 'as of this ISO-8601 time with zone, now at the latest (default: now)')
    .option('--json', 'print {product_key, slot, price_minor, points: [{condition, observed_at, source, price_minor, kept, reason, z, weight}], steps: [{name, section, doc, text, value_minor, value_ln, inputs}]} (the API body)')
    .addHelpText(
      'after',
      examples(
        'oracle explain pokemon-base-set-charizard-4-102 --slot psa9',
        'oracle explain --refsource 631245 --slot ungraded --at 2026-11-01T00:00:00Z',
        'oracle explain pokemon-base-set-charizard-4-102 --slot bgs10 --json | jq \'.points[] | select(.kept | not)\'',
      ),
    )
    .action(lazy(() => import('./commands/explain.js')));

  program
    .command('snapshot')
    .description('price a product as of a past UTC date (window 00:00Z of the date to 00:00Z of the next)')
    .argument('<refsource_id>', 'reference-source id of the product')
    .requiredOption('--date <YYYY-MM-DD>', 'the date, today (UTC) at the latest')
    .addOption(outlierStddevsOption())
    .option('--json', 'print exactly the API body')
    .action(lazy(() => import('./commands/snapshot.js')));

  program
    .command('calibrate')
    .description('fit grader premiums and grade ratios from the observations before --at and store them (the engine prices with the newest fit as of each instant); --show prints the stored one')
    .option('--at <time>', 'fit from the observations before this ISO-8601 time with zone (default: now)')
    .option('--show', 'print the calibration the engine uses at --at instead of fitting a new one')
    .option('--json', 'print the calibration as JSON')
    .action(lazy(() => import('./commands/calibrate.js')));

  program
    .command('catalog')
    .description('list or search tracked products: key, name, set and observation count')
    .option('--json', 'print exactly the API body ({total, products})')
    .option('--search <text>', 'full-text search: every word, in any order, as a prefix of name, set, subtitle or key; best first')
    .addHelpText('after', examples('oracle catalog --search "base charizard 4/102"', 'oracle catalog --search "char 4/102" --json'))
    .action(lazy(() => import('./commands/catalog.js')));

  const keys = program.command('keys').description('manage API keys for oracle serve');
  keys
    .command('create')
    .description('create a key and print it once (only its hash is stored)')
    .requiredOption('--label <name>', 'who or what the key is for')
    .action(lazy(() => import('./commands/keys-create.js')));
  keys
    .command('list')
    .description('list keys: id, label, created, last used, revoked')
    .option('--json', 'print JSON')
    .action(lazy(() => import('./commands/keys-list.js')));
  keys
    .command('revoke')
    .description('revoke a key at once')
    .argument('<key-id>', 'the id shown by keys list')
    .action(lazy(() => import('./commands/keys-revoke.js')));

  program
    .command('serve')
    .description('serve the read-only JSON API of SPEC.md')
    .option('--host <addr>', 'address to listen on (env ORACLE_HOST, default 127.0.0.1)')
    .option('--port <n>', 'port, 0 for any free one (env ORACLE_PORT, default 8080)')
    .option('--rate-limit <n>', 'requests per minute per key on pricing routes (env ORACLE_RATE_LIMIT, default 120)')
    .option('--refsource-url <template>', 'upstream URL template containing {id} (env ORACLE_REFSOURCE_URL)')
    .option('--offline', 'resolve reference-source ids from the local catalog only')
    .option('--redis <url>', 'keep the rate limit in Redis, shared by every replica: redis://host:port[/db] (env ORACLE_REDIS_URL)')
    .option('--metrics', 'serve Prometheus metrics at GET /metrics (env ORACLE_METRICS=1)')
    .option('--cors <origin>', 'let browsers on this origin (or comma-separated origins, or *) call the API (env ORACLE_CORS_ORIGIN)')
    .action(lazy(() => import('./commands/serve.js')));

  for (const command of [program, ...program.commands, ...keys.commands]) {
    command.exitOverride();
  }
  return program;
}
