/**
 * The input of an MCP tool: a zod object made of the domain's input schemas (the ones the CLI's
 * options and the API's parameters parse with, so all three refuse the same values in the same
 * words), offered to the SDK as a Standard Schema with its JSON Schema. zod's own
 * `~standard.jsonSchema` cannot write the domain's deferred schemas (built on first use:
 * domain/input.ts), which z.toJSONSchema writes, so this wraps the object.
 */
import { z } from 'zod';
import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';

/** A domain input schema with the description an assistant reads (a copy: one input serves several tools). */
export function described<S extends z.core.$ZodType>(schema: S, description: string): S {
  const copy = z.core.clone(schema);
  z.globalRegistry.add(copy, { description });
  return copy;
}

/**
 * The inputs are texts, as on a command line or in a query string; an assistant may send a
 * number or a boolean for one (`"window_hours": 24`), which is read as the text it writes as.
 */
function asTexts(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => [
      key,
      typeof v === 'number' || typeof v === 'boolean' ? String(v) : v,
    ]),
  );
}

type JsonTarget = 'draft-2020-12' | 'draft-7';

/** The SDK's JSON Schema targets in zod's names (draft-07 is draft-7 to zod). */
const targetOf = (target: string): JsonTarget => (target === 'draft-07' ? 'draft-7' : 'draft-2020-12');

/**
 * `shape` as a tool's input: unknown arguments are refused, and a refusal is the domain's words,
 * which the SDK puts after the argument's name (`window_hours: must be an integer from 1 to 72
 * (got "0")`).
 */
export function toolInput<Shape extends z.core.$ZodLooseShape>(
  shape: Shape,
): StandardSchemaWithJSON<z.input<z.ZodObject<Shape>>, z.output<z.ZodObject<Shape>>> {
  const schema = z.strictObject(shape);
  const jsonSchema = (io: 'input' | 'output') => (options: { target: string }) => {
    const { $schema: _schema, ...rest } = z.toJSONSchema(schema, { io, target: targetOf(options.target) });
    return rest;
  };
  return {
    '~standard': {
      version: 1,
      vendor: 'oracle',
      validate(value) {
        const result = schema.safeParse(asTexts(value));
        if (result.success) return { value: result.data };
        return {
          issues: result.error.issues.map((issue) => ({
            message:
              issue.code === 'unrecognized_keys'
                ? `unknown argument ${issue.keys.join(', ')}`
                : issue.message,
            path: issue.path,
          })),
        };
      },
      jsonSchema: { input: jsonSchema('input'), output: jsonSchema('output') },
    },
  };
}
