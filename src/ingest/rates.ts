/**
 * An ingest of the ECB's reference rates (formats/ecb-rates.ts) into the store's rates, beside
 * the record pipeline: a rate is neither a product nor an observation. The files are small
 * (the whole history since 1999 is 1.9 MB), so a source is read whole, then written in one
 * transaction; a rate already stored for its currency and day counts as a duplicate, so the
 * daily file re-run, or the history over days already loaded, adds nothing.
 */
import { InputError, SourceUnreadableError } from '../domain/errors.js';
import type { FxRate, Store } from '../store/store.js';
import { ECB_RATES_FORMAT, ecbColumns, ecbDay, ecbRates } from './formats/ecb-rates.js';
import { RowRejection } from './formats/types.js';
import type { IngestOptions, IngestResult } from './pipeline.js';
import { decodeUtf8 } from './read/decode-utf8.js';
import { openSource } from './read/open-source.js';
import { noCounts } from './write/record-writer.js';

/** Who publishes the rates, as stored with each (fx_rates.source) and named in a converted price's meta. */
export const ECB_SOURCE = 'ecb';

/** Reads one ECB rates file (path, URL, `-`) into the store; its failures end this source only. */
export async function ingestRates(store: Store, spec: string, options: IngestOptions): Promise<IngestResult> {
  const name = spec === '-' ? 'stdin' : spec;
  const startedAt = options.clock();
  const dryRun = options.dryRun ?? false;
  const counts = noCounts();
  let firstReject: IngestResult['firstReject'] = null;
  let failure: Error | null = null;
  const runId = await store.ingestRuns.start({
    source: name,
    kind: 'rates',
    format: ECB_RATES_FORMAT,
    dryRun,
    startedAt,
  });
  try {
    const source = await openSource(spec, options.stdin);
    let text = '';
    try {
      for await (const chunk of decodeUtf8(source.chunks, name)) text += chunk;
    } finally {
      source.close();
    }
    const lines = text.split(/\r?\n/);
    const firstLine = lines.findIndex((line) => line.trim() !== '');
    if (firstLine < 0) throw new InputError(name, 1, 'the file is empty: no header and no rates');
    let codes: string[];
    try {
      codes = ecbColumns(lines[firstLine]!.split(','));
    } catch (error) {
      throw new InputError(name, firstLine + 1, (error as Error).message);
    }
    const rates: FxRate[] = [];
    for (let i = firstLine + 1; i < lines.length; i += 1) {
      if (lines[i]!.trim() === '') continue;
      const fields = lines[i]!.split(',');
      try {
        const day = ecbDay(fields[0]!);
        const row = ecbRates(codes, fields);
        counts.read += row.length;
        for (const [currency, perEuro] of row) rates.push({ day, currency, perEuro, source: ECB_SOURCE });
      } catch (error) {
        if (!(error instanceof RowRejection)) throw error;
        counts.read += 1;
        counts.rejected += 1;
        firstReject ??= { line: i + 1, reason: error.message };
        options.rejects?.add({ source: name, line: i + 1, reason: error.message, record: lines[i]! });
      }
    }
    if (dryRun) {
      const stored = new Set((await store.rates.all()).map((r) => `${r.currency}|${r.day}`));
      const fresh = new Set(rates.map((r) => `${r.currency}|${r.day}`).filter((key) => !stored.has(key)));
      counts.inserted = fresh.size;
      counts.duplicates = rates.length - fresh.size;
    } else {
      const added = await store.rates.add(rates);
      counts.inserted = added.inserted;
      counts.duplicates = added.duplicates;
    }
  } catch (error) {
    if (!(error instanceof InputError || error instanceof SourceUnreadableError)) throw error;
    failure = error;
  }
  options.rejects?.flush();
  const overLimit = failure === null && counts.rejected > options.maxRejects;
  await store.ingestRuns.finish(
    runId,
    options.clock(),
    failure !== null ? 'failed' : overLimit ? 'rejected' : 'ok',
    counts,
    failure?.message ?? null,
  );
  return {
    source: name,
    kinds: [],
    format: ECB_RATES_FORMAT,
    dryRun,
    warnings: [],
    counts,
    firstReject,
    overLimit,
    failure,
    elapsedMs: options.clock() - startedAt,
  };
}
