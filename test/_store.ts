/**
 * Seeding a store in tests through its own interface (the ingest writer `oracle ingest`
 * uses), so the same seed runs on any store; and reading what a CLI run stored, with SQL that
 * both dialects read alike.
 */
import Database from 'better-sqlite3';
import pg from 'pg';
import { conditionKey, UNGRADED } from '../src/domain/conditions.js';
import type { Product } from '../src/domain/product.js';
import { isPostgresUrl } from '../src/store/location.js';
import type {
  InsertResult,
  ObservationRow,
  ResolvedObservation,
  Store,
  StoredProduct,
} from '../src/store/store.js';

/** Creates or updates `products` in one committed batch. */
export async function writeProducts(store: Store, products: readonly Product[]): Promise<void> {
  const writer = await store.openIngest({ dryRun: false });
  try {
    writer.upsertProducts(products);
    await writer.commit();
  } finally {
    await writer.close();
  }
}

/** An ungraded sale as the ingest writer takes it (IngestWriter.insert), without an external id unless given. */
export function ungradedRow(
  row: Pick<ObservationRow, 'productId' | 'observedAt' | 'priceMinor' | 'source'> & Partial<ObservationRow>,
): ObservationRow {
  return { condition: UNGRADED, grader: UNGRADED, grade: null, externalId: '', ...row };
}

/** An observation to seed: with its product id and, for a sale matched by its title, how (observations.matched_by). */
export type SeedObservation = ResolvedObservation & { matchedBy?: string | null };

/** Inserts `rows` in one committed batch; what was new and what was already stored. */
export async function writeObservations(
  store: Store,
  rows: readonly SeedObservation[],
): Promise<InsertResult> {
  const writer = await store.openIngest({ dryRun: false });
  try {
    for (const o of rows) {
      writer.insert({ ...o, condition: conditionKey(o.grader, o.grade), externalId: o.externalId ?? '' });
    }
    return await writer.commit();
  } finally {
    await writer.close();
  }
}

/** The stored product of `productKey` (the test fails loudly when it is missing). */
export async function storedProduct(store: Store, productKey: string): Promise<StoredProduct> {
  const product = await store.products.findByKey(productKey);
  if (!product) throw new Error(`no product ${productKey} in the test store`);
  return product;
}

/**
 * The rows of `sql` (plain SQL both SQLite and PostgreSQL read alike, no parameters) on the
 * database at `location`, bypassing the store: what a test checks must not go through the
 * code it tests. Counts come back as numbers on both.
 */
export async function selectRows<T extends Record<string, unknown>>(
  location: string,
  sql: string,
): Promise<T[]> {
  if (!isPostgresUrl(location)) {
    const reader = new Database(location, { readonly: true, fileMustExist: true });
    try {
      return reader.prepare(sql).all() as T[];
    } finally {
      reader.close();
    }
  }
  const client = new pg.Client({ connectionString: location });
  await client.connect();
  try {
    const { rows, fields } = await client.query(sql);
    // count(*) and bigint columns arrive as text from node-postgres.
    const int8 = new Set(fields.filter((f) => f.dataTypeID === 20).map((f) => f.name));
    return rows.map((row: Record<string, unknown>) => {
      for (const name of int8) if (row[name] !== null) row[name] = Number(row[name]);
      return row as T;
    });
  } finally {
    await client.end();
  }
}
