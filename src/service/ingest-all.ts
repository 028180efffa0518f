/** `oracle ingest`'s one call: every source in turn into the store, each result reported as its source ends. */
import { IngestStoppedError } from '../ingest/errors.js';
import type { IngestOptions, IngestResult } from '../ingest/pipeline.js';
import type { Store } from '../store/store.js';
import { rateTable, type RateTable } from '../engine/currency.js';

/** The options of every source of an ingest, and where its rejected records go. */
export interface IngestAllOptions extends Omit<IngestOptions, 'rejects'> {
  /** Rejected records are appended to this file, each with `runAt`. */
  rejectsPath?: string;
  /** Epoch ms: the start of the run, as the rejects file names it. */
  runAt: number;
  onResult?: (result: IngestResult) => void;
}

/**
 * Ingests every source in turn into `store` (ingest/pipeline.ts), after marking `interrupted`
 * the runs of ingests whose process died. A bad source stops only itself: its result carries
 * its failure and the next source is read.
 */
export async function ingestAll(
  store: Store,
  sources: readonly string[],
  { rejectsPath, runAt, onResult, ...options }: IngestAllOptions,
): Promise<IngestResult[]> {
  // Imported on first use, not at load, because the pipeline and its formats are most of the code, which commands other than ingest should not pay for at start-up.
  const [{ ingestSource }, { RejectsWriter }, { ingestRates }, { isEcbRatesSource }] = await Promise.all([
    import('../ingest/pipeline.js'),
    import('../ingest/write/rejects-writer.js'),
    import('../ingest/rates.js'),
    import('../ingest/formats/ecb-rates.js'),
  ]);
  // The rates observations in other currencies than USD are converted with: read once for
  // every source, and again after a source of rates changed them.
  let rates: RateTable | undefined;
  await store.ingestRuns.markInterrupted();
  const rejects = rejectsPath === undefined ? null : new RejectsWriter(rejectsPath, runAt);
  try {
    const results: IngestResult[] = [];
    for (const source of sources) {
      let result: IngestResult;
      if (isEcbRatesSource(source, options.format)) {
        result = await ingestRates(store, source, { ...options, rejects });
        if (result.counts.inserted > 0) rates = undefined;
      } else {
        rates ??= rateTable(await store.rates.all());
        result = await ingestSource(store, source, { ...options, rejects, rates });
      }
      results.push(result);
      onResult?.(result);
      // The database cannot be written: the next sources could not be either.
      if (result.failure instanceof IngestStoppedError) break;
    }
    return results;
  } finally {
    rejects?.close();
  }
}
