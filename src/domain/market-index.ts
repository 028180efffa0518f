/**
 * Market index definitions (`oracle index`, docs/indexes.md): a named index over the products
 * of a set, an era, a product type, a search or an explicit list, priced in one slot, from a
 * base date, by a method. Checked here so the CLI and the API refuse the same values alike.
 */
import { PRODUCT_TYPES, ERAS } from './product.js';
import { parseCondition } from './conditions.js';
import {
  HISTORY_DEFAULT_DAYS,
  HISTORY_DEFAULT_EVERY,
  HISTORY_MAX_POINTS,
  SLOT_KEYS,
  STEP,
  stepMs,
} from './history.js';
import { asOf } from './params.js';
import { wholeNumber } from './input.js';
import { InvalidParameterError } from './errors.js';
import { DAY_MS, parseCalendarDate, toIsoUtc } from './time.js';

/** What picks an index's products. */
export const INDEX_SELECTORS = ['set', 'era', 'product_type', 'search', 'products'] as const;
export type IndexSelector = (typeof INDEX_SELECTORS)[number];

/** The methods an index can be computed by (docs/methodology.md §17). */
export const INDEX_METHODS = ['chained-jevons', 'chained-laspeyres'] as const;
export type IndexMethod = (typeof INDEX_METHODS)[number];

export const INDEX_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;

export interface IndexDefinition {
  name: string;
  label: string;
  selector: IndexSelector;
  /** The set's name, the era, the product type, the search text, or product keys comma-separated. */
  selectorValue: string;
  /** A slot key: `ungraded`, `psa10`. */
  slot: string;
  method: IndexMethod;
  /** YYYY-MM-DD: the index is INDEX_BASE_VALUE at 00:00Z of it. */
  baseDate: string;
}

export interface StoredIndex extends IndexDefinition {
  id: number;
  createdAt: number;
}

/** The step of the published series (`oracle index publish`): one value a day, at 00:00Z. */
export const INDEX_PUBLISHED_EVERY = '1d';

/** A published version to read (`index show --version`, the route's `version`): 1 or more. */
export const indexVersion = wholeNumber({ min: 1 });

/** Above any version an index's value can reach: "the latest" when reading published values. */
export const NO_VERSION_LIMIT = 2 ** 31 - 1;

/** One published value of an index (`oracle index publish`): a day's figures as shown, in one version. */
export interface PublishedIndexValue {
  /** Epoch ms of the instant (a day's 00:00Z). */
  at: number;
  /** 1 for the first value published at `at`; each restatement of that instant the next. */
  version: number;
  value: number;
  low: number;
  high: number;
  priced: number;
  linked: number;
  publishedAt: number;
}

/** An index definition as the CLI and the API give it, each field as typed. */
export interface RawIndexDefinition {
  name?: string;
  label?: string;
  set?: string;
  era?: string;
  productType?: string;
  search?: string;
  products?: string;
  slot?: string;
  method?: string;
  baseDate?: string;
}

const SELECTOR_FIELDS = {
  set: 'set',
  era: 'era',
  productType: 'product_type',
  search: 'search',
  products: 'products',
} as const satisfies Record<string, IndexSelector>;

