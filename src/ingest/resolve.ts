/**
 * Resolving an observation record to its catalog product (by product_key, refsource_id or
 * tcgplayer_id), with every answer cached for the run: a file names few products many times.
 */
import type { Product } from '../domain/product.js';
import type { Store } from '../store/store.js';

/** The product reference of an observation (at least one is set). */
export interface ProductReference {
  readonly productKey: string | undefined;
  readonly refsourceId: string | undefined;
  readonly tcgplayerId: string | undefined;
}

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

  /** The observation's product, or the reason it has none. */
  resolve(ref: ProductReference): ResolvedProduct | string {
    if (ref.productKey !== undefined) {
      const product = cached(this.byKey, ref.productKey, (key) => this.products.findByKey(key));
      if (product === null) return `unknown product_key ${JSON.stringify(ref.productKey)}: not in the catalog (ingest catalog records first)`;
      if (ref.refsourceId !== undefined && ref.refsourceId !== product.refsourceId) {
        return `refsource_id ${ref.refsourceId} is not the refsource_id of product_key ${JSON.stringify(product.productKey)} (${product.refsourceId ?? 'none'})`;
      }
      return product;
    }
    if (ref.refsourceId !== undefined) {
      const product = cached(this.byRefsource, ref.refsourceId, (id) => this.products.findByRefsourceId(id));
      return product ?? `unknown refsource_id ${ref.refsourceId}: no catalog product has it`;
    }
    const id = ref.tcgplayerId as string;
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
    cache.set(ownCopy(key), hit);
  }
  return hit;
}

/**
 * A copy of `text` that shares no memory with it. A cell is often a slice of the decoded
 * chunk (1 MiB of text), and a cache key kept for the whole run would pin that chunk.
 */
function ownCopy(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}
