/**
 * Validation of a route's path and query input. The zod schemas of schemas.ts define the
 * input, and the OpenAPI document is generated from them; but two zod object parses per
 * request cost ~1 us and their garbage on a request path of ~25 us. So each field schema
 * may carry a fast parser, registered where the schema is made: a plain function that gives
 * the schema's value (or throws the schema's own named error) for the input it handles, and
 * returns DEFER for anything else, which then goes to the zod parse. A route whose fields
 * all have one validates with those. test/http/input.test.ts checks that both paths agree on
 * a table of inputs.
 */
import type { z } from 'zod';
import { InvalidParameterError } from '../domain/errors.js';

/** What a fast parser returns for input it leaves to the zod schema. */
export const DEFER = Symbol('defer to the zod schema');

/** Parses one field's raw input: the schema's value, DEFER, or throws the schema's own named error. */
export type FastParse = (raw: unknown) => unknown;

const fastParsers = new WeakMap<z.ZodType, FastParse>();

/** Registers `parse` as the fast path of `schema` (a field of a route's params or query object); returns the schema. */
export function withFastParse<S extends z.ZodType>(schema: S, parse: FastParse): S {
  fastParsers.set(schema, parse);
  return schema;
}

/** Parses a route's raw params or query (strings, or arrays of strings for repeated query parameters). */
export type InputParser = (input: Record<string, unknown>) => unknown;

/**
 * The parser of `schema`: the fields' fast parsers when every field has one, else the zod
 * parse alone. Throws InvalidParameterError (400) naming the parameter, or the domain
 * parser's own named error.
 */
export function inputParser(schema: z.ZodObject | undefined): InputParser {
  if (!schema) return () => undefined;
  const slow = schemaParser(schema);
  const names = Object.keys(schema.shape);
  const parsers = Object.values(schema.shape as Record<string, z.ZodType>).map((field) => fastParsers.get(field));
  if (parsers.some((parse) => parse === undefined)) return slow;
  return (input) => {
    const out: Record<string, unknown> = {};
    for (let i = 0; i < names.length; i += 1) {
      const name = names[i] as string;
      const value = (parsers[i] as FastParse)(input[name]);
      if (value === DEFER) return slow(input);
      out[name] = value;
    }
    return out;
  };
}

/** The zod parse alone: the definition the fast parsers must agree with. */
export function schemaParser(schema: z.ZodObject): InputParser {
  return (input) => {
    const result = schema.safeParse(input);
    if (result.success) return result.data;
    // A plain schema failure becomes a 400 naming the parameter.
    const issue = result.error.issues[0];
    const name = String(issue?.path[0] ?? 'parameter');
    throw new InvalidParameterError(name, `${name}: ${issue?.message ?? 'invalid value'}`, { cause: result.error });
  };
}
