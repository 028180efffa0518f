/**
 * Market indexes (docs/indexes.md): definitions kept in the store, and an index's values,
 * computed by the engine's method of its definition (engine/index-jevons.ts, index-laspeyres.ts) from each member's prices
 * as `priceSeries` gives them (the bundles `oracle price` gives at those instants): nothing
 * here prices a card. Membership (§17.4) is decided at each rebalance from the store's counts.
 */
import { InvalidParameterError, UnknownIndexError } from '../domain/errors.js';
import {
  INDEX_TOP_CONTRIBUTORS,
  indexSpan,
  parseIndexDefinition,
  type IndexMethod,
  type IndexSpanRequest,
  type RawIndexDefinition,
  type StoredIndex,
} from '../domain/market-index.js';
import { DAY_MS, toIsoUtc } from '../domain/time.js';
import type { IndexMember, MemberPrice } from '../engine/index-chain.js';
import { chainedJevons } from '../engine/index-jevons.js';
import { chainedLaspeyres } from '../engine/index-laspeyres.js';
import {
  INDEX_BASE_VALUE,
  INDEX_MIN_OBSERVATIONS_HALF_YEAR,
  INDEX_MIN_OBSERVATIONS_YEAR,
  INDEX_REBALANCE_MS,
} from '../engine/methodology.js';
import type { PricingBundle } from '../domain/bundle.js';
import type { StoredProduct, Store } from '../store/store.js';
import { confidenceOf, findSlot } from './history.js';
import type { Pricing, SeriesParams } from './pricing.js';

export interface IndexPoint {
  at: string;
  value: number;
  low: number;
  high: number;
  /** Members priced at this instant (not carried). */
  priced: number;
  /** Members the step into this instant was measured over. */
  linked: number;
  /** The published version this value is (`oracle index publish`); null: not published, computed now. */
  version: number | null;
}

export interface IndexContributor {
  product_key: string;
  product_name: string;
  /** Its capped share of the index's log move over the span shown, × 100 (≈ percent points), one decimal. */
  contribution_pct: number;
}

export interface IndexDefinitionBody {
  name: string;
  label: string;
  selector: string;
  selector_value: string;
  slot: string;
  method: string;
  base_date: string;
  base_value: number;
  created_at: string;
}

export interface IndexBody extends IndexDefinitionBody {
  from: string;
  to: string;
  every: string;
  /** Products that were members at any rebalance up to `to`. */
  members: number;
  points: IndexPoint[];
  /** From the first point shown to the last, percent, one decimal. */
  change_pct: number | null;
  top_contributors: IndexContributor[];
}

export function definitionBody(index: StoredIndex): IndexDefinitionBody {
  return {
    name: index.name,
    label: index.label,
    selector: index.selector,
    selector_value: index.selectorValue,
    slot: index.slot,
    method: index.method,
    base_date: index.baseDate,
    base_value: INDEX_BASE_VALUE,
    created_at: toIsoUtc(index.createdAt),
  };
}

/** Stores a definition; its listed products must exist, its name must be new. */
export async function addIndex(
  store: Store,
  pricing: Pricing,
  raw: RawIndexDefinition,
  now: number,
): Promise<IndexDefinitionBody> {
  const definition = parseIndexDefinition(raw);
  if (definition.selector === 'products')
    for (const key of definition.selectorValue.split(',')) await pricing.productByKey(key);
  const stored = await store.indexes.add(definition, now);
  if (stored === null)
    throw new InvalidParameterError(
      'name',
      `an index named ${JSON.stringify(definition.name)} exists already`,
    );
  return definitionBody(stored);
}

export async function indexByName(store: Store, name: string): Promise<StoredIndex> {
  const index = await store.indexes.byName(name);
  if (index === undefined) {
    const names = (await store.indexes.list()).map((i) => i.name);
    throw new UnknownIndexError(name, names);
  }
  return index;
}

/** The products an index's selector picks, by id. */
async function selected(store: Store, index: StoredIndex): Promise<Set<number>> {
  const v = index.selectorValue;
  if (index.selector === 'products') {
    const found = await Promise.all(v.split(',').map((key) => store.products.findByKey(key)));
    return new Set(found.flatMap((p) => (p === undefined ? [] : [p.id])));
  }
  if (index.selector === 'search') {
    const keys = new Set((await store.products.catalog(v, -1)).map((e) => e.product_key));
    return new Set((await store.products.all()).filter((p) => keys.has(p.productKey)).map((p) => p.id));
  }
  const folded = v.toLowerCase();
  const picks = (p: StoredProduct) =>
    index.selector === 'set'
      ? p.setName.toLowerCase() === folded
      : index.selector === 'era'
        ? p.era === v
        : p.productType === v;
  return new Set((await store.products.all()).filter(picks).map((p) => p.id));
}

