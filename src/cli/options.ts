/**
 * How every CLI option gets its value: commander takes the flag, else its environment
 * variable, else the default (CONTRACT.md), and the option's parser turns the text into the
 * value the command uses or throws a usage error naming the option (and its variable), so
 * commands receive checked values. `--help` shows each option's choices, default and variable.
 * The options several commands share are declared here, once each.
 */
import { Option, type Command } from 'commander';
import { OUTLIER_STDDEVS, WINDOW_HOURS } from '../domain/bundle.js';
import { parseAsOf, parseIntInRange, parseRefsourceId, parseWholeNumber } from '../domain/params.js';
import { UsageError } from './exit-codes.js';

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
  return option.argParser((raw: string) => (spec.env !== undefined && raw.trim() === '' ? spec.default : spec.parse(name, raw)));
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
        throw new UsageError(`${option.long} must not be empty: give a value, or leave the flag out for ${option.envVar} or the default`);
      }
    });
  }
}

/** `--label` of `keys create`: what the key is for, as `keys list` and the access log show it. */
const MAX_LABEL_LENGTH = 100;
export const labelOption = () =>
  configOption('--label <name>', 'who or what the key is for', {
    parse: (name, raw) => {
      const label = raw.trim();
      if (label === '' || label.length > MAX_LABEL_LENGTH || /[\u0000-\u001f\u007f]/.test(label)) {
        throw new UsageError(`${name} must be 1 to ${MAX_LABEL_LENGTH} characters without control characters`);
      }
      return label;
    },
  }).makeOptionMandatory();

/** `--db`, the database every command reads or writes. */
export const DEFAULT_DB_PATH = 'oracle.db';
export const dbOption = () =>
  configOption('--db <path>', 'SQLite database file', { env: 'ORACLE_DB', default: DEFAULT_DB_PATH, parse: (_name, raw) => raw });

/** The pricing options every pricing command shares (same names, ranges and defaults as the API). */
export const windowHoursOption = () =>
  configOption('--window-hours <n>', `TWAP lookback in hours, ${WINDOW_HOURS.min}-${WINDOW_HOURS.max}`, {
    default: WINDOW_HOURS.default,
    parse: (name, raw) => parseIntInRange(name, raw, WINDOW_HOURS),
  });
export const outlierStddevsOption = () =>
  configOption('--outlier-stddevs <n>', `outlier threshold in robust standard deviations, ${OUTLIER_STDDEVS.min}-${OUTLIER_STDDEVS.max}`, {
    default: OUTLIER_STDDEVS.default,
    parse: (name, raw) => parseIntInRange(name, raw, OUTLIER_STDDEVS),
  });
export const refsourceOption = () =>
  configOption('--refsource <id>', 'address the product by its reference-source id instead', { parse: (name, raw) => parseRefsourceId(raw, name) });

/** `--at`, an instant (epoch ms) no later than `now`, the command's clock; absent: now. */
export const atOption = (now: number, description: string) =>
  configOption('--at <time>', description, { default: now, defaultText: 'now', parse: (name, raw) => parseAsOf(raw, now, name) });

/** A whole-number option of at least `min` (`--max-rejects`, `--lock-wait`). */
export const wholeNumberOption = (flags: string, description: string, spec: { min: number; unit?: string; default: number }) =>
  configOption(flags, description, { default: spec.default, parse: (name, raw) => parseWholeNumber(name, raw, spec) });
