/** Catalog products on PostgreSQL: the statements of ../sqlite/product-repo.ts, and search as search.ts ranks it. */
import { tcgplayerIdentity, type IdentityScheme } from '../../domain/identity.js';
import { samePrinting } from '../../domain/printing.js';
import type { CatalogEntry, Product } from '../../domain/product.js';
import { allWordsPhrases, anyWordPhrases } from '../fts-query.js';
import type { ActiveProduct, StoredProduct } from '../store.js';
import {
  CATALOG_COLUMNS,
  identityFirst,
  identityOrder,
  identityText,
  identityWhere,
  PRODUCT_COLUMNS,
  PRODUCT_UPSERT_SET,
  toCatalogEntry,
  toProduct,
  type CatalogRow,
  type ProductRow,
} from '../product-rows.js';
import { anyPhraseQuery, rankMatches, searchDocument, toPhrase, type SearchCandidate } from './search.js';
import type { Session } from './session.js';

/** Text in SQLite's order (bytes), whatever the database's collation. */
const BYTES = 'COLLATE "C"';

export function createPgProductRepo(session: Session) {
  const q = session.query;
  const one = async (text: string, params: unknown[]) => {
    const [row] = await q<ProductRow>(text, params);
    return row && toProduct(row);
  };

  /** The products matching `phrases` (every one with `all`, else any), best first, at most `limit` (-1: all). */
  async function search(
    phraseTexts: readonly string[],
    all: boolean,
    limit: number,
  ): Promise<(CatalogRow & SearchCandidate)[]> {
    const phrases = phraseTexts.map(toPhrase).filter((p) => p.length > 0);
    if (phrases.length === 0 || (all && phrases.length < phraseTexts.length)) return [];
    const [candidates, [corpus]] = await Promise.all([
      q<CatalogRow & SearchCandidate>(
        // The catalog columns hold the searched ones (SEARCH_COLUMNS).
        `SELECT id, ${CATALOG_COLUMNS} FROM products WHERE search @@ $1::tsquery`,
        [anyPhraseQuery(phrases)],
      ),
      q<{ rows: number; tokens: number }>(
        'SELECT count(*) AS rows, coalesce(sum(search_size), 0)::bigint AS tokens FROM products',
      ),
    ]);
    const ranked = rankMatches(candidates, phrases, all, corpus!);
    return limit < 0 ? ranked : ranked.slice(0, limit);
  }

  return {
    async pageAfter(afterId: number, limit: number): Promise<StoredProduct[]> {
      return (
        await q<ProductRow>(`SELECT ${PRODUCT_COLUMNS} FROM products WHERE id > $1 ORDER BY id LIMIT $2`, [
          afterId,
          limit,
        ])
      ).map(toProduct);
    },
    async activeIn(condition: string, from: number, to: number, min: number): Promise<ActiveProduct[]> {
      // As the SQLite store's: a range count per product over the pricing index, bounded by observation_count.
      const rows = await q<ProductRow & { observations: number }>(
        `SELECT * FROM (SELECT ${PRODUCT_COLUMNS}, (SELECT count(*) FROM observations o
                  WHERE o.product_id = products.id AND o.condition = $1 AND o.observed_at >= $2 AND o.observed_at < $3) AS observations
                FROM products WHERE observation_count >= $4) counted WHERE observations >= $4 ORDER BY id`,
        [condition, from, to, min],
      );
      return rows.map((row) => ({ ...toProduct(row), observations: row.observations }));
    },
    async count(): Promise<number> {
      return (await q<{ n: number }>('SELECT count(*) AS n FROM products'))[0]!.n;
    },
    findByKey: (productKey: string) =>
      one(`SELECT ${PRODUCT_COLUMNS} FROM products WHERE product_key = $1`, [productKey]),
    findByRefsourceId: (refsourceId: string) =>
      one(`SELECT ${PRODUCT_COLUMNS} FROM products WHERE refsource_id = $1`, [refsourceId]),
    async all(): Promise<StoredProduct[]> {
      return (await q<ProductRow>(`SELECT ${PRODUCT_COLUMNS} FROM products ORDER BY id`)).map(toProduct);
    },
    async findByIdentity(scheme: IdentityScheme, value: string): Promise<StoredProduct | undefined> {
      if (scheme === 'tcgplayer') {
        const { tcgplayerId, printing } = tcgplayerIdentity(value);
        return (await this.findByTcgplayerId(tcgplayerId)).find((p) => samePrinting(p.printing, printing));
      }
      return one(
        `SELECT ${PRODUCT_COLUMNS.split(', ')
          .map((c) => `p.${c}`)
          .join(', ')} FROM product_identities i JOIN products p ON p.id = i.product_id
         WHERE i.scheme = $1 AND i.value = $2`,
        [scheme, value],
      );
    },
    async findByTcgplayerId(tcgplayerId: string): Promise<StoredProduct[]> {
      return (
        await q<ProductRow>(`SELECT ${PRODUCT_COLUMNS} FROM products WHERE tcgplayer_id = $1 ORDER BY id`, [
          tcgplayerId,
        ])
      ).map(toProduct);
    },
    /** The catalog body of SPEC.md 4.5 (`{total, products}`) as JSON text, as the SQLite store writes it. */
    async catalogJson(): Promise<string> {
      const entries = await this.catalog();
      return JSON.stringify({
        total: entries.length,
        products: entries.map((e) => ({
          product_key: e.product_key,
          refsource_id: e.refsource_id,
          product_name: e.product_name,
          product_type: e.product_type,
          era: e.era,
          earliest_observation: e.earliest_observation,
          tcgplayer_id: e.tcgplayer_id,
          printing: e.printing,
          language: e.language,
        })),
      });
    },
    async catalog(text?: string, limit = -1): Promise<CatalogEntry[]> {
      if (!text)
        return (
          await q<CatalogRow>(`SELECT ${CATALOG_COLUMNS} FROM products ORDER BY product_key ${BYTES}`)
        ).map(toCatalogEntry);
      // The product whose key or id the text is (product-rows.ts, identityWhere), then the text's matches.
      const identity = await q<CatalogRow>(
        `SELECT ${CATALOG_COLUMNS} FROM products WHERE ${identityWhere('$1')} ORDER BY ${identityOrder('$1')}, product_key ${BYTES}`,
        [identityText(text)],
      );
      const matches = await search(allWordsPhrases(text), true, limit < 0 ? -1 : limit + identity.length);
      return identityFirst(identity, matches, limit).map(toCatalogEntry);
    },
    async catalogPage(afterKey: string | null, limit: number): Promise<CatalogEntry[]> {
      return (
        await q<CatalogRow>(
          `SELECT ${CATALOG_COLUMNS} FROM products WHERE product_key ${BYTES} > $1 ORDER BY product_key ${BYTES} LIMIT $2`,
          [afterKey ?? '', limit],
        )
      ).map(toCatalogEntry);
    },
    async keysLike(text: string, limit: number): Promise<string[]> {
      return (await search(anyWordPhrases(text), false, limit)).map((row) => row.product_key);
    },
    /** The words of the search column with how many products hold each, as the SQLite store's fts5vocab lists them. */
    async vocabulary(): Promise<{ word: string; products: number }[]> {
      return q<{ word: string; products: number }>(
        `SELECT word, ndoc AS products FROM ts_stat('SELECT search FROM products') ORDER BY word ${BYTES}`,
      );
    },
  };
}

