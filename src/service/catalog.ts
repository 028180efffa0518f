/** The catalog body of SPEC.md 4.5: `{total, products}` with exactly the fields of 2.6. */
import type { CatalogEntry } from '../domain/product.js';

export interface CatalogBody {
  total: number;
  products: Omit<CatalogEntry, 'observation_count'>[];
}

export function catalogBody(entries: readonly CatalogEntry[]): CatalogBody {
  return {
    total: entries.length,
    products: entries.map(({ observation_count: _count, ...entry }) => entry),
  };
}
