/**
 * The commander program: every command, option and help text of CONTRACT.md in one place.
 * Actions import their command module only when run, so each command loads only what it needs
 * (every start-up tuning: docs/development.md, "Start-up and process tuning").
 */
import { Command, Option } from 'commander';
import { UNGRADED } from '../domain/conditions.js';
import { every, HISTORY_DEFAULT_EVERY, HISTORY_DEFAULT_SLOTS, slots, stepMs } from '../domain/history.js';
import { slot as slotInput } from '../domain/evidence.js';
import { SALES_LIMIT, salesLimit, span } from '../domain/sales.js';
import {
  MOVERS_DEFAULT_SPAN,
  MOVERS_LIMIT,
  MOVERS_MIN_OBSERVATIONS,
  moversCondition,
  moversLimit,
} from '../domain/movers.js';
import { instant, observedAt, snapshotDate, snapshotWindow } from '../domain/params.js';
import { indexVersion } from '../domain/market-index.js';
import { searchText } from '../domain/search.js';
import { FORMAT_NAMES } from '../ingest/formats/names.js';
import type { CommandContext, ProgramDeps } from './context.js';
import { processDeps, resolveContext } from './context.js';
import { EXIT } from './exit-codes.js';
import { applyEnv } from './option-env.js';
import {
  atOption,
  configOption,
  dbOption,
  labelOption,
  outlierStddevsOption,
  currencyOption,
  refsourceOption,
  refuseEmptyFlags,
  schemaOption,
  TIME_FORMS,
  viaSchema,
  windowHoursOption,
  wholeNumberOption,
  lockWaitOption,
  urlDeadlineOption,
  urlMinRateOption,
  urlMinRateTimeOption,
  LOCK_WAIT_DEFAULT_S,
  INGEST_LOCK_WAIT_DEFAULT_S,
} from './options.js';
import { serveOptions } from './serve-config.js';
import { eventsLimitOption, watchAddOptions, webhookOption } from './watch-options.js';
import { VERSION } from './version.js';

type Action = (args: unknown[], ctx: CommandContext) => Promise<number>;

/** The program of one run: `exitCode` is what the command it ran returned. */
export class OracleProgram extends Command {
  exitCode: number = EXIT.ok;
}

