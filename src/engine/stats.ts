/**
 * Order statistics on a scratch buffer in O(n) (quickselect), so the filter and the guards
 * never sort a whole window. Results are exact: the same numbers a full sort would give.
 */

/** Rearranges buf[0..n) so buf[k] is the k-th smallest (0-based); returns it. */
function select(buf: Float64Array, n: number, k: number): number {
  let lo = 0;
  let hi = n - 1;
  while (hi > lo) {
    // Median-of-three pivot keeps sorted and constant inputs linear.
    const mid = (lo + hi) >>> 1;
    const a = buf[lo]!;
    const b = buf[mid]!;
    const c = buf[hi]!;
    const pivot = a < b ? (b < c ? b : a < c ? c : a) : a < c ? a : b < c ? c : b;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (buf[i]! < pivot) i++;
      while (buf[j]! > pivot) j--;
      if (i <= j) {
        const tmp = buf[i]!;
        buf[i] = buf[j]!;
        buf[j] = tmp;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return buf[k]!;
  }
  return buf[k]!;
}

/** Smallest value of buf[from..n). */
function minFrom(buf: Float64Array, from: number, n: number): number {
  let m = buf[from]!;
  for (let i = from + 1; i < n; i++) if (buf[i]! < m) m = buf[i]!;
  return m;
}

/**
 * Linear-interpolation quantile of buf[0..n) (Hyndman-Fan type 7, the default of R and numpy):
 * h = (n - 1)·q, value = x[⌊h⌋] + (h - ⌊h⌋)·(x[⌊h⌋+1] - x[⌊h⌋]). Reorders buf. n must be >= 1.
 */
export function quantile(buf: Float64Array, n: number, q: number): number {
  const h = (n - 1) * q;
  const k = Math.floor(h);
  const lower = select(buf, n, k);
  const frac = h - k;
  if (frac === 0) return lower;
  return lower + frac * (minFrom(buf, k + 1, n) - lower);
}

/** Median of buf[0..n): the middle value, or the mean of the two middle values. Reorders buf. */
export function median(buf: Float64Array, n: number): number {
  return quantile(buf, n, 0.5);
}
