/**
 * A canonical record (CONTRACT.md field names) as a format produced it, and as the schemas
 * of observation.ts and catalog.ts take it: normalised, so that one schema of strings serves
 * CSV cells and JSON numbers alike.
 */
import type { z } from 'zod';

/** A record as a format produced it: CONTRACT.md field names, values text or numbers. */
export type CanonicalRecord = Record<string, unknown>;

/**
 * A record as the schemas take it: text trimmed, numbers as text, empty and null values
 * absent. Other values (true, objects) stay as they are for the schema to reject.
 * The result has no prototype, so a `__proto__` key is just an unknown field.
 */
export function normalizeRecord(record: CanonicalRecord): CanonicalRecord {
  const out: CanonicalRecord = Object.create(null) as CanonicalRecord;
  for (const key of Object.keys(record)) {
    const value = record[key];
    if (value === null || value === undefined) continue;
    if (typeof value === 'string') {
      const trimmed = value.trim();
      if (trimmed !== '') out[key] = trimmed;
    } else if (typeof value === 'number') out[key] = String(value);
    else out[key] = value;
  }
  return out;
}

/** The reason of a rejected record: the first issue's message. */
export function rejectReason(error: z.ZodError): string {
  return error.issues[0]?.message ?? 'invalid record';
}
