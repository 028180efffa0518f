/**
 * The market the sales, movers and portfolio suites read: four cards over the 40 days before
 * AS_OF, sold every 6 hours (a PSA 10 every 12), whose prices step on the 7th day before AS_OF.
 * `rising` goes from $100 to $150 (and has one $2,000 outlier 5 hours before AS_OF), `falling`
 * from $200 to $120, `steady` stays at $50; `thin` has two sales, $10 then $50, too few to move.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { toIsoUtc } from '../../src/domain/time.js';
import { runOracle } from '../_cli.js';
import { newTestDatabase } from '../_pg.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
export const AS_OF_MS = Date.parse('2026-10-15T12:00:00Z');
export const AS_OF = toIsoUtc(AS_OF_MS);
/** The instant the prices step at. */
export const STEP_MS = AS_OF_MS - 7 * DAY;
export const OUTLIER_AT = toIsoUtc(AS_OF_MS - 5 * HOUR);

const CARDS = [
  { key: 'rising', name: 'Rising Card', before: 10_000, after: 15_000 },
  { key: 'falling', name: 'Falling Card', before: 20_000, after: 12_000 },
  { key: 'steady', name: 'Steady Card', before: 5_000, after: 5_000 },
];

/** A new database (test/_pg.ts newTestDatabase: SQLite or PostgreSQL) in `dir` holding the market, ingested by the CLI. */
export async function marketDatabase(dir: string): Promise<string> {
  const db = await newTestDatabase(dir);
  const catalog = [
    'product_key,refsource_id,product_name,set_name',
    ...CARDS.map((c, i) => `${c.key},${700 + i},${c.name},Test Set`),
    'thin,799,Thin Card,Test Set',
  ];
  const sales = ['product_key,source,observed_at,price_minor,grader,grade,external_id'];
  for (let h = 6; h <= 40 * 24; h += 6) {
    const t = AS_OF_MS - h * HOUR;
    const at = toIsoUtc(t);
    for (const c of CARDS) {
      // A little spread around the level, so the filter's scale is not the floor.
      const level = t < STEP_MS ? c.before : c.after;
      sales.push(`${c.key},ebay,${at},${level + ((h / 6) % 3) * 100},,,${c.key}-u${h}`);
      if (h % 12 === 0) sales.push(`${c.key},ebay,${at},${level * 10},PSA,10,${c.key}-p${h}`);
    }
  }
  sales.push(`rising,ebay,${OUTLIER_AT},200000,,,rising-outlier`);
  sales.push(
    `thin,ebay,${toIsoUtc(AS_OF_MS - 10 * DAY)},1000,,,thin-1`,
    `thin,ebay,${toIsoUtc(AS_OF_MS - DAY)},5000,,,thin-2`,
  );
  writeFileSync(join(dir, 'catalog.csv'), catalog.join('\n'));
  writeFileSync(join(dir, 'sales.csv'), sales.join('\n'));
  const ingest = await runOracle(['--db', db, 'ingest', join(dir, 'catalog.csv'), join(dir, 'sales.csv')]);
  if (ingest.code !== 0) throw new Error(ingest.stderr);
  return db;
}
