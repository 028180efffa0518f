/**
 * How every CLI option gets its value: commander takes the flag, else its environment
 * variable, else the default (CONTRACT.md), and the option's parser turns the text into the
 * value the command uses or throws a usage error naming the option (and its variable), so
 * commands receive checked values. A parser reads the text through the input's schema of
 * src/domain, the one the API's parameter of the same meaning is made of, so both refuse the
 * same values in the same words. `--help` shows each option's choices, default and variable.
 * The options several commands share are declared here, once each.
 */
import { Option, type Command } from 'commander';
import { OUTLIER_STDDEVS, WINDOW_HOURS } from '../domain/bundle.js';
import { checkedText, refusal, wholeNumber, type InputSchema } from '../domain/input.js';
import { asOf, currencyCode, instant, outlierStddevs, refsourceId, windowHours } from '../domain/params.js';
import { DEFAULT_DB_TEXT } from './db-location.js';
import { UsageError } from './exit-codes.js';
import { DEFAULT_URL_LIMITS } from '../domain/url-limits.js';
import { firstActiveCharacter } from '../domain/inert-text.js';

export interface ConfigSpec<T> {
  /** The environment variable read when the flag is absent. */
  env?: string;
  default?: T;
  /** How the help shows the default when not as the value itself (e.g. `now`). */
  defaultText?: string;
  /** Text to value; `name` is how messages name the option, e.g. `--port (ORACLE_PORT)`. Throws a usage error. */
  parse: (name: string, raw: string) => T;
}

/**
 * An option with a parser and, optionally, an environment variable and a default. For an
 * option with a variable, empty text means unset (an empty variable exported by a compose
 * file or a unit), so it takes the default.
 */
export function configOption<T>(flags: string, description: string, spec: ConfigSpec<T>): Option {
  const option = new Option(flags, description);
  const name = spec.env === undefined ? (option.long as string) : `${option.long} (${spec.env})`;
  if (spec.env !== undefined) option.env(spec.env);
  if (spec.default !== undefined) option.default(spec.default, spec.defaultText);
  return option.argParser((raw: string) =>
    spec.env !== undefined && raw.trim() === '' ? spec.default : spec.parse(name, raw),
  );
}

/**
 * A parser reading the text through an input's schema (the one the API's parameter uses), a
 * refusal being a usage error in the schema's words after the option's name; `then` is what
 * needs the run's clock, after the schema.
 */
export function viaSchema<T>(schema: InputSchema<T>): (name: string, raw: string) => T;
export function viaSchema<T, U>(
  schema: InputSchema<T>,
  then: (value: T, name: string) => U,
): (name: string, raw: string) => U;
export function viaSchema<T, U>(schema: InputSchema<T>, then?: (value: T, name: string) => U) {
  return (name: string, raw: string) => {
    const result = schema.safeParse(raw);
    if (!result.success) throw new UsageError(refusal(result.error, name), { cause: result.error });
    return then === undefined ? result.data : then(result.data, name);
  };
}

/**
 * An option read through an input's schema. `default` is the value the schema gives an absent
 * input (undefined when it has none), named by the constant the schema takes it from rather
 * than parsed out of the schema, which would build every option's schema at every start
 * (input.ts); it is required so that no option forgets it.
 */
export function schemaOption<T>(
  flags: string,
  description: string,
  schema: InputSchema<T>,
  spec: { env?: string; default: T | undefined; defaultText?: string },
): Option {
  return configOption(flags, description, { ...spec, parse: viaSchema(schema) });
}

/**
 * Empty text from an environment variable means unset (configOption), but a flag given empty
 * text (`--db ''`, a script's variable that was never set) is a mistake: a usage error naming
 * the flag, not the default in its place. Commander tells the two apart by the event it emits.
 */
export function refuseEmptyFlags(command: Command): void {
  for (const option of command.options) {
    if (option.envVar === undefined || !option.required) continue;
    command.on(`option:${option.name()}`, (raw: string) => {
      if (raw.trim() === '') {
        throw new UsageError(
          `${option.long} must not be empty: give a value, or leave the flag out for ${option.envVar} or the default`,
        );
      }
    });
  }
}

/** `--label` of `keys create`: what the key is for, as `keys list` and the access log show it. */
const MAX_LABEL_LENGTH = 100;
const label = checkedText((raw) => {
  const text = raw?.trim() ?? '';
  const active = firstActiveCharacter(text);
  if (active !== null)
    return `must be 1 to ${MAX_LABEL_LENGTH} characters without control characters (${active} is a control or format character)`;
  return text === '' || text.length > MAX_LABEL_LENGTH
    ? `must be 1 to ${MAX_LABEL_LENGTH} characters without control characters`
    : null;
});
export const labelOption = () =>
  configOption('--label <name>', 'who or what the key is for', {
    parse: viaSchema(label, (text) => text.trim()),
  }).makeOptionMandatory();

