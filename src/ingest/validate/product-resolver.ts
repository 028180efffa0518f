/**
 * Resolving an observation record to its catalog product (by product_key, refsource_id or
 * tcgplayer_id and printing), with the answers cached: a file names few products many times.
 */
import { describeIdentity, type ProductIdentity } from '../../domain/identity.js';
import { landingPrintings, samePrinting } from '../../domain/printing.js';
import type { Product } from '../../domain/product.js';
import type { ProductLookup } from '../../store/store.js';

/** The product reference of an observation (at least one of the first three is set). */
export interface ProductReference {
  readonly productKey: string | undefined;
  readonly refsourceId: string | undefined;
  readonly tcgplayerId: string | undefined;
  /** With tcgplayerId: the TCGplayer printing (subTypeName) of the price. */
  readonly printing?: string | undefined;
  /** A crosswalk identity (domain/identity.ts), resolved when none of the others is set. */
  readonly identity?: ProductIdentity | undefined;
}

/** The part of a product resolution needs: its row id (-1 for a product only a dry run knows). */
export interface ResolvedProduct {
  id: number;
  productKey: string;
  refsourceId: string | null;
}

/**
 * Why an observation has no product: `reason` for a reject, `skip` the summary's count for a
 * feed that skips such rows (RowFormat.skipsUnmapped): `unmapped`, or the printing that
 * has no product.
 */
export interface Unresolved {
  reason: string;
  skip: string;
}

/**
 * Answers kept per lookup kind. A file naming more products than this looks the oldest up again
 * (one statement on a unique index), so an ingest's memory does not grow with the number of
 * products it names (issue 35: every answer kept grew a run naming 200,000 products by about 16 MiB).
 */
export const RESOLVED_CACHE_LIMIT = 10_000;

interface TcgplayerProduct extends ResolvedProduct {
  printing: string | null;
}

export class ProductResolver {
  private readonly byKey = new Map<string, ResolvedProduct | null>();
  private readonly byRefsource = new Map<string, ResolvedProduct | null>();
  private readonly byTcgplayer = new Map<string, TcgplayerProduct[]>();
  private readonly byIdentity = new Map<string, ResolvedProduct | null>();
  /** Products without a printing, by product_key, and the regular printing that landed on them in this run. */
  private readonly regularTaken = new Map<string, string>();
  /** Infinity once a dry run assumed products: they exist only here, so none may be dropped. */
  private limit = RESOLVED_CACHE_LIMIT;

  constructor(private readonly products: ProductLookup) {}

  /** The observation's product, or why it has none. */
  resolve(ref: ProductReference): ResolvedProduct | Unresolved {
    if (ref.productKey !== undefined) {
      const product = this.cached(this.byKey, ref.productKey, (key) => this.products.findByKey(key));
      if (product === null)
        return unmapped(
          `unknown product_key ${JSON.stringify(ref.productKey)}: not in the catalog (ingest catalog records first)`,
        );
      if (ref.refsourceId !== undefined && ref.refsourceId !== product.refsourceId) {
        return unmapped(
          `refsource_id ${ref.refsourceId} is not the refsource_id of product_key ${JSON.stringify(product.productKey)} (${product.refsourceId ?? 'none'})`,
        );
      }
      return product;
    }
    if (ref.refsourceId !== undefined) {
      const product = this.cached(this.byRefsource, ref.refsourceId, (id) =>
        this.products.findByRefsourceId(id),
      );
      return product ?? unmapped(`unknown refsource_id ${ref.refsourceId}: no catalog product has it`);
    }
    if (ref.tcgplayerId === undefined && ref.identity !== undefined) {
      const { scheme, value } = ref.identity;
      const product = this.cached(this.byIdentity, `${scheme} ${value}`, () =>
        this.products.findByIdentity(scheme, value),
      );
      if (product !== null) return product;
      const reason = `unknown ${describeIdentity(ref.identity)}: no catalog product has it`;
      // A second printing's id (`274235:foil`): the catalog has no product of that printing.
      const variant = value.includes(':') ? value.slice(value.indexOf(':') + 1) : null;
      return variant === null ? unmapped(reason) : { reason, skip: `no ${variant} product` };
    }
    return this.resolveTcgplayer(ref.tcgplayerId as string, ref.printing);
  }

