/**
 * A route's path and query input through its zod schema (schemas.ts): the one definition of
 * what the API takes, which the OpenAPI document is generated from. A failure is the named
 * error of the first field refused, worded by the field's domain schema after the field's name.
 */
import { z } from 'zod';
import { InvalidDateError, InvalidParameterError } from '../domain/errors.js';
import { refusal } from '../domain/input.js';

/** Fields whose refusal is a 422 (the snapshot date, CONTRACT.md decision 2); every other field's is a 400. */
export const unprocessableInputs = z.registry<Record<string, never>>();

/** Parses a route's raw params or query (strings, or arrays of strings for repeated query parameters). */
export type InputParser = (input: Record<string, unknown>) => unknown;

export function inputParser(schema: z.ZodObject | undefined): InputParser {
  if (!schema) return () => undefined;
  const shape = schema.shape as Record<string, z.ZodType>;
  return (input) => {
    const result = schema.safeParse(joinRepeated(input));
    if (result.success) return result.data;
    const name = String(result.error.issues[0]?.path[0] ?? 'parameter');
    const field = shape[name];
    const message = refusal(result.error, name);
    const options = { cause: result.error };
    throw field && unprocessableInputs.has(field)
      ? new InvalidDateError(name, message, options)
      : new InvalidParameterError(name, message, options);
  };
}

/**
 * A parameter given more than once arrives as an array; joined with commas it is refused
 * like any other malformed value, or read as the list it spells (`slots`).
 */
function joinRepeated(input: Record<string, unknown>): Record<string, unknown> {
  for (const name in input) {
    if (Array.isArray(input[name]))
      return Object.fromEntries(
        Object.entries(input).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : v]),
      );
  }
  return input;
}
