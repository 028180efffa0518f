/**
 * The identities a catalog record claims, its refsource_id, its tcgplayer_id with its
 * printing, and the crosswalk's (domain/identity.ts: cardmarket_id, pricecharting_id,
 * scryfall_id, psa_spec): two product_keys claiming one (in a batch, or one in the batch and
 * one stored) are both rejected and neither product changes, so a price never lands on the
 * wrong card.
 */
import { describeIdentity } from '../../domain/identity.js';
import { samePrinting } from '../../domain/printing.js';
import type { Product } from '../../domain/product.js';
import type { ProductLookup } from '../../store/store.js';

/**
 * The reject reason of every product_key of `products` caught in an identity conflict.
 * `current` is a product as this run has it (written in this batch, else stored); `lookup`
 * finds the stored owners of an identity.
 */
export function identityConflicts(
  products: readonly Product[],
  current: (productKey: string) => Product | undefined,
  lookup: ProductLookup,
): Map<string, string> {
  const inBatch = new Map<string, Product>();
  for (const p of products) inBatch.set(p.productKey, p);
  /** Identity -> the keys claiming it, in order, and what to call it in a message. */
  const claims = new Map<string, { what: string; keys: string[] }>();
  const claim = (identity: string, what: string, key: string) => {
    const entry = claims.get(identity) ?? { what, keys: [] };
    if (!entry.keys.includes(key)) entry.keys.push(key);
    claims.set(identity, entry);
  };
  for (const p of inBatch.values()) {
    const stored = current(p.productKey);
    if (p.refsourceId !== null) {
      const owner = lookup.findByRefsourceId(p.refsourceId)?.productKey;
      // A stored owner keeps its claim unless this batch gives it another refsource_id.
      const ownerNext = inBatch.get(owner ?? '');
      if (owner !== undefined && (ownerNext === undefined || ownerNext.refsourceId === p.refsourceId)) {
        claim(`r:${p.refsourceId}`, `refsource_id ${p.refsourceId}`, owner);
      }
      claim(`r:${p.refsourceId}`, `refsource_id ${p.refsourceId}`, p.productKey);
    }
    for (const identity of p.identities ?? []) {
      const claimed = `i:${identity.scheme}:${identity.value}`;
      const what = describeIdentity(identity);
      const owner = lookup.findByIdentity(identity.scheme, identity.value)?.productKey;
      // A stored owner keeps its claim unless this batch gives it another value of the scheme.
      const ownerNext = inBatch.get(owner ?? '')?.identities?.find((i) => i.scheme === identity.scheme);
      if (owner !== undefined && (ownerNext === undefined || ownerNext.value === identity.value))
        claim(claimed, what, owner);
      claim(claimed, what, p.productKey);
    }
    // As stored: a record without tcgplayer_id or printing keeps the stored one.
    const tcgplayerId = p.tcgplayerId ?? stored?.tcgplayerId ?? null;
    if (tcgplayerId === null) continue;
    const printing = p.printing ?? stored?.printing ?? null;
    const identity = `t:${tcgplayerId}:${printing?.toLowerCase() ?? ''}`;
    const what = `tcgplayer_id ${tcgplayerId} with ${printing === null ? 'no printing' : `printing ${JSON.stringify(printing)}`}`;
    for (const other of lookup.findByTcgplayerId(tcgplayerId)) {
      const next = inBatch.get(other.productKey);
      const otherPrinting = next === undefined ? other.printing : (next.printing ?? other.printing);
      const otherTcg = next === undefined ? other.tcgplayerId : (next.tcgplayerId ?? other.tcgplayerId);
      if (otherTcg === tcgplayerId && samePrinting(otherPrinting, printing))
        claim(identity, what, other.productKey);
    }
    claim(identity, what, p.productKey);
  }
  const conflicts = new Map<string, string>();
  for (const { what, keys } of claims.values()) {
    if (keys.length < 2) continue;
    const reason = `${what} is claimed by product_key ${keys.map((k) => JSON.stringify(k)).join(' and product_key ')}: neither is changed`;
    for (const key of keys) if (inBatch.has(key)) conflicts.set(key, conflicts.get(key) ?? reason);
  }
  return conflicts;
}

/**
 * True when storing `next` would change nothing (a missing tcgplayer_id or printing keeps the
 * stored one; `lookup` tells whether the identities it claims are already its own).
 */
export function sameProduct(stored: Product, next: Product, lookup: ProductLookup): boolean {
  return (
    (next.identities ?? []).every(
      (i) => lookup.findByIdentity(i.scheme, i.value)?.productKey === stored.productKey,
    ) &&
    stored.refsourceId === next.refsourceId &&
    stored.productName === next.productName &&
    stored.subtitle === next.subtitle &&
    stored.setName === next.setName &&
    stored.imageUrl === next.imageUrl &&
    stored.productType === next.productType &&
    stored.era === next.era &&
    stored.releaseDate === next.releaseDate &&
    (next.tcgplayerId === null || stored.tcgplayerId === next.tcgplayerId) &&
    (next.printing == null || stored.printing === next.printing) &&
    (stored.language ?? null) === (next.language ?? null)
  );
}
