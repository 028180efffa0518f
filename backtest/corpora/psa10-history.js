// @ts-check
/**
 * Converter of samaygodika/pokemon-psa10-history (alt.xyz's record of sales of PSA 9 / 10
 * Pokemon cards at eBay, MySlabs, PWCC, ...: one CSV per month, `history/sales/YYYY-MM.csv`)
 * into the harness's input. The product is the source's asset (one card in one grade family), the
 * slot its grader and grade, one observation per sale. Rows the source itself marks as not a clean
 * sale are left out and counted: a `skipped_reason` (RELISTED, ...) or `subject_to_change` True
 * (a price the source says may still move).
 */

/** The columns every month file starts with; from 2021-02 on a twelfth, `alt_tx_id`, follows. */
export const PSA10_HISTORY_COLUMNS = [
  'asset_id',
  'date',
  'price',
  'grading_company',
  'grade',
  'source',
  'sale_type',
  'url',
  'label',
  'subject_to_change',
  'skipped_reason',
];
/** A sale's day is known, not its hour: it is stored at this hour (UTC) of its day (as psa-register.js). */
const SALE_HOUR_UTC = 12;
/** The graders the engine has slots for; a sale graded by another is counted, not kept. */
const GRADERS = ['PSA', 'BGS', 'CGC', 'SGC'];
/** The grades the engine has a matrix slot for (7-10); others are extra grades, out of this corpus. */
const SLOT_GRADES = ['7', '8', '9', '10'];
/** The folder of the month files in the repository. */
export const PSA10_SALES_DIR = 'history/sales';

/**
 * `YYYY-MM-DD` when it is a real day, else null (2021-02-30 is refused, never rolled over).
 * @param {string} text
 */
function isoDay(text) {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return null;
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text ? text : null;
}

/**
 * Converts the month files under `history/sales`.
 * @param {import('./source.js').RawSource} source
 * @param {{ maxProducts?: number, parseCsv: (text: string, label: string) => string[][] }} options
 * @returns {import('./corpora.js').Converted}
 */
export function convertPsa10History(source, { maxProducts, parseCsv }) {
  const files = source.list(PSA10_SALES_DIR).filter((f) => /\/\d{4}-\d{2}\.csv$/.test(f));
  /** @type {Record<string, number>} */
  const skipped = {};
  const skip = (/** @type {string} */ reason) => (skipped[reason] = (skipped[reason] ?? 0) + 1);
  /** @type {Map<string, string[]>} asset -> its observation lines, in file order */
  const byAsset = new Map();
  for (const file of files) {
    const records = parseCsv(source.read(file), file);
    const header = records.shift() ?? [];
    if (PSA10_HISTORY_COLUMNS.some((column, i) => header[i] !== column))
      throw new Error(`${file}: not a pokemon-psa10-history sales file (header ${JSON.stringify(header)})`);
    for (const [row, fields] of records.entries()) {
      const [asset = '', date = '', price, grader = '', grade, , , , , subjectToChange, reason, txId] =
        fields;
      const day = isoDay(date);
      const cents = Math.round(Number(price) * 100);
      const g = String(Number(grade));
      if (asset === '') skip('no asset id');
      else if (day === null) skip('no valid date');
      else if (!(cents > 0)) skip('no price');
      else if ((reason ?? '') !== '') skip(`marked skipped by the source (${reason})`);
      else if (subjectToChange === 'True')
        skip('subject to change (the source says the price may still move)');
      else if (!GRADERS.includes(grader.toUpperCase())) skip('grader other than PSA, BGS, CGC, SGC');
      else if (!SLOT_GRADES.includes(g)) skip('grade outside 7-10 (lower or half)');
      else {
        // alt.xyz's transaction id where the file has one; else the row's place in its file.
        const id = txId !== undefined && txId !== '' ? txId : `${file.slice(-11, -4)}.${row + 2}`;
        const at = `${day}T${String(SALE_HOUR_UTC).padStart(2, '0')}:00:00.000Z`;
        const lines = byAsset.get(asset) ?? [];
        lines.push(`${asset},psa10-history,${at},${cents},${grader.toUpperCase()},${g},alt-${id},`);
        byAsset.set(asset, lines);
      }
    }
  }
  // The month files do not say the card or its year (history/assets.csv does, 17 MB, not read):
  // the era cannot be told, so every asset is catalogued `modern` (vintage cards included).
  const assets = [...byAsset.keys()].sort().slice(0, maxProducts ?? byAsset.size);
  return {
    catalog: assets.map((a) => `${a},,${a},,alt.xyz PSA 9/10 history,,single_card,modern,`),
    observations: assets.flatMap((a) => byAsset.get(a) ?? []),
    skipped,
    files: files.length,
  };
}