/** `--db`, the database every command reads or writes; absent, db-location.ts's default. */
export const dbOption = () =>
  configOption('--db <path>', `SQLite database file or postgres:// URL (default: ${DEFAULT_DB_TEXT})`, {
    env: 'ORACLE_DB',
    parse: (_name, raw) => raw,
  });

/** The pricing options every pricing command shares (same names, ranges, defaults and words as the API). */
export const windowHoursOption = () =>
  schemaOption(
    '--window-hours <n>',
    `TWAP lookback in hours, ${WINDOW_HOURS.min}-${WINDOW_HOURS.max}`,
    windowHours,
    { default: WINDOW_HOURS.default },
  );
export const outlierStddevsOption = () =>
  schemaOption(
    '--outlier-stddevs <n>',
    `outlier threshold in robust standard deviations, ${OUTLIER_STDDEVS.min}-${OUTLIER_STDDEVS.max}`,
    outlierStddevs,
    { default: OUTLIER_STDDEVS.default },
  );
/** `--currency`: the figures in another currency too, at each observation's day's ECB rate (docs/methodology.md §16). */
export const currencyOption = () =>
  configOption(
    '--currency <code>',
    "also price in this currency (EUR, GBP, JPY, ...), each observation at its own day's ECB reference rate",
    { default: 'USD', parse: viaSchema(currencyCode, (text) => text.toUpperCase()) },
  );
export const refsourceOption = () =>
  schemaOption('--refsource <id>', 'address the product by its reference-source id instead', refsourceId, {
    default: undefined,
  });

/** How a time option is written (time.ts parseInstantInput), for the help. */
export const TIME_FORMS = 'ISO-8601 with zone, a UTC date, 30d/12h/2w ago, or now';

/**
 * `--at`, an instant (epoch ms) no later than `now`, the command's clock; absent: now. A date
 * alone is the end of that UTC day: the price on that date.
 */
export const atOption = (now: number, description: string) =>
  configOption('--at <time>', `${description} (${TIME_FORMS}; a date alone is its end)`, {
    default: now,
    defaultText: 'now',
    parse: viaSchema(instant, (text, name) => asOf(text, now, name)),
  });

/** A whole-number option of at least `min` (`--max-rejects`, `--lock-wait`). */
export const wholeNumberOption = (
  flags: string,
  description: string,
  spec: { min: number; unit?: string; default: number; env?: string },
) =>
  configOption(flags, description, {
    default: spec.default,
    env: spec.env,
    parse: viaSchema(wholeNumber(spec)),
  });

/** How long a write waits for another writer by default, but an ingest's: SQLite's busy timeout (BUSY_TIMEOUT_MS). */
export const LOCK_WAIT_DEFAULT_S = 5;
/** An ingest waits long for another ingest: the one it waits for may be committing a large file. */
export const INGEST_LOCK_WAIT_DEFAULT_S = 600;

/** `--lock-wait`: every command that writes waits this long for another writer, then gives up naming it. */
export const lockWaitOption = (defaultSeconds: number) =>
  wholeNumberOption(
    '--lock-wait <seconds>',
    'how long to wait for another writer of the database before giving up',
    { min: 1, unit: 'seconds', default: defaultSeconds },
  );

/**
 * A URL source's bounds (ingest/read/open-source.ts UrlLimits), as curl's --max-time and
 * --speed-limit/--speed-time: the defaults are DEFAULT_URL_LIMITS'.
 */
export const urlDeadlineOption = () =>
  wholeNumberOption(
    '--url-deadline <seconds>',
    'give up on a URL source not read to its end within this long',
    {
      min: 1,
      unit: 'seconds',
      default: DEFAULT_URL_LIMITS.deadlineMs / 1000,
      env: 'ORACLE_URL_DEADLINE',
    },
  );
export const urlMinRateOption = () =>
  wholeNumberOption(
    '--url-min-rate <bytes-per-second>',
    'give up on a URL source sending fewer bytes a second than this over --url-min-rate-time',
    {
      min: 1,
      unit: 'bytes a second',
      default: DEFAULT_URL_LIMITS.minBytesPerSecond,
      env: 'ORACLE_URL_MIN_RATE',
    },
  );
export const urlMinRateTimeOption = () =>
  wholeNumberOption('--url-min-rate-time <seconds>', 'the span --url-min-rate is measured over', {
    min: 1,
    unit: 'seconds',
    default: DEFAULT_URL_LIMITS.rateWindowMs / 1000,
    env: 'ORACLE_URL_MIN_RATE_TIME',
  });
