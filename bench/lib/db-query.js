// @ts-check
/** Read-only looks into a benchmark database, to check what a run loaded and pick what to price. */
import Database from 'better-sqlite3';

/**
 * @template T
 * @param {string} path
 * @param {(db: import('better-sqlite3').Database) => T} fn
 * @returns {T}
 */
export function withDatabase(path, fn) {
  const db = new Database(path, { readonly: true });
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

/**
 * @param {string} path
 * @returns {number}
 */
export function countObservations(path) {
  return withDatabase(
    path,
    (db) => /** @type {{ n: number }} */ (db.prepare('SELECT count(*) AS n FROM observations').get()).n,
  );
}

/**
 * A product's observation count and the number of products in the database.
 * @param {string} path
 * @param {string} productKey
 * @returns {{ productKey: string, count: number, products: number }}
 */
export function productCount(path, productKey) {
  return withDatabase(path, (db) => {
    const row = /** @type {{ n: number } | undefined} */ (
      db.prepare('SELECT observation_count AS n FROM products WHERE product_key = ?').get(productKey)
    );
    if (!row) throw new Error(`${path} has no product ${productKey}`);
    const products = /** @type {{ n: number }} */ (db.prepare('SELECT count(*) AS n FROM products').get()).n;
    return { productKey, count: row.n, products };
  });
}

/**
 * The product with the most observations (a liquid product of the sample) and its count.
 * @param {string} path
 * @returns {{ productKey: string, count: number, products: number }}
 */
export function hottestProduct(path) {
  return withDatabase(path, (db) => {
    const row = /** @type {{ product_key: string, n: number } | undefined} */ (
      db
        .prepare(
          'SELECT product_key, observation_count AS n FROM products ORDER BY observation_count DESC LIMIT 1',
        )
        .get()
    );
    if (!row) throw new Error(`${path} has no products`);
    const products = /** @type {{ n: number }} */ (db.prepare('SELECT count(*) AS n FROM products').get()).n;
    return { productKey: row.product_key, count: row.n, products };
  });
}
