/**
 * Text made inert for a terminal: a control, format or separator character (domain/inert-text.ts)
 * is shown as its escape, `\u{9b}`, so a stored name cannot move the cursor, recolour the
 * screen or reverse the line, and the reader sees that it is there.
 */
import { activeCharacters } from '../../domain/inert-text.js';

/** `text` with every active character escaped as `\u{<hex>}`. */
export const inert = (text: string): string =>
  text.replace(activeCharacters(), (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`);

/**
 * Every string in `value` (objects and arrays, walked) made inert: what a view is given, so
 * each field it prints is safe whatever the view does with it.
 */
export function inertAll<T>(value: T): T {
  if (typeof value === 'string') return inert(value) as T;
  if (Array.isArray(value)) return value.map(inertAll) as T;
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, inertAll(v)])) as T;
  }
  return value;
}

/** A multi-line message with each line made inert (the line breaks kept). */
export const inertLines = (text: string): string => text.split('\n').map(inert).join('\n');
