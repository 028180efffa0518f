// @ts-check
/**
 * The sizes of the benchmark. `full` is exactly issue 6; `quick` (the default) keeps the
 * same shapes at about a tenth of the size so a run takes a minute or two; `smoke` only
 * checks that the harness and the product run end to end (seconds; its figures mean little).
 */

/**
 * @typedef {object} Scale
 * @property {'smoke' | 'quick' | 'full'} name
 * @property {{ rows: number, products: number, repeats: number }} ingest
 * @property {{ big: DataShape, small: DataShape, iterations: number, warmup: number }} pricing
 * @property {{ durationSeconds: number, connections: number, rounds: number }} api
 * @property {{ pairs: number }} cliStart
 * @property {{ runs: number }} catalog
 * @property {{ bytes: number, products: number }} memory
 * @property {{ small: number, big: number }} catalogMemory products of the two catalog ingests whose peak RSS is compared
 * @property {{ rounds: number }} history
 * @property {{ allowance: number }} load the heavy key's allowance (`--rate-limit`): its burst of history requests
 * @property {{ rows: number, small: number, big: number }} productsMemory observation rows ingested over catalogs of `small` and `big` products (issue 35: 1,000 and 300,000)
 * @property {{ products: number }} search products of the generated catalog searched (issue 35: 300,000)
 */

/**
 * @typedef {object} DataShape
 * @property {number} observations total rows in the database
 * @property {number} products
 * @property {number} hot observations of the priced ("hot") product, the first one
 */

/** @type {Record<'smoke' | 'quick' | 'full', Scale>} */
export const SCALES = {
  smoke: {
    name: 'smoke',
    ingest: { rows: 10_000, products: 50, repeats: 1 },
    pricing: {
      big: { observations: 20_000, products: 50, hot: 5_000 },
      small: { observations: 2_000, products: 5, hot: 500 },
      iterations: 200,
      warmup: 20,
    },
    api: { durationSeconds: 1, connections: 4, rounds: 1 },
    cliStart: { pairs: 2 },
    catalog: { runs: 2 },
    memory: { bytes: 4 * 1024 ** 2, products: 50 },
    catalogMemory: { small: 1_000, big: 5_000 },
    history: { rounds: 3 },
    load: { allowance: 4 },
    productsMemory: { rows: 10_000, small: 1_000, big: 5_000 },
    search: { products: 5_000 },
  },
  quick: {
    name: 'quick',
    ingest: { rows: 100_000, products: 1_000, repeats: 3 },
    pricing: {
      big: { observations: 1_000_000, products: 1_000, hot: 100_000 },
      small: { observations: 10_000, products: 10, hot: 1_000 },
      iterations: 2_000,
      warmup: 200,
    },
    api: { durationSeconds: 5, connections: 10, rounds: 1 },
    cliStart: { pairs: 10 },
    catalog: { runs: 5 },
    memory: { bytes: 200 * 1024 ** 2, products: 1_000 },
    catalogMemory: { small: 10_000, big: 100_000 },
    history: { rounds: 15 },
    load: { allowance: 20 },
    productsMemory: { rows: 200_000, small: 1_000, big: 300_000 },
    search: { products: 300_000 },
  },
  full: {
    name: 'full',
    ingest: { rows: 1_000_000, products: 10_000, repeats: 3 },
    pricing: {
      big: { observations: 10_000_000, products: 10_000, hot: 100_000 },
      small: { observations: 100_000, products: 100, hot: 1_000 },
      iterations: 5_000,
      warmup: 500,
    },
    api: { durationSeconds: 10, connections: 10, rounds: 3 },
    cliStart: { pairs: 30 },
    catalog: { runs: 15 },
    memory: { bytes: 2 * 1024 ** 3, products: 10_000 },
    catalogMemory: { small: 10_000, big: 200_000 },
    history: { rounds: 30 },
    load: { allowance: 120 },
    productsMemory: { rows: 1_000_000, small: 1_000, big: 300_000 },
    search: { products: 300_000 },
  },
};

/**
 * Describes a scale in one line for results.md.
 * @param {Scale} s
 * @returns {string}
 */
export function describeScale(s) {
  if (s.name === 'full') return 'full (the sizes of issue 6)';
  if (s.name === 'quick') return 'quick (about a tenth of issue 6 sizes; `--scale full` for those)';
  return 'smoke (harness check only: figures are not meaningful)';
}
