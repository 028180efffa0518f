/**
 * HTML made safe by construction: `html` templates escape every value they are given, except
 * another `Html` (already escaped). Stored text (names, sources, labels) may hold anything the
 * feeds sent; besides the five characters HTML gives meaning to, the active characters a
 * terminal would obey (domain/inert-text.ts: controls, bidi overrides) are shown as their escape,
 * `\u{202e}`, so a name cannot reverse the line it stands in or hide what follows.
 */
import { activeCharacters } from '../../domain/inert-text.js';
import { formatUsd } from '../../domain/money.js';

export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Controls that HTML reads as plain white space: kept (a pasted CSV's line breaks). */
const WHITESPACE = new Set(['\t', '\n', '\r']);

/** `text` as HTML text or attribute value. */
export function escapeHtml(text: string): string {
  return text
    .replace(activeCharacters(), (c) => (WHITESPACE.has(c) ? c : `\\u{${c.codePointAt(0)!.toString(16)}}`))
    .replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

type Value = Html | string | number | boolean | null | undefined | readonly Value[];

function piece(value: Value): string {
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(piece).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value as string | number | true));
}

/** A template whose values are escaped (arrays joined, null, undefined and false left out). */
export function html(strings: TemplateStringsArray, ...values: Value[]): Html {
  let text = strings[0]!;
  values.forEach((value, i) => (text += piece(value) + strings[i + 1]!));
  return new Html(text);
}

/** Cents in dollars, or a dash for no price. */
export const usd = (cents: number | null | undefined): string => (cents == null ? '–' : formatUsd(cents));

/** A path with its query, leaving out unset parameters: `/movers?span=7d`. */
export function href(path: string, query: Record<string, string | number | undefined | null> = {}): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value != null) search.set(name, String(value));
  const text = search.toString();
  return text === '' ? path : `${path}?${text}`;
}

/** The catalog page of a product. */
export const productHref = (productKey: string, at?: string): string =>
  href(`/products/${encodeURIComponent(productKey)}`, { at });
