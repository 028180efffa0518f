// @ts-check
/**
 * Converter of tcgcsv's daily archive of TCGplayer prices (`<YYYY-MM-DD>/<categoryId>/<groupId>/prices`,
 * the `{"results": [{productId, marketPrice, subTypeName, ...}]}` JSON of tcgcsv's API) into the
 * harness's input. Each (productId, printing) is one product with one ungraded quote a day, its
 * market price, stamped at tcgcsv's daily refresh (20:00 UTC, as `oracle ingest` stamps an
 * archive's prices). A result without a market price gives nothing that day.
 */

/** tcgcsv refreshes its archive once a day at this hour (UTC): src/ingest/formats/tcgplayer.ts. */
const REFRESH_HOUR_UTC = 20;
const DATE_DIR = /^\d{4}-\d{2}-\d{2}$/;

/** @param {string} text */
const slug = (text) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '') || 'normal';

/**
 * @typedef {object} TcgcsvGroup
 * @property {number} category tcgcsv's categoryId (3 Pokemon, 85 Pokemon Japan, 1 Magic)
 * @property {number} group its groupId (a set)
 * @property {string} name the set's name, for the catalog
 * @property {'modern' | 'vintage'} era
 */

/**
 * Converts the archive's days under `root` for the groups named.
 * @param {import('./source.js').RawSource} source
 * @param {{ root: string, groups: TcgcsvGroup[], maxProducts?: number }} options
 * @returns {import('./corpora.js').Converted}
 */
export function convertTcgcsv(source, { root, groups, maxProducts }) {
  /** @type {Record<string, number>} */
  const skipped = {};
  const skip = (/** @type {string} */ reason) => (skipped[reason] = (skipped[reason] ?? 0) + 1);
  /** @type {Map<string, string>} product key -> catalog line */
  const catalog = new Map();
  /** @type {string[]} */
  const observations = [];
  let files = 0;
  const listed = source.list(root);
  for (const g of groups) {
    const paths = listed
      .filter((p) => p.endsWith(`/${g.category}/${g.group}/prices`))
      .filter((p) => DATE_DIR.test(p.slice(root.length + 1).split('/')[0] ?? ''));
    // The group's products in the order of its first day, so a cut keeps whole series.
    /** @type {Set<string> | null} */
    let kept = null;
    for (const path of paths) {
      files++;
      const date = path.slice(root.length + 1).split('/')[0];
      const body = JSON.parse(source.read(path));
      if (!Array.isArray(body.results)) throw new Error(`${path}: no "results" array`);
      /** @type {{ key: string, result: any }[]} */
      const rows = body.results.map((/** @type {any} */ r) => ({
        key: `tcg-${r.productId}-${slug(String(r.subTypeName ?? ''))}`,
        result: r,
      }));
      if (kept === null)
        kept = new Set(
          rows
            .filter((r) => typeof r.result.marketPrice === 'number')
            .map((r) => r.key)
            .slice(0, maxProducts ?? Infinity),
        );
      for (const { key, result } of rows) {
        if (!kept.has(key)) continue;
        if (typeof result.marketPrice !== 'number' || !(result.marketPrice > 0)) {
          skip('no market price that day');
          continue;
        }
        if (!catalog.has(key)) {
          const name = `TCGplayer ${result.productId} ${String(result.subTypeName ?? '')}`.trim();
          catalog.set(key, `${key},,${name},,${g.name},,single_card,${g.era},`);
        }
        const cents = Math.round(result.marketPrice * 100);
        observations.push(
          `${key},tcgplayer,${date}T${REFRESH_HOUR_UTC}:00:00.000Z,${cents},,,tcgcsv-${date}-${key},`,
        );
      }
    }
    if (paths.length === 0)
      throw new Error(`${source.label}: no ${root}/<date>/${g.category}/${g.group}/prices`);
  }
  return { catalog: [...catalog.values()], observations, skipped, files };
}
