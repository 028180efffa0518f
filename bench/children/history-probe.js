// @ts-check
/**
 * Child process of the history benchmark: with the BUILT service (build/: the sources bundled as dist/ is), in process, times
 * `history` of one product over N daily points against N single `price` calls (service/pricing.ts)
 * at the same instants (what a history costs without the series read), alternated round by
 * round, and checks both give the same prices. Prints one JSON line.
 *
 * The first history call (cold: nothing compiled yet, as in a fresh `oracle history`) is
 * reported apart; then WARMUP_ROUNDS untimed rounds, as the pricing benchmark warms up.
 *
 * Usage: node history-probe.js <db> <product_key> <to ISO> <points> <rounds>
 */

/** @type {typeof import('../../src/store/open-store.js')} */
const { openStore } = await import(new URL('../../build/store/open-store.js', import.meta.url).href);
/** @type {typeof import('../../src/service/pricing.js')} */
const { createPricing } = await import(new URL('../../build/service/pricing.js', import.meta.url).href);
/** @type {typeof import('../../src/domain/history.js')} */
const { parseHistoryRequest } = await import(new URL('../../build/domain/history.js', import.meta.url).href);

const [db, productKey, toIso, pointsArg, roundsArg] = process.argv.slice(2);
if (!db || !productKey || !toIso)
  throw new Error('usage: history-probe.js <db> <product_key> <to> <points> <rounds>');
const points = Number(pointsArg ?? 365);
const rounds = Number(roundsArg ?? 20);
const DAY = 86_400_000;

const store = await openStore(db);
const pricing = createPricing(store);
const product = await pricing.productByKey(productKey);
const params = { windowHours: 24, outlierStddevs: 2 };
const to = Date.parse(toIso);
const from = new Date(to - (points - 1) * DAY).toISOString();
const request = parseHistoryRequest({ from, to: toIso, every: '1d', slots: 'ungraded,psa10' }, to);
if (request.instants.length !== points)
  throw new Error(`asked for ${points} points, got ${request.instants.length}`);

const history = () => pricing.history(product, params, request, null);
const singles = async () => {
  const bundles = [];
  for (const asOf of request.instants) bundles.push(await pricing.price(product, { ...params, asOf }, null));
  return bundles;
};

const WARMUP_ROUNDS = 3;

// The two paths must agree before their times mean anything.
const cold = performance.now();
const h = await history();
const coldMs = performance.now() - cold;
const s = await singles();
request.instants.forEach((_, i) => {
  const a = /** @type {{ price_minor: number | null }} */ (h.body.points[i]?.ungraded);
  if (a.price_minor !== s[i]?.ungraded.price_minor)
    throw new Error(`point ${i}: history ${a.price_minor} != price ${s[i]?.ungraded.price_minor}`);
});

for (let r = 0; r < WARMUP_ROUNDS; r += 1) {
  await history();
  await singles();
}
/** CPU time of this process so far (user + system), ms: what a busy machine distorts less than wall time. */
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
/** @type {number[]} */
const historyMs = [];
/** @type {number[]} */
const singlesMs = [];
/** @type {number[]} */
const historyCpuMs = [];
/** @type {number[]} */
const singlesCpuMs = [];
for (let r = 0; r < rounds; r += 1) {
  let t0 = performance.now();
  let c0 = cpuMs();
  await history();
  historyMs.push(performance.now() - t0);
  historyCpuMs.push(cpuMs() - c0);
  t0 = performance.now();
  c0 = cpuMs();
  await singles();
  singlesMs.push(performance.now() - t0);
  singlesCpuMs.push(cpuMs() - c0);
}
const priced = h.body.points.filter(
  (p) => /** @type {{ price_minor: number | null }} */ (p.ungraded).price_minor !== null,
).length;
await store.close();
process.stdout.write(
  `${JSON.stringify({ historyMs, singlesMs, historyCpuMs, singlesCpuMs, coldMs, points, priced })}\n`,
);