/**
 * Each member's membership at each instant: a product is a member from a rebalance (the base
 * date, then every INDEX_REBALANCE_MS) to the next when, before that rebalance, it has
 * INDEX_MIN_OBSERVATIONS_YEAR observations of the slot in a year and
 * INDEX_MIN_OBSERVATIONS_HALF_YEAR in half a year.
 */
async function membership(
  store: Store,
  index: StoredIndex,
  instants: readonly number[],
): Promise<Map<number, { product: StoredProduct; member: boolean[] }>> {
  const picked = await selected(store, index);
  const members = new Map<number, { product: StoredProduct; member: boolean[] }>();
  const base = instants[0]!;
  const last = instants.at(-1)!;
  for (let r = base, k = 0; r <= last; r += INDEX_REBALANCE_MS, k++) {
    const [year, half] = await Promise.all([
      store.products.activeIn(index.slot, r - 365 * DAY_MS, r, INDEX_MIN_OBSERVATIONS_YEAR),
      store.products.activeIn(index.slot, r - 182 * DAY_MS, r, INDEX_MIN_OBSERVATIONS_HALF_YEAR),
    ]);
    const recent = new Set(half.map((p) => p.id));
    const end = r + INDEX_REBALANCE_MS;
    for (const p of year) {
      if (!picked.has(p.id) || !recent.has(p.id)) continue;
      let entry = members.get(p.id);
      if (entry === undefined) {
        entry = { product: p, member: instants.map(() => false) };
        members.set(p.id, entry);
      }
      instants.forEach((t, i) => {
        if (t >= r && t < end) entry.member[i] = true;
      });
    }
  }
  return members;
}

/** A member's price and interval in `slot` at each of `bundles` (the engine's input, §17). */
export function memberPrices(bundles: readonly PricingBundle[], slot: string): MemberPrice[] {
  return bundles.map((bundle) => {
    const found = findSlot(bundle, slot);
    const c = found === null ? null : confidenceOf(found);
    return { price: found?.price_minor ?? null, low: c?.low_minor ?? null, high: c?.high_minor ?? null };
  });
}

/** The engine function of a definition's method. */
export const indexMethod = (method: IndexMethod) =>
  method === 'chained-laspeyres' ? chainedLaspeyres : chainedJevons;

/** An index's values over the span of `request`, its members priced one at a time through `pricing`. */
export async function showIndex(
  store: Store,
  pricing: Pricing,
  name: string,
  request: IndexSpanRequest,
  params: SeriesParams,
  now: number,
): Promise<IndexBody> {
  const index = await indexByName(store, name);
  const span = indexSpan(index.baseDate, request, now);
  const { instants } = span;
  const members = [...(await membership(store, index, instants)).values()];
  const inputs: IndexMember[] = [];
  for (const { product, member } of members) {
    const bundles = await pricing.priceSeries(product, params, instants, product.refsourceId);
    inputs.push({ prices: memberPrices(bundles, index.slot), member });
  }
  const shownAt = instants.findIndex((t) => t >= span.shownFrom);
  const first = shownAt === -1 ? instants.length - 1 : shownAt;
  const series = indexMethod(index.method)(instants, inputs, first);
  const points = series.values.slice(first).map((v, i) => ({
    at: toIsoUtc(instants[first + i]!),
    value: round2(v.value),
    low: round2(v.low),
    high: round2(v.high),
    priced: v.priced,
    linked: v.linked,
    version: null,
  }));
  const top = members
    .map((m, i) => ({ m, c: series.contributions[i]! }))
    .filter((x) => x.c !== 0)
    .sort(
      (a, b) => Math.abs(b.c) - Math.abs(a.c) || (a.m.product.productKey < b.m.product.productKey ? -1 : 1),
    )
    .slice(0, INDEX_TOP_CONTRIBUTORS);
  return {
    ...definitionBody(index),
    from: points[0]!.at,
    to: points.at(-1)!.at,
    every: span.every,
    members: members.length,
    points,
    change_pct: changePct(points),
    top_contributors: top.map(({ m, c }) => ({
      product_key: m.product.productKey,
      product_name: m.product.productName,
      contribution_pct: Math.round(c * 1000) / 10,
    })),
  };
}

const round2 = (x: number) => Math.round(x * 100) / 100;

/** From the first point to the last, percent, one decimal. */
export function changePct(points: readonly IndexPoint[]): number {
  const start = points[0]!.value;
  return Math.round(((points.at(-1)!.value - start) / start) * 1000) / 10;
}
