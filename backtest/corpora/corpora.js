// @ts-check
/**
 * The real corpora the backtest scores the engine on (issue 31, docs/backtest.md "Real sales:
 * four corpora, walk-forward"): where each comes from (repository, path, commit, licence) and
 * the converter that turns its raw files into the harness's input, a directory of
 *   corpus.json       this table's entry (name, kind, provenance) and what the conversion skipped
 *   catalog.csv       canonical catalog records (CONTRACT.md), what `oracle ingest --kind catalog` takes
 *   observations.csv  canonical observations, what `oracle ingest` takes
 * Which spans of each constants may be fitted on is splits.js's, not this table's.
 */
import { convertPsa10History, PSA10_SALES_DIR } from './psa10-history.js';
import { convertPsaRegister } from './psa-register.js';
import { convertTcgcsv } from './tcgcsv.js';

/**
 * @typedef {object} Converted
 * @property {string[]} catalog catalog lines, without the header
 * @property {string[]} observations observation lines, without the header
 * @property {Record<string, number>} skipped raw records left out, by reason
 * @property {number} files raw files read
 */

/**
 * @typedef {object} Corpus
 * @property {string} name
 * @property {'sales' | 'guide'} kind `sales`: each point is one sale; `guide`: each is a price guide's quote
 * @property {string} description
 * @property {string} repo GitHub owner/name
 * @property {string} commit the snapshot converted
 * @property {string} path the raw files' folder in the repository
 * @property {string} licence
 * @property {(source: import('./source.js').RawSource, options: { maxProducts?: number, parseCsv: (text: string, label: string) => string[][] }) => Converted} convert
 */

const TCGCSV_ROOT = 'price_history/extracted';

/**
 * A corpus of tcgcsv's archive of TCGplayer prices as nikfox3/Card_Collecting_app keeps it
 * (30 days, 2025-09-21 to 10-20): these groups' quotes.
 * @param {string} name
 * @param {string} description
 * @param {import('./tcgcsv.js').TcgcsvGroup[]} groups
 * @returns {Corpus}
 */
const tcgcsvCorpus = (name, description, groups) => ({
  name,
  kind: 'guide',
  description,
  repo: 'nikfox3/Card_Collecting_app',
  commit: '4dd4c197b5ab85ef2df6cc54d5e1c2dbdd1c1664',
  path: `${TCGCSV_ROOT}/<date>/${groups[0]?.category}/${groups.length === 1 ? groups[0]?.group : `{${groups.map((g) => g.group).join(',')}}`}/prices`,
  licence: "no licence stated (TCGplayer's data, served by tcgcsv.com)",
  convert: (source, { maxProducts }) =>
    convertTcgcsv(source, {
      root: TCGCSV_ROOT,
      groups,
      ...(maxProducts === undefined ? {} : { maxProducts }),
    }),
});

/** @type {readonly Corpus[]} */
export const CORPORA = [
  {
    name: 'psa-register',
    kind: 'sales',
    description:
      "PSA's Auction Prices Realized register of 25 vintage cards (Neo Destiny, Base Set 1st edition Charizard, Black Lotus): public sales of PSA-graded copies at eBay and auction houses, 2004-2020, day-stamped",
    repo: 'tostenzel/psa-prizes',
    commit: '92f66728979a2879dc2800f29f68eb4d1f486cf9',
    path: 'output/data',
    licence: 'MIT',
    convert: (source, { maxProducts, parseCsv }) =>
      convertPsaRegister(source, {
        paths: ['output/data'],
        parseCsv,
        ...(maxProducts === undefined ? {} : { maxProducts }),
      }),
  },
  {
    name: 'psa10-history',
    kind: 'sales',
    description:
      "alt.xyz's record of sales of PSA 9 / PSA 10 Pokemon cards (eBay auctions, best offers and Buy It Now, MySlabs, ...) as samaygodika/pokemon-psa10-history keeps it, one file a month; the months read so far (docs/backtest.md), day-stamped",
    repo: 'samaygodika/pokemon-psa10-history',
    // The month files were read at these commits (read_file's answer): 2020-01 at 93aea7c2...,
    // 2020-06 and 2020-12 at c5c3f75d..., 2021-02 at 3bc1ba1e...; this is the newest of them.
    commit: '3bc1ba1e8099ca99e536875de45d2eb3c3f96a0e',
    path: PSA10_SALES_DIR,
    licence: 'no licence stated (sales records of alt.xyz, eBay and the other marketplaces)',
    convert: (source, { maxProducts, parseCsv }) =>
      convertPsa10History(source, { parseCsv, ...(maxProducts === undefined ? {} : { maxProducts }) }),
  },
  tcgcsvCorpus(
    'tcgcsv-pokemon',
    'TCGplayer market prices, one quote a day, 2025-09-21 to 2025-10-20, of Pokemon Base Set (1999) and Scarlet & Violet 151 (2023), every printing',
    [
      { category: 3, group: 604, name: 'Base Set', era: 'vintage' },
      { category: 3, group: 23237, name: 'SV: Scarlet & Violet 151', era: 'modern' },
    ],
  ),
  tcgcsvCorpus(
    'tcgcsv-pokemon-japan',
    'TCGplayer market prices, one quote a day, 2025-09-21 to 2025-10-20, of the Japanese SV2a "Pokemon Card 151" (tcgcsv category 85)',
    [{ category: 85, group: 23599, name: 'SV2a: Pokemon Card 151', era: 'modern' }],
  ),
  tcgcsvCorpus(
    'tcgcsv-magic',
    'TCGplayer market prices, one quote a day, 2025-09-21 to 2025-10-20, of a Magic: The Gathering set (tcgcsv category 1, group 1), normal and foil',
    [{ category: 1, group: 1, name: 'Magic: tcgcsv group 1', era: 'modern' }],
  ),
];

/** @param {string} name */
export const corpusByName = (name) => CORPORA.find((c) => c.name === name) ?? null;