  /**
   * The product of a TCGplayer id in one printing: the first of landingPrintings(printing)
   * that a product has. A regular printing lands on the product without a printing only if
   * no other regular printing did in this run (TCGplayer lists one per card; a second would
   * mix two printings in one series). Without a printing: the product without one, or the
   * id's only product.
   */
  private resolveTcgplayer(tcgplayerId: string, printing: string | undefined): ResolvedProduct | Unresolved {
    let products = this.byTcgplayer.get(tcgplayerId);
    if (products === undefined) {
      products = this.products.findByTcgplayerId(tcgplayerId).map((p) => ({
        id: p.id,
        productKey: p.productKey,
        refsourceId: p.refsourceId,
        printing: p.printing,
      }));
      remember(this.byTcgplayer, ownCopy(tcgplayerId), products, this.limit);
    }
    if (products.length === 0)
      return unmapped(`unknown tcgplayer_id ${tcgplayerId}: no catalog product has it`);
    if (printing === undefined) {
      const plain = products.filter((p) => p.printing === null);
      const only = plain.length === 1 ? plain[0] : products.length === 1 ? products[0] : undefined;
      return (
        only ??
        unmapped(
          `tcgplayer_id ${tcgplayerId} has ${products.length} products, one per printing: name the printing`,
        )
      );
    }
    for (const landing of landingPrintings(printing)) {
      const matches = products.filter((p) => samePrinting(p.printing, landing));
      if (matches.length === 0) continue;
      const product = matches[0] as TcgplayerProduct;
      if (matches.length > 1) {
        return {
          reason: `${matches.length} products have tcgplayer_id ${tcgplayerId} and ${landing === null ? 'no printing' : `printing ${landing}`}: ingest the catalog again to tell them apart`,
          skip: `ambiguous ${printing}`,
        };
      }
      if (landing === null) {
        const taken = this.regularTaken.get(product.productKey);
        if (taken !== undefined && !samePrinting(taken, printing)) break;
        this.regularTaken.set(product.productKey, printing);
      }
      return product;
    }
    return {
      reason: `tcgplayer_id ${tcgplayerId} has no product of printing ${printing}`,
      skip: `no ${printing} product`,
    };
  }

  private cached(
    cache: Map<string, ResolvedProduct | null>,
    key: string,
    load: (key: string) => { id: number; productKey: string; refsourceId: string | null } | undefined,
  ): ResolvedProduct | null {
    let hit = cache.get(key);
    if (hit === undefined) {
      const found = load(key);
      hit = found ? { id: found.id, productKey: found.productKey, refsourceId: found.refsourceId } : null;
      remember(cache, ownCopy(key), hit, this.limit);
    }
    return hit;
  }

  /** Drops every cached answer: the catalog changed. */
  forget(): void {
    this.byKey.clear();
    this.byRefsource.clear();
    this.byTcgplayer.clear();
    this.byIdentity.clear();
  }

  /** Makes products a dry run did not write resolvable for the rest of the run. */
  assume(products: readonly Product[]): void {
    this.limit = Infinity;
    for (const p of products) {
      const resolved = { id: -1, productKey: p.productKey, refsourceId: p.refsourceId };
      this.byKey.set(p.productKey, resolved);
      if (p.refsourceId !== null) this.byRefsource.set(p.refsourceId, resolved);
      if (p.tcgplayerId !== null) {
        const list = this.byTcgplayer.get(p.tcgplayerId) ?? [];
        this.byTcgplayer.set(p.tcgplayerId, [
          ...list.filter((q) => q.productKey !== p.productKey),
          { ...resolved, printing: p.printing ?? null },
        ]);
      }
      for (const { scheme, value } of p.identities ?? []) this.byIdentity.set(`${scheme} ${value}`, resolved);
    }
  }
}

function unmapped(reason: string): Unresolved {
  return { reason, skip: 'unmapped' };
}

/** Caches an answer, dropping the oldest beyond `limit` (insertion order: a cheap bound, not an LRU). */
function remember<V>(cache: Map<string, V>, key: string, value: V, limit: number): void {
  cache.set(key, value);
  if (cache.size > limit) cache.delete(cache.keys().next().value as string);
}

/**
 * A copy of `text` that shares no memory with it. A cell is often a slice of the decoded
 * chunk (1 MiB of text), and a cache key kept for the whole run would pin that chunk.
 */
function ownCopy(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}
