#!/usr/bin/env node
// @ts-check
/**
 * `npm run backtest:indexes [-- --scale small|full] [--corpora <dir>]`
 *
 * Backtests the two market index methods (docs/methodology.md §17, docs/backtest.md "Market
 * indexes"): on the seeded simulated market (seed 1) against the same index of the true prices,
 * by scenario; then on the real corpora in `--corpora` (default /tmp/corpora, skipped when
 * absent), their stability and their largest rise and fall. Prints Markdown tables.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { store as storeModule } from './lib/built.js';
import { corpusDirs } from './lib/walk-forward.js';
import { realIndexes, simulatedIndexes } from './lib/indexes.js';
import { ingestFile, loadMarket } from './lib/load.js';
import { buildMarket } from './lib/market.js';
import { DAY } from './lib/model.js';
import { readFileSync } from 'node:fs';

const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: 'full' },
    corpora: { type: 'string', default: '/tmp/corpora' },
  },
});
const scale = values.scale === 'small' ? 'small' : 'full';
const f1 = (/** @type {number} */ x) => x.toFixed(1);
const f2 = (/** @type {number} */ x) => x.toFixed(2);
const dir = mkdtempSync(join(tmpdir(), 'oracle-index-backtest-'));
const started = performance.now();
try {
  const market = buildMarket('1', scale);
  const loaded = await loadMarket(market, join(dir, ''), async () => null);
  let simulated;
  try {
    simulated = await simulatedIndexes(market, loaded.store);
  } finally {
    await loaded.store.close();
  }
  console.log(
    `### Simulated market (seed 1, ${scale} scale, ungraded, ${simulated.instants} daily values)\n`,
  );
  console.log(
    '| scenario | method | members | true move % | tracking RMS % | worst % | step noise % | end gap % | truth in interval % |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const r of simulated.rows)
    console.log(
      `| ${r.scenario} | ${r.method} | ${r.members} | ${f1(r.trueMovePct)} | ${f2(r.trackingRmsPct)} | ${f2(r.trackingMaxPct)} | ${f2(r.stepNoisePct)} | ${f2(r.endGapPct)} | ${f1(r.coveredPct)} |`,
    );
  if (existsSync(values.corpora)) {
    console.log('\n### Real corpora\n');
    console.log(
      '| corpus | slot | step | values | method | members | step sd % | largest step % | move % | largest rise % | largest fall % | last half-width % |',
    );
    console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
    for (const corpus of corpusDirs(values.corpora)) {
      const observations = readFileSync(join(corpus, 'observations.csv'), 'utf8').trim().split('\n').slice(1);
      const times = observations.map((line) => Date.parse(/** @type {string} */ (line.split(',')[2])));
      const keys = [
        ...new Set(observations.map((line) => /** @type {string} */ (line.split(',')[0]))),
      ].sort();
      const sales = JSON.parse(readFileSync(join(corpus, 'corpus.json'), 'utf8')).kind === 'sales';
      // Sales (the PSA register: years of a few sales a week) weekly in PSA 9, its deepest slot;
      // daily guides daily, ungraded. The base is a step after the first day, so members have a price.
      const step = sales ? 7 * DAY : DAY;
      const slot = sales ? 'psa9' : 'ungraded';
      const first = Math.ceil(Math.min(...times) / DAY) * DAY + (sales ? 182 * DAY : DAY);
      const last = Math.floor(Math.max(...times) / DAY) * DAY;
      const instants = [];
      for (let t = first; t <= last; t += step) instants.push(t);
      const db = join(dir, `${corpus.split('/').pop()}.db`);
      const store = await storeModule.openStore(db, { create: true });
      try {
        const now = Math.max(...times) + DAY;
        await ingestFile(store, join(corpus, 'catalog.csv'), 'catalog', now);
        await ingestFile(store, join(corpus, 'observations.csv'), 'observations', now);
        for (const r of await realIndexes(store, keys, instants, slot))
          console.log(
            `| ${corpus.split('/').pop()} | ${slot} | ${sales ? '1w' : '1d'} | ${instants.length} | ${r.method} | ${r.members} | ${f2(r.stepSdPct)} | ${f2(r.largestStepPct)} | ${f1(r.movePct)} | ${f1(r.riseMaxPct)} | ${f1(r.fallMaxPct)} | ${f1(r.lastWidthPct)} |`,
          );
      } finally {
        await store.close();
      }
    }
  }
  console.log(`\n(${((performance.now() - started) / 1000).toFixed(0)} s)`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
