// @ts-check
/** A/B runs alternated, so drift on a noisy machine hits both sides alike. */

/**
 * Runs `a` and `b` alternately `pairs` times after one untimed warm-up pair (disk cache,
 * compile cache) and returns every sample of each.
 * @template T
 * @param {number} pairs
 * @param {() => Promise<T>} a
 * @param {() => Promise<T>} b
 * @returns {Promise<{ a: T[], b: T[] }>}
 */
export async function interleave(pairs, a, b) {
  await a();
  await b();
  /** @type {T[]} */
  const as = [];
  /** @type {T[]} */
  const bs = [];
  for (let i = 0; i < pairs; i += 1) {
    // Swap the order every other pair so neither side always runs right after the other.
    if (i % 2 === 0) {
      as.push(await a());
      bs.push(await b());
    } else {
      bs.push(await b());
      as.push(await a());
    }
  }
  return { a: as, b: bs };
}
