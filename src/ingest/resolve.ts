/**
 * Resolving an observation record to its catalog product (by product_key, refsource_id or
 * tcgplayer_id), with every answer cached for the run: a file names few products many times.
 */
import type { Product } from '../domain/product.js';
import type { Store } from '../store/store.js';
import type { ObservationRecord } from './records.js';

/** The part of a product resolution needs: its row id (-1 for a product only a dry run knows). */
export interface ResolvedProduct {
  id: number;
  productKey: string;
  refsourceId: string | null;
}

type Lookup = Pick<Store['products'], 'findByKey' | 'findByRefsourceId' | 'findByTcgplayerId'>;

export class ProductResolver {
  private readonly byKey = new Map<string, ResolvedProduct | null>();
  private readonly byRefsource = new Map<string, ResolvedProduct | null>();
  private readonly byTcgplayer = new Map<string, ResolvedProduct | null>();

  constructor(private readonly products: Lookup) {}

  /** The record's product, or the reason it has none. */
  resolve(record: ObservationRecord): ResolvedProduct | string {
    if (record.product_key !== undefined) {
      const product = cached(this.byKey, record.product_key, (key) => this.products.findByKey(key));
      if (product === null) return `unknown product_key ${JSON.stringify(record.product_key)}: not in the catalog (ingest catalog records first)`;
      if (record.refsource_id !== undefined && record.refsource_id !== product.refsourceId) {
        return `refsource_id ${record.refsource_id} is not the refsource_id of product_key ${JSON.stringify(product.productKey)} (${product.refsourceId ?? 'none'})`;
      }
      return product;
    }
    if (record.refsource_id !== undefined) {
      const product = cached(this.byRefsource, record.refsource_id, (id) => this.products.findByRefsourceId(id));
      return product ?? `unknown refsource_id ${record.refsource_id}: no catalog product has it`;
    }
    const id = record.tcgplayer_id as string;
    const product = cached(this.byTcgplayer, id, (tcg) => this.products.findByTcgplayerId(tcg));
    return product ?? `unknown tcgplayer_id ${id}: no catalog product has it`;
  }

  /** Drops every cached answer: the catalog changed. */
  forget(): void {
    this.byKey.clear();
    this.byRefsource.clear();
    this.byTcgplayer.clear();
  }

  /** Makes products a dry run did not write resolvable for the rest of the run. */
  assume(products: readonly Product[]): void {
    for (const p of products) {
      const resolved = { id: -1, productKey: p.productKey, refsourceId: p.refsourceId };
      this.byKey.set(p.productKey, resolved);
      if (p.refsourceId !== null) this.byRefsource.set(p.refsourceId, resolved);
      if (p.tcgplayerId !== null) this.byTcgplayer.set(p.tcgplayerId, resolved);
    }
  }
}

function cached(
  cache: Map<string, ResolvedProduct | null>,
  key: string,
  load: (key: string) => { id: number; productKey: string; refsourceId: string | null } | undefined,
): ResolvedProduct | null {
  let hit = cache.get(key);
  if (hit === undefined) {
    const found = load(key);
    hit = found ? { id: found.id, productKey: found.productKey, refsourceId: found.refsourceId } : null;
    cache.set(key, hit);
  }
  return hit;
}
