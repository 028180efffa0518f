/**
 * The zod fields both record schemas (observation.ts, catalog.ts) are built from. Each
 * checks a normalised value (trimmed text, see record.ts) against a pattern of patterns.ts
 * and words its own reject reason: every reason is a specific, readable message.
 */
import { z } from 'zod';
import { firstActiveCharacter } from '../../domain/inert-text.js';
import { DIGITS, NO_CONTROL_200 } from './patterns.js';

/** A value for a message: quoted, and cut short when long. */
export function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  return typeof value === 'object' ? (JSON.stringify(value)?.slice(0, 60) ?? String(value)) : String(value);
}

/** A text field that must match `pattern`; `rule` completes "<field> must ...". */
export function text(field: string, pattern: RegExp, rule: string) {
  return z
    .string({
      error: (issue) =>
        issue.input === undefined
          ? `${field} is required`
          : `${field} must be text or a number (got ${show(issue.input)})`,
    })
    .regex(pattern, {
      error: (issue) => `${field} ${rule} (got ${show(issue.input)}${activeNote(issue.input)})`,
    });
}

/** Names the control or format character that made a text field fail, if one did: `: U+009B is a control or format character`. */
function activeNote(input: unknown): string {
  const name = typeof input === 'string' ? firstActiveCharacter(input) : null;
  return name === null ? '' : `: ${name} is a control or format character`;
}

/** A TCGplayer printing (subTypeName). */
export const PRINTING = /^[^\p{Cc}\p{Cf}\u2028\u2029]{1,64}$/u;

export const productKey = text(
  'product_key',
  NO_CONTROL_200,
  'must be 1 to 200 characters without control characters',
);
export const digits = (field: string) => text(field, DIGITS, 'must be digits');

/** A text field a time.ts parser must accept; `keep` maps the text and the parsed instant to the value kept. */
export function dateField<T>(
  field: string,
  parse: (value: string) => number | string,
  keep: (value: string, ms: number) => T,
) {
  return text(field, /^./, 'is required').transform((value, ctx) => {
    const parsed = parse(value);
    if (typeof parsed === 'number') return keep(value, parsed);
    ctx.addIssue({ code: 'custom', input: value, message: `${field} ${parsed}` });
    return z.NEVER;
  });
}

/** The message of a strict object's unknown keys. */
export function unknownFieldsMessage(issue: { code?: string; keys?: string[] }): string | undefined {
  if (issue.code !== 'unrecognized_keys') return undefined;
  const keys = issue.keys ?? [];
  return `unknown field${keys.length > 1 ? 's' : ''} ${keys.map((k) => show(k)).join(', ')}`;
}

/** A source's id in the crosswalk (domain/identity.ts): digits, letters, `.`, `_`, `-`, and a `:variant` suffix. */
const IDENTITY_VALUE = /^[0-9A-Za-z][0-9A-Za-z._-]{0,99}(?::[a-z]{1,20})?$/;

/** An optional field holding a crosswalk identity's value (`274235`, `274235:foil`). */
export const identityField = (field: string) =>
  text(
    field,
    IDENTITY_VALUE,
    'must be an id of letters, digits, ".", "_" or "-", optionally ":variant" (274235:foil)',
  ).optional();
