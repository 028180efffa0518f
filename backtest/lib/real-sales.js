// @ts-check
/**
 * `npm run backtest -- --real-sales <dir>`: scores every corpus under `dir` walk-forward
 * (walk-forward.js), prints each one's tables with the split of every figure (fit or held
 * out, backtest/corpora/splits.js), and writes the figures as JSON (`--out`) and one residual
 * record per scored point (`--residuals`, NDJSON).
 */
import { createWriteStream, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { CORPUS_SPLITS } from '../corpora/splits.js';
import {
  ASKED_MIN_EARLIER,
  corpusDirs,
  readCorpus,
  renderCorpus,
  residualRecord,
  scoreCorpus,
  summarizeBySplit,
  WF_METHODS,
} from './walk-forward.js';

/** A bad command line (exit 2 with the usage), not a failure of the run. */
export class UsageError extends Error {}

/** @param {string} name */
const splitRule = (name) => CORPUS_SPLITS[name]?.why ?? 'held out whole (splits.js does not name it)';

/**
 * @param {{ path: string, corpora: string[] | null, out: string | null, residuals: string | null, keepDb: string | null, calibrate: boolean, log: (line: string) => void }} options
 */
export async function runRealSales({ path, corpora, out, residuals, keepDb, calibrate, log }) {
  /** @type {{ dir: string, corpus: import('./walk-forward.js').CorpusData }[]} */
  let dirs;
  try {
    dirs = corpusDirs(path).map((dir) => ({ dir, corpus: readCorpus(dir) }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (corpora !== null) {
    const unknown = corpora.filter((name) => !dirs.some((d) => d.corpus.name === name));
    if (unknown.length > 0)
      throw new UsageError(
        `--corpus ${unknown.join(', ')}: not under ${path} (it holds ${dirs.map((d) => d.corpus.name).join(', ')})`,
      );
    dirs = dirs.filter((d) => corpora.includes(d.corpus.name));
  }
  const work = keepDb ?? mkdtempSync(join(tmpdir(), 'oracle-backtest-real-'));
  mkdirSync(work, { recursive: true });
  if (residuals !== null) mkdirSync(dirname(residuals), { recursive: true });
  const residualOut = residuals === null ? null : createWriteStream(residuals);
  /** @type {unknown[]} */
  const results = [];
  try {
    console.log(
      `Walk-forward: each point with ${ASKED_MIN_EARLIER}+ earlier points of its slot is predicted at the start of its UTC day, ` +
        'from the points before it only. Error = |prediction - point| / point; common = the points every method prices.\n',
    );
    for (const { corpus } of dirs) {
      const started = performance.now();
      const result = await scoreCorpus(corpus, work, { calibrate });
      const splits = summarizeBySplit(result.scored);
      console.log(renderCorpus(corpus, result, splits, splitRule(corpus.name)));
      log(
        `${corpus.name}: ${result.scored.length} points scored, ${result.bundles} bundles in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
      results.push({
        corpus: corpus.meta,
        split: splitRule(corpus.name),
        points: corpus.points,
        unslotted: corpus.unslotted,
        notAsked: result.notAsked,
        bundles: result.bundles,
        calibrated: result.calibrated,
        methods: WF_METHODS,
        splits,
      });
      if (residualOut !== null)
        for (const p of result.scored)
          if (!residualOut.write(`${JSON.stringify(residualRecord(corpus.name, corpus.kind, p))}\n`))
            await once(residualOut, 'drain');
    }
  } finally {
    if (residualOut !== null) {
      residualOut.end();
      await once(residualOut, 'finish');
    }
    if (keepDb === null) rmSync(work, { recursive: true, force: true });
  }
  if (out !== null) {
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'real-sales.json'), `${JSON.stringify({ corpora: results }, null, 2)}\n`);
    log(`wrote real-sales.json into ${out}`);
  }
  if (residuals !== null) log(`wrote the residuals into ${residuals}`);
}
