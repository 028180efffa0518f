// @ts-check
/**
 * Child process of the pricing benchmark: prices one product many times in-process with the
 * BUILT service (build/: the sources bundled as dist/ is), as `oracle price` and `oracle serve` do, and prints one JSON line:
 * per-bundle latencies, the store's share, points read and SQL statements executed.
 *
 * Usage: node pricing-probe.js <db> <product_key> <asOf ISO> <iterations> <warmup>
 */
import Database from 'better-sqlite3';

// The built service (what users run), typed against its sources.
/** @type {typeof import('../../src/store/open-store.js')} */
const { openStore } = await import(new URL('../../build/store/open-store.js', import.meta.url).href);
/** @type {typeof import('../../src/service/pricing.js')} */
const { createPricing } = await import(new URL('../../build/service/pricing.js', import.meta.url).href);

const [db, productKey, asOfIso, iterationsArg, warmupArg] = process.argv.slice(2);
if (!db || !productKey || !asOfIso)
  throw new Error('usage: pricing-probe.js <db> <product_key> <asOf> <iterations> <warmup>');
const iterations = Number(iterationsArg ?? 1000);
const warmup = Number(warmupArg ?? 100);
/** Stop early past this much measuring time, whatever the iteration count. */
const BUDGET_MS = 30_000;

// Count every statement execution: better-sqlite3 runs SQL only through these four methods.
let statements = 0;
const probe = new Database(':memory:');
const proto = Object.getPrototypeOf(probe.prepare('SELECT 1'));
probe.close();
for (const method of ['run', 'get', 'all', 'iterate']) {
  const original = proto[method];
  proto[method] = function (/** @type {unknown[]} */ ...args) {
    statements += 1;
    return original.apply(this, args);
  };
}

// Opened as `oracle serve` opens its store (read-only): the server's reads, which on
// PostgreSQL go through the store's point cache (src/store/pg/point-cache.ts).
const store = await openStore(db, { readonly: true });
const pricing = createPricing(store);
const product = await pricing.productByKey(productKey);
const params = { windowHours: 24, outlierStddevs: 2, asOf: Date.parse(asOfIso) };

// Time the store's share separately by wrapping its one read (SQLite reads before it returns).
const reader = store.pricePoints;
const read = reader.read.bind(reader);
let storeNs = 0n;
let points = 0;
/** @type {typeof read} */
reader.read = async (...args) => {
  const t0 = process.hrtime.bigint();
  const pending = read(...args);
  storeNs += process.hrtime.bigint() - t0;
  const result = await pending;
  points = result.length;
  return result;
};

for (let i = 0; i < warmup; i += 1) await pricing.price(product, params, null);

/** @type {number[]} */
const totalMs = [];
/** @type {number[]} */
const storeMs = [];
const statementsBefore = statements;
const started = performance.now();
let bundle;
for (let i = 0; i < iterations && performance.now() - started < BUDGET_MS; i += 1) {
  storeNs = 0n;
  const t0 = process.hrtime.bigint();
  bundle = await pricing.price(product, params, null);
  const t1 = process.hrtime.bigint();
  totalMs.push(Number(t1 - t0) / 1e6);
  storeMs.push(Number(storeNs) / 1e6);
}
const statementsPerBundle = (statements - statementsBefore) / totalMs.length;
await store.close();

process.stdout.write(
  `${JSON.stringify({
    totalMs,
    storeMs,
    points,
    statementsPerBundle,
    ungradedPriceMinor: bundle?.ungraded.price_minor ?? null,
  })}\n`,
);
