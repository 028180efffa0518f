// @ts-check
/**
 * Disk use (docs/deploy.md): the SQLite file per observation after `oracle ingest` of the
 * ingest benchmark's CSV into a fresh database, against the CSV itself; the largest the WAL
 * grows beside it while the ingest runs; and the compact copy `VACUUM INTO` makes (a backup).
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { countObservations } from '../lib/db-query.js';
import { oracle, oracleChecked } from '../lib/oracle.js';
import { figure } from '../lib/results.js';
import { describeScale } from '../lib/scales.js';
import { round } from '../lib/stats.js';
import { removeDatabase, scratchDir } from '../lib/workspace.js';
import { prepareIngest } from './ingest.js';

/** How often the WAL's size is sampled while the ingest runs. */
const WAL_POLL_MS = 20;
const MIB = 1024 ** 2;

/**
 * @param {string} path
 * @returns {number} bytes, 0 when the file does not exist
 */
function sizeOf(path) {
  return existsSync(path) ? statSync(path).size : 0;
}

/**
 * @param {import('../lib/data.js').BenchContext} ctx
 * @returns {Promise<import('../lib/results.js').BenchResult>}
 */
export async function dbsizeBenchmark(ctx) {
  const data = await prepareIngest(ctx);
  const dir = scratchDir('dbsize');
  const db = join(dir, 'oracle.db');
  removeDatabase(db);
  await oracleChecked(db, ['ingest', data.catalogCsv]);
  const catalogBytes = sizeOf(db);

  let walPeak = 0;
  const poll = setInterval(() => {
    walPeak = Math.max(walPeak, sizeOf(`${db}-wal`));
  }, WAL_POLL_MS);
  const r = await oracle(db, ['ingest', data.observationsCsv]).finally(() => clearInterval(poll));
  if (r.code !== 0) throw new Error(`oracle ingest exited ${r.code}: ${r.stderr.trim().slice(0, 500)}`);
  const rows = countObservations(db);
  if (rows !== data.rows) throw new Error(`oracle ingest stored ${rows} of ${data.rows} observations`);

  // The ingest closed the last connection, which checkpoints the WAL into the file; this makes sure.
  const conn = new Database(db);
  conn.pragma('wal_checkpoint(TRUNCATE)');
  const pageSize = /** @type {number} */ (conn.pragma('page_size', { simple: true }));
  const freePages = /** @type {number} */ (conn.pragma('freelist_count', { simple: true }));
  const vacuumed = join(dir, 'vacuumed.db');
  conn.prepare('VACUUM INTO ?').run(vacuumed);
  conn.close();
  const fileBytes = sizeOf(db);
  const vacuumedBytes = sizeOf(vacuumed);

  const perMillion = (/** @type {number} */ bytes) =>
    round(((bytes - catalogBytes) / rows) * (1_000_000 / MIB), 0);
  const csvPerMillion = round((data.bytes / rows) * (1_000_000 / MIB), 0);
  return {
    name: 'dbsize',
    title: '10. Database size',
    scale: describeScale(ctx.scale),
    date: new Date().toISOString(),
    setup: [
      `\`oracle ingest\` of the ingest benchmark's CSV (${rows.toLocaleString('en-US')} observations over ${ctx.scale.ingest.products.toLocaleString('en-US')} products, ${(data.bytes / MIB).toFixed(1)} MiB) into a fresh database holding only their catalog (${(catalogBytes / MIB).toFixed(2)} MiB, subtracted before dividing).`,
      `File size after the ingest exits and \`PRAGMA wal_checkpoint(TRUNCATE)\` (the WAL folded in, ${freePages} free pages of ${pageSize} bytes); the \`-wal\` file's size sampled every ${WAL_POLL_MS} ms during the ingest; \`VACUUM INTO\` a new file from the checkpointed one.`,
    ],
    figures: [
      figure({
        figure: 'database file per million observations (checkpointed, no WAL)',
        value: perMillion(fileBytes),
        unit: 'MiB',
        baseline: 'the canonical CSV of the same rows',
        baselineValue: csvPerMillion,
        ratioDefinition: 'database / CSV',
        target: null,
      }),
      figure({
        figure: '`VACUUM INTO` copy per million observations',
        value: perMillion(vacuumedBytes),
        unit: 'MiB',
        baseline: 'the canonical CSV of the same rows',
        baselineValue: csvPerMillion,
        ratioDefinition: 'copy / CSV',
        target: null,
      }),
      figure({
        figure: 'largest `-wal` file seen during the ingest',
        value: round(walPeak / MIB, 1),
        unit: 'MiB',
        baseline: 'the checkpointed database file',
        baselineValue: round(fileBytes / MIB, 1),
        ratioDefinition: 'WAL / database file',
        target: null,
      }),
    ],
    notes: [],
  };
}
