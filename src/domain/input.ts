/**
 * How an input value (a CLI flag or its variable, an API query or path parameter) is defined:
 * one zod schema per input, which the CLI's option parsers and the API's request schemas both
 * use. A schema's messages are the rest of a sentence that starts with the parameter's name,
 * which the edge supplies (`window_hours` in the API, `--window-hours` in the CLI), so both say
 * the same thing in the same words (CONTRACT.md decision 1).
 *
 * zod/mini, not zod: these schemas are on every command's start, where zod/mini is bundled
 * with the CLI and costs a few kilobytes (scripts/build-options.js). Each schema made here is
 * built on its first parse (`deferred`): a command declares every option of every command,
 * and building all their schemas at each start cost more than the rest of zod together
 * (bench/findings.md, 10).
 */
import * as z from 'zod/mini';
import { InvalidParameterError } from './errors.js';

/** A schema of an input: text (or nothing, when the input is absent) to the value the code uses. */
export type InputSchema<T = unknown> = z.ZodMiniType<T, string | undefined>;

/** A schema built when first used, as whatever `build` makes: how a schema defined at a module's top level stays off the start. */
export function deferred<T extends z.ZodMiniType>(build: () => T): z.ZodMiniLazy<T> {
  return z.lazy(build);
}

/** Why a text is refused, as the rest of a sentence after the parameter's name; null when taken. */
export type Problem = string | null;

/**
 * A text input that `problem` judges, and words the refusal of: absent text is refused in
 * `problem(undefined)`'s words. `pattern`, when given, is a regular expression every text it
 * takes matches, declared for the API's document (JSON Schema's `pattern`).
 */
export function checkedText(problem: (raw: string | undefined) => Problem, pattern?: RegExp) {
  return deferred(() => checkedTextNow(problem, pattern));
}

function checkedTextNow(problem: (raw: string | undefined) => Problem, pattern?: RegExp) {
  const text = z.string({ error: () => problem(undefined) ?? 'is required' }).check(
    z.superRefine((raw, ctx) => {
      const why = problem(raw);
      if (why !== null) ctx.issues.push({ code: 'custom', message: why, input: raw });
    }),
  );
  return pattern === undefined
    ? text
    : text.check(
        z.regex(pattern, { error: (issue) => problem(String(issue.input)) ?? `must match ${pattern}` }),
      );
}

/**
 * An integer as a program would print it: digits, no sign, spaces, leading zeros, decimals
 * or exponent (a minus only before a non-zero value). ` 24`, `+24`, `024`, `24.0`, `1e1` and
 * `24\n` are refused rather than read as 24: a client that sends them has a bug worth seeing.
 */
const CANONICAL_INTEGER = /^(0|-?[1-9]\d*)$/;

export interface IntegerRange {
  min: number;
  max: number;
}

function integerProblem(range: IntegerRange, raw: string | undefined): string {
  // A value in range but spelled otherwise (024, +24, 24.0) says how to spell it.
  const loose = Number(raw?.trim());
  const spelling =
    raw !== undefined &&
    raw.trim() !== '' &&
    Number.isInteger(loose) &&
    loose >= range.min &&
    loose <= range.max
      ? ', written as digits only (no sign, spaces, leading zeros or decimals)'
      : '';
  return `must be an integer from ${range.min} to ${range.max}${spelling} (got ${JSON.stringify(raw)})`;
}

/**
 * An integer in [min, max] written as a canonical integer. Its output is declared as the
 * integer in range, which is what the API's document says of it.
 */
export function integerInRange(range: IntegerRange) {
  return deferred(() => integerInRangeNow(range));
}

function integerInRangeNow(range: IntegerRange) {
  const text = checkedTextNow((raw) => {
    const value = raw !== undefined && CANONICAL_INTEGER.test(raw) ? Number(raw) : Number.NaN;
    return value >= range.min && value <= range.max ? null : integerProblem(range, raw);
  });
  return z.pipe(text, z.pipe(z.transform(Number), z.int().check(z.minimum(range.min), z.maximum(range.max))));
}

/** integerInRange with the value an absent input takes. */
export function integerWithDefault(range: IntegerRange & { default: number }) {
  return deferred(() => z._default(integerInRangeNow(range), range.default));
}

/**
 * A whole number of at least `min`, as digits (CANONICAL_INTEGER); `unit` is what it counts,
 * for the message (`--lock-wait must be a whole number of seconds, 1 or more`).
 */
export function wholeNumber(spec: { min: number; unit?: string }) {
  return deferred(() => wholeNumberNow(spec));
}

function wholeNumberNow(spec: { min: number; unit?: string }) {
  const unit = spec.unit === undefined ? '' : ` of ${spec.unit}`;
  const text = checkedTextNow((raw) => {
    const value = raw !== undefined && CANONICAL_INTEGER.test(raw) ? Number(raw) : Number.NaN;
    return Number.isSafeInteger(value) && value >= spec.min
      ? null
      : `must be a whole number${unit}, ${spec.min} or more (got ${JSON.stringify(raw)})`;
  });
  return z.pipe(text, z.pipe(z.transform(Number), z.int().check(z.minimum(spec.min))));
}

/** The first refusal of a failed parse, as a sentence naming the parameter `name`. */
export function refusal(error: z.core.$ZodError, name: string): string {
  const message = error.issues[0]?.message ?? 'is invalid';
  return `${name} ${message}`;
}

/**
 * Reads one input through its schema outside an edge's own parser (a CSV cell, a command's
 * check after parsing): the value, or InvalidParameterError naming `name`.
 */
export function readInput<T>(schema: InputSchema<T>, raw: string | undefined, name: string): T {
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  throw new InvalidParameterError(name, refusal(result.error, name), { cause: result.error });
}
