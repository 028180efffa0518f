#!/usr/bin/env node
// @ts-check
/**
 * `node backtest/corpora/convert.js <corpus> --from <git dir or directory> --out <dir> [--max-products <n>]`
 *
 * Converts a fetched corpus (corpora.js names each one's repository and commit) into the
 * backtest's input, `<out>/<corpus>/{corpus.json,catalog.csv,observations.csv}`, the canonical
 * files `oracle ingest` takes. `--max-products` keeps the first n products (whole series): the
 * small cuts in test/fixtures/corpora/ were made so. Needs `npm run build` (it reads CSV with
 * the product's own parser).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { CORPORA, corpusByName } from './corpora.js';
import { openRawSource } from './source.js';

export const CATALOG_HEADER =
  'product_key,refsource_id,product_name,subtitle,set_name,image_url,product_type,era,release_date';
export const OBSERVATION_HEADER =
  'product_key,source,observed_at,price_minor,grader,grade,external_id,sales_volume';

const USAGE = `usage: node backtest/corpora/convert.js <corpus> --from <git dir or directory> --out <dir> [--max-products <n>]
  corpora: ${CORPORA.map((c) => `${c.name} (${c.repo}@${c.commit.slice(0, 12)})`).join(', ')}`;

/**
 * Converts `corpus` from `from` into `<out>/<name>/`; returns the directory and the counts.
 * @param {import('./corpora.js').Corpus} corpus
 * @param {string} from
 * @param {string} out
 * @param {number} [maxProducts]
 */
export async function convertCorpus(corpus, from, out, maxProducts) {
  const { csv } = await import('../lib/built.js');
  /** @param {string} text @param {string} label */
  const parseCsv = (text, label) => {
    /** @type {string[][]} */
    const records = [];
    const parser = new csv.CsvParser(label, (fields) => records.push(fields));
    parser.push(text);
    parser.end();
    return records;
  };
  const source = openRawSource(from, corpus.commit);
  const converted = corpus.convert(source, {
    parseCsv,
    ...(maxProducts === undefined ? {} : { maxProducts }),
  });
  const dir = join(out, corpus.name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'catalog.csv'), [CATALOG_HEADER, ...converted.catalog, ''].join('\n'));
  writeFileSync(
    join(dir, 'observations.csv'),
    [OBSERVATION_HEADER, ...converted.observations, ''].join('\n'),
  );
  const { convert: _convert, ...entry } = corpus;
  const meta = {
    ...entry,
    products: converted.catalog.length,
    observations: converted.observations.length,
    files: converted.files,
    skipped: converted.skipped,
    ...(maxProducts === undefined ? {} : { cut: `the first ${maxProducts} products of each group` }),
  };
  writeFileSync(join(dir, 'corpus.json'), `${JSON.stringify(meta, null, 2)}\n`);
  return { dir, meta };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { from: { type: 'string' }, out: { type: 'string' }, 'max-products': { type: 'string' } },
  });
  const corpus = corpusByName(positionals[0] ?? '');
  if (corpus === null || values.from === undefined || values.out === undefined) {
    console.error(USAGE);
    process.exit(2);
  }
  const max = values['max-products'];
  if (max !== undefined && !/^[1-9]\d*$/.test(max)) {
    console.error(`--max-products must be a whole number above 0 (got ${JSON.stringify(max)})\n${USAGE}`);
    process.exit(2);
  }
  try {
    const { dir, meta } = await convertCorpus(
      corpus,
      values.from,
      values.out,
      max === undefined ? undefined : Number(max),
    );
    console.log(
      `${dir}: ${meta.products} products, ${meta.observations} observations from ${meta.files} files`,
    );
  } catch (error) {
    console.error(`convert: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