type Query = (text: string, params: unknown[]) => Promise<{ id: number; product_key: string }[]>;

/**
 * Creates or updates products by key, as the SQLite store's upsert does (a TCGplayer id or
 * printing the record leaves out keeps the stored one); a key given twice keeps its last
 * record. Returns each product's id.
 */
export async function upsertProducts(
  query: Query,
  products: readonly Product[],
): Promise<{ id: number; product_key: string }[]> {
  const last = new Map<string, Product>();
  for (const p of products) last.set(p.productKey, p);
  const rows = [...last.values()];
  const documents = rows.map((p) => searchDocument([p.productKey, p.productName, p.setName, p.subtitle]));
  const columns: [string, string, unknown[]][] = [
    ['product_key', 'text', rows.map((p) => p.productKey)],
    ['refsource_id', 'text', rows.map((p) => p.refsourceId)],
    ['product_name', 'text', rows.map((p) => p.productName)],
    ['subtitle', 'text', rows.map((p) => p.subtitle)],
    ['set_name', 'text', rows.map((p) => p.setName)],
    ['image_url', 'text', rows.map((p) => p.imageUrl)],
    ['product_type', 'text', rows.map((p) => p.productType)],
    ['era', 'text', rows.map((p) => p.era)],
    ['release_date', 'text', rows.map((p) => p.releaseDate)],
    ['tcgplayer_id', 'text', rows.map((p) => p.tcgplayerId)],
    ['printing', 'text', rows.map((p) => p.printing ?? null)],
    ['language', 'text', rows.map((p) => p.language ?? null)],
    ['search_text', 'text', documents.map((d) => d.searchText)],
    ['search_size', 'int', documents.map((d) => d.searchSize)],
  ];
  const stored = await query(
    `INSERT INTO products (${columns.map(([name]) => name).join(', ')})
     SELECT * FROM unnest(${columns.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ')})
     ON CONFLICT (product_key) DO UPDATE SET ${PRODUCT_UPSERT_SET},
       search_text = excluded.search_text, search_size = excluded.search_size
     RETURNING id, product_key`,
    columns.map(([, , values]) => values),
  );
  await writeIdentities(query, rows, stored);
  return stored;
}

/**
 * The crosswalk rows the upserted products claim (domain/identity.ts): each replaces its product's
 * value of that scheme, all deletes before all inserts, as the SQLite store does.
 */
async function writeIdentities(
  query: Query,
  rows: readonly Product[],
  stored: readonly { id: number; product_key: string }[],
): Promise<void> {
  const ids = new Map(stored.map((s) => [s.product_key, s.id]));
  const claims = rows.flatMap((p) => (p.identities ?? []).map((i) => ({ id: ids.get(p.productKey)!, ...i })));
  if (claims.length === 0) return;
  const arrays = [claims.map((c) => c.id), claims.map((c) => c.scheme), claims.map((c) => c.value)];
  await query(
    `DELETE FROM product_identities i USING unnest($1::int[], $2::text[]) AS c(id, scheme)
     WHERE i.product_id = c.id AND i.scheme = c.scheme`,
    arrays.slice(0, 2),
  );
  await query(
    'INSERT INTO product_identities (product_id, scheme, value) SELECT * FROM unnest($1::int[], $2::text[], $3::text[])',
    arrays,
  );
}