/** A definition from its raw fields, or InvalidParameterError naming the field and what it takes. */
export function parseIndexDefinition(raw: RawIndexDefinition): IndexDefinition {
  const name = raw.name ?? '';
  if (!INDEX_NAME.test(name))
    throw new InvalidParameterError(
      'name',
      `an index name is 1-64 lower-case letters, digits and hyphens, starting with a letter or digit; got ${JSON.stringify(name)}`,
    );
  const given = (Object.keys(SELECTOR_FIELDS) as (keyof typeof SELECTOR_FIELDS)[]).filter(
    (k) => raw[k] !== undefined,
  );
  if (given.length !== 1)
    throw new InvalidParameterError(
      'selector',
      `an index takes exactly one of set, era, product_type, search, products (got ${given.length === 0 ? 'none' : given.map((k) => SELECTOR_FIELDS[k]).join(', ')})`,
    );
  const field = given[0]!;
  const selector = SELECTOR_FIELDS[field];
  let selectorValue = raw[field]!.trim();
  if (selectorValue === '') throw new InvalidParameterError(selector, `${selector} must not be empty`);
  if (selector === 'era' && !(ERAS as readonly string[]).includes(selectorValue))
    throw new InvalidParameterError(
      'era',
      `era must be one of ${ERAS.join(', ')}; got ${JSON.stringify(selectorValue)}`,
    );
  if (selector === 'product_type' && !(PRODUCT_TYPES as readonly string[]).includes(selectorValue))
    throw new InvalidParameterError(
      'product_type',
      `product_type must be one of ${PRODUCT_TYPES.join(', ')}; got ${JSON.stringify(selectorValue)}`,
    );
  if (selector === 'products')
    selectorValue = [
      ...new Set(
        selectorValue
          .split(',')
          .map((k) => k.trim())
          .filter((k) => k !== ''),
      ),
    ].join(',');
  const slot = parseCondition(raw.slot ?? 'ungraded');
  if (slot === null || !SLOT_KEYS.includes(slot))
    throw new InvalidParameterError(
      'slot',
      `slot must be ungraded or a grader and a grade 7-10 (ungraded, psa10, "PSA 10", bgs9); got ${JSON.stringify(raw.slot)}`,
    );
  const method = raw.method ?? INDEX_METHODS[0];
  if (!(INDEX_METHODS as readonly string[]).includes(method))
    throw new InvalidParameterError(
      'method',
      `method must be one of ${INDEX_METHODS.join(', ')}; got ${JSON.stringify(method)}`,
    );
  const baseDate = raw.baseDate ?? '';
  if (typeof parseCalendarDate(baseDate) !== 'number')
    throw new InvalidParameterError(
      'base_date',
      `base_date must be a date YYYY-MM-DD; got ${JSON.stringify(baseDate)}`,
    );
  return {
    name,
    label: raw.label?.trim() || name,
    selector,
    selectorValue,
    slot,
    method: method as IndexMethod,
    baseDate,
  };
}

/** The most instants an index is computed at, base date to `to` (as a history's points). */
export const INDEX_MAX_POINTS = HISTORY_MAX_POINTS;
/** How many members' contributions `show` lists. */
export const INDEX_TOP_CONTRIBUTORS = 5;

export interface IndexSpanRequest {
  from?: string;
  to?: string;
  every?: string;
}

export interface IndexSpan {
  every: string;
  /** Base date, then every `every` to `to` at the latest: the instants the index is chained over. */
  instants: number[];
  /** The first instant shown (at or after `from`). */
  shownFrom: number;
}

/**
 * The instants an index is computed at: from its base date every `every` (default 1d) up to
 * `to` (default now); shown from `from` (default 90 days before `to`, the base date at the
 * earliest). The chain always starts at the base date, so a value never depends on `from`.
 */
export function indexSpan(baseDate: string, raw: IndexSpanRequest, now: number): IndexSpan {
  const base = parseCalendarDate(baseDate) as number;
  const everyText = raw.every ?? HISTORY_DEFAULT_EVERY;
  if (!STEP.test(everyText))
    throw new InvalidParameterError(
      'every',
      `every must be a step like 1d or 1w; got ${JSON.stringify(everyText)}`,
    );
  const step = stepMs(everyText);
  const to = asOf(raw.to, now, 'to');
  if (to < base)
    throw new InvalidParameterError('to', `to ${toIsoUtc(to)} is before the index's base date ${baseDate}`);
  const from =
    raw.from === undefined ? to - HISTORY_DEFAULT_DAYS * DAY_MS : asOf(raw.from, now, 'from', 'start');
  if (from > to) throw new InvalidParameterError('from', 'from must not be later than to');
  const count = Math.floor((to - base) / step) + 1;
  if (count > INDEX_MAX_POINTS)
    throw new InvalidParameterError(
      'every',
      `an index is computed from its base date ${baseDate} at most ${INDEX_MAX_POINTS} times: to ${toIsoUtc(to)} every ${everyText} is ${count}; use a larger every`,
    );
  const instants = Array.from({ length: count }, (_, i) => base + i * step);
  return { every: everyText, instants, shownFrom: Math.max(from, base) };
}