/** The `Examples:` block shown after a command's options in its --help. */
function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((line) => `  $ ${line}`).join('\n')}\n`;
}

/**
 * The command `argv` (node, script, then the arguments) runs: its first operand, after the
 * program's own options (`--db <path>`, `--wide`, `--no-color`); null for `--version`, which
 * runs none. Undefined when another option comes first (`--help`, a mistake) or there is no
 * operand, so the program is then whole, as its help and its errors need.
 */
function commandNamed(argv: readonly string[] | undefined): string | null | undefined {
  if (argv === undefined) return undefined;
  for (let i = 2; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--db') i++;
    else if (arg.startsWith('--db=') || arg === '--wide' || arg === '--no-color') continue;
    else if (arg === '--version' || arg === '-V') return null;
    else return arg.startsWith('-') ? undefined : arg;
  }
  return undefined;
}

/**
 * The program of one run over `deps`: its streams, the environment its options' variables come
 * from, and its clock, read once here: `--at` and `--observed-at` are checked against it and
 * commands get it in their context. Nothing is read or written until it parses. Given the
 * `argv` it will parse, it holds only the command that names, when it names one.
 */
/** What names a product on the command line: its key, its exact name, or a phrase matching one product (service/search.ts). */
const PRODUCT_ARGUMENT =
  "catalog key of the product, or its exact name (a card's name is that card, not its parallels) or words naming one product";

export function createProgram(deps: ProgramDeps = processDeps(), argv?: readonly string[]): OracleProgram {
  const now = typeof deps.now === 'function' ? deps.now() : deps.now;
  const program = new OracleProgram('oracle');
  /** Wraps a lazily imported command so its result becomes the run's exit code. */
  const lazy_ =
    (load: () => Promise<{ run: Action }>) =>
    async (...args: unknown[]) => {
      const command = args[args.length - 1] as Command;
      const { run } = await load();
      program.exitCode = await run(args.slice(0, -1), resolveContext(command, deps, now));
    };
  const named = commandNamed(argv);
  // The program's --version only before a command: after one it is the command's own (`index show --version 2`).
  if (typeof named !== 'string') program.version(VERSION, '-V, --version');
  program
    .description(
      'Open price oracle for collectible trading cards: TWAP prices with outlier filtering over a local SQLite file.',
    )
    .addOption(dbOption())
    .option(
      '--wide',
      'tables and views at their full width: no value cut, no line wrapped (for a pipe or a file; --json and --csv too)',
    )
    .option(
      '--no-color',
      'no colour, as with NO_COLOR set or when stdout is no terminal (FORCE_COLOR=1 forces it on)',
    )
    .exitOverride()
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({
      writeOut: (text) => deps.stdout.write(text),
      writeErr: (text) => deps.stderr.write(text),
      // Commander's own width when the stream is no terminal.
      getOutHelpWidth: () => (deps.stdout.isTTY ? deps.stdout.columns : undefined) ?? 80,
      getErrHelpWidth: () => (deps.stderr.isTTY ? deps.stderr.columns : undefined) ?? 80,
      outputError: (text, write) => write(`oracle: ${text.replace(/^error: /, '')}`),
    })
    .hook('preAction', (_program, command) => applyEnv(command, deps.env));

  // Each command's definition, in the order --help lists them. A run that names its command
  // defines only that one, `--version` none (commandNamed): declaring every command's options is a share of every
  // start (bench/findings.md, 10a), and a command's parse and help do not depend on the others.
  const commands: Record<string, () => void> = {
    ingest: () => {
      program
        .command('ingest')
        .description(
          'load observation or catalog records from files, stdin (-) or http(s) URLs; *.gz is decompressed',
        )
        .argument('<source...>', "file path, '-' for stdin, or an http(s) URL")
        .addOption(
          new Option('--kind <kind>', 'record kind (default: detected from the header or keys)').choices([
            'observations',
            'catalog',
          ]),
        )
        .addOption(
          new Option('--format <format>', 'input format (default: from the extension, else sniffed)').choices(
            FORMAT_NAMES,
          ),
        )
        .option('--rejects <file>', 'write rejected records as NDJSON {source, line, reason, record}')
        .addOption(
          wholeNumberOption('--max-rejects <n>', 'exit 3 when more records than n are rejected', {
            min: 0,
            default: 0,
          }),
        )
        .option('--dry-run', 'validate and report, write nothing')
        .addOption(
          configOption(
            '--observed-at <time>',
            `observation time for price-guide rows (pricecharting, tcgplayer, tcgplayer-prices, scryfall): ${TIME_FORMS}; a date alone is its 00:00Z; at most 5 minutes ahead ` +
              "(default: pricecharting: 00:00Z of today, the guide's value for the day; tcgplayer: the latest 20:00Z, tcgcsv's daily refresh; " +
              'tcgplayer-prices: 20:00Z of the YYYY-MM-DD date in its path, else the latest 20:00Z; ' +
              'scryfall: the time in its name, default-cards-<YYYYMMDDhhmmss>.json, else required)',
            { parse: viaSchema(instant, (text, name) => observedAt(text, now, name)) },
          ),
        )
        .option(
          '--subtype <name>',
          'tcgplayer: read only this printing (default: every printing, each on its own product)',
        )
        .option(
          '--groups <source>',
          "tcgplayer --kind catalog: the category's tcgcsv groups (Groups.csv or groups JSON; path or URL) for set names and dates",
        )
        .addOption(lockWaitOption(INGEST_LOCK_WAIT_DEFAULT_S))
        .addOption(urlDeadlineOption())
        .addOption(urlMinRateOption())
        .addOption(urlMinRateTimeOption())
        .action(lazy_(() => import('./commands/ingest.js')));
    },
    price: () => {
      program
        .command('price')
        .description('price one product: the ungraded price and the grader x grade matrix')
        .argument('[product_key]', PRODUCT_ARGUMENT)
        .addOption(refsourceOption())
        .addOption(windowHoursOption())
        .addOption(outlierStddevsOption())
        .addOption(atOption(now, 'price as of this time, now at the latest'))
        .addOption(currencyOption())
        .option(
          '--extra-grades',
          'also the grades outside the matrix that have sales of their own in the 30 days: half grades (BGS 9.5), other graders (TAG 10), CGC Pristine, BGS Black Label',
        )
        .option('--json', 'print exactly the API body (with --extra-grades: plus extra_grades)')
        .action(lazy_(() => import('./commands/price.js')));
    },
    history: () => {
      program
        .command('history')
        .description(
          'price history of a product: a chart of each slot, first/last/min/max and the change over 7, 30 and 90 days',
        )
        .argument('[product_key]', PRODUCT_ARGUMENT)
        .addOption(refsourceOption())
        .addOption(
          schemaOption(
            '--slots <list>',
            'comma-separated slots: ungraded, psa10, "PSA 10", bgs9 ... (grader and grade 7-10)',
            slots,
            { default: HISTORY_DEFAULT_SLOTS.join(',') },
          ),
        )
        .addOption(
          schemaOption(
            '--from <time>',
            `first instant: ${TIME_FORMS}; a date alone is its 00:00Z (default: 90 days before --to)`,
            instant,
            { default: undefined },
          ),
        )
        .addOption(
          schemaOption(
            '--to <time>',
            `last instant: ${TIME_FORMS}; a date alone is its end (default: now)`,
            instant,
            { default: undefined },
          ),
        )
        .addOption(
          schemaOption(
            '--every <step>',
            'step between points: <n>h, <n>d or <n>w (at most 1,000 points)',
            every,
            { default: HISTORY_DEFAULT_EVERY },
          ),
        )
        .addOption(windowHoursOption())
        .addOption(outlierStddevsOption())
        .addOption(currencyOption())
        .option(
          '--json',
          'print {product_key, slots, every, points: [{at, <slot>: {price_minor, confidence}}]} (the API body; with --currency each slot also has converted)',
        )
        .addOption(
          new Option('--csv', 'print CSV: at, then per slot its price and interval in cents').conflicts(
            'json',
          ),
        )
        .addHelpText(
          'after',
          examples(
            'oracle history pokemon-base-set-charizard-4-102',
            'oracle history --refsource 631245 --slots ungraded,psa9,bgs10 --every 1w --from 2026-01-01',
            'oracle history pokemon-base-set-charizard-4-102 --every 1h --from 7d --csv > hourly.csv',
          ),
        )
        .action(lazy_(() => import('./commands/history.js')));
    },
    value: () => {
      program
        .command('value')
        .description(
          "value a collection: each line's unit price, interval and subtotal, the total with its interval, the gain against cost basis",
        )
        .argument(
          '<collection.csv>',
          "CSV with product_key or refsource_id, condition, quantity[, cost_basis ($12.50) or cost_basis_minor (cents)]; '-' for stdin",
        )
        .addOption(atOption(now, 'value as of this time, now at the latest'))
        .addOption(
          new Option(
            '--history',
            "the collection's value at every step of a span, charted, instead of at one instant",
          ).conflicts('at'),
        )
        .addOption(
          schemaOption(
            '--from <time>',
            `with --history: first instant: ${TIME_FORMS}; a date alone is its 00:00Z (default: 90 days before --to)`,
            instant,
            { default: undefined },
          ),
        )
        .addOption(
          schemaOption(
            '--to <time>',
            `with --history: last instant: ${TIME_FORMS}; a date alone is its end (default: now)`,
            instant,
            { default: undefined },
          ),
        )
        .addOption(
          configOption(
            '--every <step>',
            'with --history: step between points, <n>h, <n>d or <n>w, at most 1,000 points (default: 1d)',
            { parse: viaSchema(every) },
          ),
        )
        .addOption(windowHoursOption())
        .addOption(outlierStddevsOption())
        // The value over time in another currency is not built yet: refused rather than shown in dollars.
        .addOption(currencyOption().conflicts('history'))
        .option(
          '--json',
          'print {at, lines, total, problems} as JSON (with --currency each line and the total also have converted; with --history: {from, to, every, lines, cost_basis_minor, points, change_minor, change_pct, gain_minor, problems})',
        )
        .addOption(
          new Option(
            '--csv',
            'print CSV: one row per line, then a total row (with --history: at, value_minor, priced_lines)',
          ).conflicts('json'),
        )
        .addHelpText(
          'after',
          examples(
            'oracle value my-cards.csv',
            'oracle value my-cards.csv --at 2026-09-30 --csv > value-october.csv',
            'oracle value my-cards.csv --history --from 90d --every 1w',
          ),
        )
        .action(lazy_(() => import('./commands/value.js')));
    },
    export: () => {
      program
        .command('export')
        .description("every product's bundle as of one instant, streamed as NDJSON or CSV: the bulk dump")
        .addOption(atOption(now, 'price as of this time, now at the latest'))
        .addOption(
          new Option(
            '--format <format>',
            'ndjson: one API bundle per line; csv: one row per product, every slot in cents',
          )
            .choices(['ndjson', 'csv'])
            .default('ndjson'),
        )
        .option(
          '--out <file>',
          'write to this file (via <file>.partial, renamed when complete) instead of stdout',
        )
        .addOption(windowHoursOption())
        .addOption(outlierStddevsOption())
        .addOption(currencyOption())
        .addHelpText(
          'after',
          examples(
            'oracle export --out prices.ndjson',
            'oracle export --at 2026-11-01T00:00:00Z --format csv --out prices-2026-11-01.csv',
          ),
        )
        .action(lazy_(() => import('./commands/export.js')));
    },
    explain: () => {
      program
        .command('explain')
        .description(
          "the evidence behind one slot's price: every observation read, kept or why not, its weight, and each step to the price",
        )
        .argument('[product_key]', PRODUCT_ARGUMENT)
        .option(
          '--slot <slot>',
          'the slot to explain: ungraded, or a grader and grade as written (psa9, "PSA 9", "BGS 9.5", "TAG 10", "CGC Pristine 10")',
        )
        .addOption(refsourceOption())
        .addOption(windowHoursOption())
        .addOption(outlierStddevsOption())
        .addOption(atOption(now, 'as of this time, now at the latest'))
        .addOption(currencyOption())
        .option(
          '--json',
          'print {product_key, slot, price_minor, points: [{condition, observed_at, source, price_minor, kept, reason, z, weight}], steps: [{name, section, doc, text, value_minor, value_ln, inputs}]} (the API body; with --currency also converted)',
        )
        .addHelpText(
          'after',
          examples(
            'oracle explain pokemon-base-set-charizard-4-102 --slot psa9',
            'oracle explain --refsource 631245 --slot ungraded --at 30d',
            "oracle explain pokemon-base-set-charizard-4-102 --slot bgs10 --json | jq '.points[] | select(.kept | not)'",
          ),
        )
        .action(lazy_(() => import('./commands/explain.js')));
    },
    sales: () => {
      program
        .command('sales')
        .description(
          'the recent observations of a product, newest first: date, condition, source, price, kept in the price or why not',
        )
        .argument('[product_key]', PRODUCT_ARGUMENT)
        .addOption(refsourceOption())
        .addOption(
          configOption(
            '--condition <condition>',
            'only this condition, as written: ungraded, psa10, "PSA 10", "BGS 9.5" (default: every condition)',
            { parse: viaSchema(slotInput) },
          ),
        )
        .addOption(
          configOption(
            '--span <span>',
            'only the observations of this span before --at: 12h, 30d, 2w (default: everything its price read)',
            { parse: viaSchema(span, stepMs) },
          ),
        )
        .addOption(
          schemaOption(
            '--limit <n>',
            `the most observations listed, ${SALES_LIMIT.min}-${SALES_LIMIT.max}`,
            salesLimit,
            { default: SALES_LIMIT.default },
          ),
        )
        .addOption(atOption(now, 'as of this time, now at the latest'))
        .addOption(windowHoursOption())
        .addOption(outlierStddevsOption())
        .addOption(currencyOption())
        .option(
          '--json',
          'print {product_key, product_name, condition, as_of, since, total, kept, limit, sales: [{condition, observed_at, source, price_minor, kept, reason, z, weight}]} (the API body; with --currency each sale also has converted_minor, the body converted)',
        )
        .addOption(
          new Option('--csv', 'print CSV: one row per observation, the reason in full').conflicts('json'),
        )
        .addHelpText(
          'after',
          examples(
            'oracle sales pokemon-base-set-charizard-4-102',
            'oracle sales pokemon-base-set-charizard-4-102 --condition "PSA 10" --span 30d',
            'oracle sales --refsource 631245 --limit 200 --csv > sales.csv',
          ),
        )
        .action(lazy_(() => import('./commands/sales.js')));
    },
    movers: () => {
      program
        .command('movers')
        .description(
          "the catalog's biggest gainers and losers of one slot over a span, by the price oracle price gives at its two ends",
        )
        .addOption(
          schemaOption(
            '--condition <condition>',
            'the slot: ungraded, or a grader and grade 7-10 as written (psa10, "PSA 10", bgs9)',
            moversCondition,
            { default: UNGRADED },
          ),
        )
        .addOption(
          configOption('--span <span>', 'how far back the move is measured: 12h, 7d, 30d, 2w', {
            default: { text: MOVERS_DEFAULT_SPAN, ms: stepMs(MOVERS_DEFAULT_SPAN) },
            defaultText: MOVERS_DEFAULT_SPAN,
            parse: viaSchema(span, (text) => ({ text, ms: stepMs(text) })),
          }),
        )
        .addOption(
          schemaOption(
            '--limit <n>',
            `products listed on each side, ${MOVERS_LIMIT.min}-${MOVERS_LIMIT.max}`,
            moversLimit,
            { default: MOVERS_LIMIT.default },
          ),
        )
        .addOption(atOption(now, 'the end of the span, now at the latest'))
        .addOption(windowHoursOption())
        .addOption(outlierStddevsOption())
        .addOption(currencyOption())
        .option(
          '--json',
          'print {condition, span, from, to, min_observations, candidates, priced, gainers, losers} (the API body; with --currency each mover also has converted, the body converted)',
        )
        .addHelpText(
          'after',
          `\nOnly products with at least ${MOVERS_MIN_OBSERVATIONS} observations of the condition in the span are\nlisted: a move of one or two sales is noise.\n` +
            examples(
              'oracle movers',
              'oracle movers --span 30d --condition "PSA 10"',
              "oracle movers --limit 50 --json | jq '.gainers[].product_key'",
            ),
        )
        .action(lazy_(() => import('./commands/movers.js')));
    },
    snapshot: () => {
      program
        .command('snapshot')
        .description(
          'price a product as of a past UTC date (window 00:00Z of the date to 00:00Z of the next)',
        )
        .argument('<refsource_id>', 'reference-source id of the product')
        .addOption(
          configOption('--date <YYYY-MM-DD>', 'the date, today (UTC) at the latest', {
            parse: viaSchema(snapshotDate, (text, name) => snapshotWindow(text, now, name)),
          }).makeOptionMandatory(),
        )
        .addOption(outlierStddevsOption())
        .addOption(currencyOption())
        .option('--json', 'print exactly the API body (with --currency: plus meta.converted)')
        .action(lazy_(() => import('./commands/snapshot.js')));
    },
    calibrate: () => {
      program
        .command('calibrate')
        .description(
          'fit grader premiums and grade ratios from the observations before --at and store them (the engine prices with the newest fit as of each instant); --show prints the stored one',
        )
        .addOption(atOption(now, 'fit from the observations before this time, now at the latest'))
        .option('--show', 'print the calibration the engine uses at --at instead of fitting a new one')
        .option('--json', 'print the calibration as JSON')
        .addOption(lockWaitOption(LOCK_WAIT_DEFAULT_S))
        .action(lazy_(() => import('./commands/calibrate.js')));
    },
    catalog: () => {
      program
        .command('catalog')
        .description(
          'list or search tracked products: key, name, set, variant (printing, language), TCGplayer and refsource ids, observation count',
        )
        .option('--json', 'print exactly the API body ({total, products})')
        .addOption(
          schemaOption(
            '--search <text>',
            'the product whose key, refsource id or TCGplayer id the text is, then full-text search: every word, in any order, as a prefix of name, set, subtitle or key; best first',
            searchText,
            { default: undefined },
          ),
        )
        .addHelpText(
          'after',
          examples(
            'oracle catalog --search "base charizard 4/102"',
            'oracle catalog --search 42346',
            'oracle catalog --search "char 4/102" --json',
          ),
        )
        .action(lazy_(() => import('./commands/catalog.js')));
    },
    keys: () => {
      const keys = program.command('keys').description('manage API keys for oracle serve');
      keys
        .command('create')
        .description('create a key and print it once (only its hash is stored)')
        .addOption(labelOption())
        .addOption(lockWaitOption(LOCK_WAIT_DEFAULT_S))
        .action(lazy_(() => import('./commands/keys-create.js')));
      keys
        .command('list')
        .description('list keys: id, label, created, last used, revoked')
        .option('--json', 'print JSON')
        .action(lazy_(() => import('./commands/keys-list.js')));
      keys
        .command('revoke')
        .description('revoke a key at once')
        .argument('<key-id>', 'the id shown by keys list')
        .addOption(lockWaitOption(LOCK_WAIT_DEFAULT_S))
        .action(lazy_(() => import('./commands/keys-revoke.js')));
    },
    watch: () => {
      const watch = program
        .command('watch')
        .description(
          'watch rules: alerts when a price crosses a line, moves, its interval narrows or widens, or it goes stale (docs/alerts.md)',
        );
      const watchAdd = watch
        .command('add')
        .description(
          'store a rule on one product and slot (exactly one of --above, --below, --move, --narrower, --wider, --stale), or on a market index (--index <name> --move)',
        )
        .argument('[product_key]', `${PRODUCT_ARGUMENT} (none with --index)`);
      for (const option of watchAddOptions()) watchAdd.addOption(option);
      watchAdd
        .addOption(lockWaitOption(LOCK_WAIT_DEFAULT_S))
        .addHelpText(
          'after',
          examples(
            'oracle watch add pokemon-base-set-charizard-4-102 --slot "PSA 10" --above 15000 --label "sell the 10"',
            'oracle watch add pokemon-base-set-charizard-4-102 --move -10% --over 7d',
            'oracle watch add --index vintage-psa10 --move -10% --over 7d',
            'oracle watch add pokemon-base-set-charizard-4-102 --slot bgs9.5 --stale --webhook https://hooks.slack.com/services/T000/B000/XXXX',
          ),
        )
        .action(lazy_(() => import('./commands/watch-add.js')));
      watch
        .command('list')
        .description('list rules: what each watches, whether it is firing, the last value a check saw')
        .option('--json', "print the rules as JSON (the API body's rules)")
        .action(lazy_(() => import('./commands/watch-list.js')));
      watch
        .command('remove')
        .description('remove a rule (its events stay; one still pending is still delivered)')
        .argument('<id>', 'the rule id shown by watch list')
        .addOption(lockWaitOption(LOCK_WAIT_DEFAULT_S))
        .action(lazy_(() => import('./commands/watch-remove.js')));
      watch
        .command('check')
        .description(
          'check every rule now (or --at), record the rules whose condition became true and POST their events; retry undelivered ones. Exit 1 when an event is still undelivered',
        )
        .addOption(atOption(now, 'check as of this ISO-8601 time with zone, now at the latest'))
        .addOption(
          webhookOption(
            'POST events of rules without a URL of their own here (signed when ORACLE_WEBHOOK_SECRET is set)',
          ),
        )
        .option('--json', 'print {as_of, rules, fired, deliveries, pending, problems} as JSON')
        .addOption(lockWaitOption(LOCK_WAIT_DEFAULT_S))
        .addHelpText(
          'after',
          examples(
            'oracle watch check --webhook https://alerts.example.com/oracle',
            '*/5 * * * * oracle watch check --db /var/lib/oracle/oracle.db',
          ),
        )
        .action(lazy_(() => import('./commands/watch-check.js')));
      watch
        .command('events')
        .description(
          'list recorded events, newest first, with their delivery: delivered, pending (retried by the next check) or unsent (no webhook)',
        )
        .option('--pending', 'only the events not delivered yet')
        .addOption(eventsLimitOption())
        .option('--json', "print the events as JSON (the API body's events)")
        .action(lazy_(() => import('./commands/watch-events.js')));
    },
    index: () => {
      const index = program
        .command('index')
        .description(
          'market indexes: how a set, an era, a product type, a search or a list of cards moved, by a published method (docs/indexes.md)',
        );
      index
        .command('list')
        .description('list the defined indexes')
        .option('--json', 'print the definitions as JSON (the API body)')
        .action(lazy_(() => import('./commands/index-list.js')));
      index
        .command('add')
        .description(
          'define an index: its members from exactly one of --set, --era, --type, --search, --products; its slot and base date',
        )
        .argument('<name>', 'the name: lower-case letters, digits and hyphens (never reused)')
        .option('--set <set>', 'the cards of this set (its name as the catalog has it)')
        .option('--era <era>', 'the products of this era: modern or vintage')
        .option('--type <type>', 'the products of this type: single_card or booster_box')
        .option('--search <text>', 'the products this catalog search finds')
        .option('--products <keys>', 'these products: catalog keys, comma-separated')
        .option(
          '--slot <slot>',
          'the slot priced: ungraded, or a grader and grade 7-10 (psa10, "PSA 10")',
          'ungraded',
        )
        .requiredOption('--base-date <YYYY-MM-DD>', 'the date the index is 1000 at (00:00Z)')
        .option('--label <text>', 'a title for the index (default: its name)')
        .option(
          '--method <method>',
          'chained-jevons (equal weights, each move capped) or chained-laspeyres (price weights capped at 10 %); docs/methodology.md §17',
          'chained-jevons',
        )
        .addOption(lockWaitOption(LOCK_WAIT_DEFAULT_S))
        .addHelpText(
          'after',
          examples(
            'oracle index add vintage-psa10 --era vintage --slot "PSA 10" --base-date 2026-01-01',
            'oracle index add base-set --set "Base Set" --base-date 2026-01-01 --label "Base Set, ungraded"',
          ),
        )
        .action(lazy_(() => import('./commands/index-add.js')));
      index
        .command('show')
        .description(
          "an index's value at every step of a span, charted, with its interval, members priced and top contributors",
        )
        .argument('<name>', 'the index')
        .option(
          '--from <time>',
          'first point shown (default: 90 days before --to, the base date at the earliest)',
        )
        .option('--to <time>', 'last instant (default: now)')
        .option(
          '--every <step>',
          'step between points: 1d, 1w (the index is chained at this step from its base date)',
          '1d',
        )
        .addOption(windowHoursOption())
        .addOption(outlierStddevsOption())
        .addOption(
          schemaOption(
            '--version <n>',
            'read each published day at its latest version up to n (`index publish`; every 1d, default pricing options)',
            indexVersion,
            { default: undefined, defaultText: 'the latest' },
          ),
        )
        .option(
          '--json',
          'print {name, ..., points: [{at, value, low, high, priced, linked, version}], change_pct, top_contributors} (the API body)',
        )
        .addOption(
          new Option('--csv', 'print CSV: at,value,low,high,priced,linked,version').conflicts('json'),
        )
        .addHelpText(
          'after',
          examples(
            'oracle index show vintage-psa10',
            'oracle index show vintage-psa10 --from 2026-01-01 --every 1w --csv',
            'oracle index show vintage-psa10 --version 1     # the values as first published',
          ),
        )
        .action(lazy_(() => import('./commands/index-show.js')));
      index
        .command('publish')
        .description(
          "store the index's daily values from its base date as computed now: a day published already with other figures becomes its next version, never an update",
        )
        .argument('<name>', 'the index')
        .option('--to <time>', 'last day published (default: now)')
        .option('--json', 'print {name, from, to, every, days, first_published, unchanged, restated: [...]}')
        .addOption(lockWaitOption(LOCK_WAIT_DEFAULT_S))
        .addHelpText(
          'after',
          examples('oracle index publish vintage-psa10', 'oracle index publish sealed --to 2026-12-01'),
        )
        .action(lazy_(() => import('./commands/index-publish.js')));
    },
    demo: () => {
      program
        .command('demo')
        .description(
          'load the seeded sample data (55 real cards, 420 days of sales and quotes up to this hour) into the database, calibrate and price a card; a rerun adds only the hours since',
        )
        .addHelpText('after', examples('oracle demo', 'oracle --db ./try.db demo'))
        .action(lazy_(() => import('./commands/demo.js')));
    },
    mcp: () => {
      program
        .command('mcp')
        .description(
          'serve the read-only tools of the Model Context Protocol over stdio, for an AI assistant: search, price, explain, history, movers, value (docs/mcp.md)',
        )
        .addHelpText('after', examples('oracle mcp', 'oracle --db /var/lib/oracle/oracle.db mcp'))
        .action(lazy_(() => import('./commands/mcp.js')));
    },
    serve: () => {
      const serve = program.command('serve').description('serve the read-only JSON API of SPEC.md');
      for (const option of serveOptions()) serve.addOption(option);
      serve.action(lazy_(() => import('./commands/serve.js')));
    },
  };
  const only = named === null || (named !== undefined && Object.hasOwn(commands, named)) ? named : undefined;
  for (const [name, define] of Object.entries(commands)) {
    if (only === undefined || name === only) define();
  }

  const everyCommand = (command: Command): Command[] => [command, ...command.commands.flatMap(everyCommand)];
  for (const command of everyCommand(program)) {
    command.exitOverride();
    refuseEmptyFlags(command);
  }
  return program;
}
