// @ts-check
/**
 * Converter of PSA's Auction Prices Realized register as tostenzel/psa-prizes saves it (one CSV
 * per card, `output/data/<year>-<card>.csv`) into the harness's input: the canonical catalog and
 * observations `oracle ingest` takes. Keeps the sales of PSA 7, 8, 9 and 10 without a qualifier
 * (the engine's graded slots); counts the others by reason.
 */
import { basename } from 'node:path';

/** The header of a PSA Auction Prices Realized file as tostenzel/psa-prizes writes it. */
export const PSA_SALES_HEADER =
  'date,grade,qualifier,prize,auction_house,seller,sale_type,psa_certification,img_url,lot_url';
/** A sale's day is known, not its hour: it is stored at this hour (UTC) of its day. */
export const SALE_HOUR_UTC = 12;
/** Cards released before this year are `vintage` (the catalog's era; the engine's priors differ by era). */
const VINTAGE_BEFORE_YEAR = 2004;
/** The grades the engine has a slot for (PSA 7-10); the register's others are left out. */
const SLOT_GRADES = ['7', '8', '9', '10'];
/** The release year of the register's files whose name does not start with one (1999 Base Set 1st edition). */
const YEAR_OF = /** @type {Record<string, number>} */ ({ 'pokemon-game-charizard-holo-1st-edition': 1999 });

/**
 * `M/D/YYYY` (PSA's register) as `YYYY-MM-DD`; null unless a real date (2/30 is refused, never rolled over).
 * @param {string} text
 */
export function psaDate(text) {
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
  if (m === null) return null;
  const [year, month, day] = [Number(m[3]), Number(m[1]), Number(m[2])];
  const d = new Date(Date.UTC(year, month - 1, day));
  if (d.getUTCFullYear() !== year || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day) return null;
  return d.toISOString().slice(0, 10);
}

/**
 * Converts the register's files.
 * @param {import('./source.js').RawSource} source
 * @param {{ paths: string[], maxProducts?: number, parseCsv: (text: string, label: string) => string[][] }} options
 * @returns {import('./corpora.js').Converted}
 */
export function convertPsaRegister(source, { paths, maxProducts, parseCsv }) {
  const files = paths.flatMap((p) => source.list(p)).filter((f) => f.endsWith('.csv'));
  /** @type {Record<string, number>} */
  const skipped = {};
  const skip = (/** @type {string} */ reason) => (skipped[reason] = (skipped[reason] ?? 0) + 1);
  /** @type {string[]} */
  const catalog = [];
  /** @type {string[]} */
  const observations = [];
  for (const file of files.slice(0, maxProducts ?? files.length)) {
    const key = basename(file, '.csv');
    const records = parseCsv(source.read(file), file);
    const header = records.shift()?.join(',');
    if (header !== PSA_SALES_HEADER)
      throw new Error(`${file}: not a PSA sales file (header ${JSON.stringify(header)})`);
    const year = YEAR_OF[key] ?? Number(/^(\d{4})-/.exec(key)?.[1] ?? Number.NaN);
    catalog.push(
      `${key},,${key},,PSA register,,single_card,${year < VINTAGE_BEFORE_YEAR ? 'vintage' : 'modern'},`,
    );
    for (const [row, [date, grade, qualifier, prize, , , , , , lotUrl]] of records.entries()) {
      const day = psaDate(date ?? '');
      const cents = Math.round(Number(prize) * 100);
      const g = String(Number(grade));
      if (day === null) skip('no valid date');
      else if (!(cents > 0)) skip('no price');
      else if (qualifier !== '') skip('grade with a qualifier (OC, MK, ...)');
      else if (!SLOT_GRADES.includes(g)) skip('grade outside PSA 7-10 (lower, half or authentic)');
      else {
        // The lot's id in PSA's register; a row without one is named by its place in the file.
        const lot = /\/auction\/(\d+)$/.exec(lotUrl ?? '')?.[1] ?? `${key}.${row + 2}`;
        const at = `${day}T${String(SALE_HOUR_UTC).padStart(2, '0')}:00:00.000Z`;
        observations.push(`${key},psa-apr,${at},${cents},PSA,${g},psa-apr-${lot},`);
      }
    }
  }
  return { catalog, observations, skipped, files: files.length };
}
