// @ts-check
/** Runs alternated, so drift on a noisy machine hits every side alike. */

/**
 * Runs each of `sides` once per round, `rounds` times, after one untimed warm-up round (disk
 * cache, compile cache), and returns every sample of each side, in the order of `sides`.
 * @template T
 * @param {number} rounds
 * @param {readonly (() => Promise<T>)[]} sides
 * @returns {Promise<T[][]>}
 */
export async function interleaveAll(rounds, sides) {
  for (const side of sides) await side();
  /** @type {T[][]} */
  const samples = sides.map(() => []);
  for (let i = 0; i < rounds; i += 1) {
    // Rotate the order round by round so no side always runs right after the same other one.
    for (let j = 0; j < sides.length; j += 1) {
      const k = (i + j) % sides.length;
      /** @type {T[]} */ (samples[k]).push(await /** @type {() => Promise<T>} */ (sides[k])());
    }
  }
  return samples;
}
