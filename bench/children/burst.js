// @ts-check
/**
 * The load benchmark's heavy client, a process of its own: sends `count` GETs of `url` with
 * the API key in BENCH_BURST_KEY at once, reads every body, and prints
 * `[{"status", "ms"}, ...]`. Receiving the burst's bodies (tens of MB) is work for the
 * client's own event loop; in the probing process it would delay the probes' answers and be
 * counted as the server's.
 *
 * Usage: node burst.js <url> <count>
 */
const [url, count] = process.argv.slice(2);
const headers = { 'X-API-Key': process.env.BENCH_BURST_KEY ?? '' };

/** @returns {Promise<{ status: number, ms: number }>} */
async function timed() {
  const sent = performance.now();
  const res = await fetch(/** @type {string} */ (url), { headers });
  await res.arrayBuffer();
  return { status: res.status, ms: performance.now() - sent };
}

const results = await Promise.all(Array.from({ length: Number(count) }, timed));
process.stdout.write(JSON.stringify(results));
