/**
 * One source from bytes to committed rows, through the stages the folders here are named
 * for: read/ (open, decompress, decode, parse the container), formats/ (detect the format,
 * map rows to canonical records), validate/ (check each record, resolve its product) and
 * write/ (insert in batches, rejects to their file); parallel/ runs the first three for a
 * large canonical CSV in a worker thread. The run is recorded in the ingest-runs table.
 * Everything streams: memory holds a chunk, the row being written and the product cache,
 * whatever the size of the source.
 */
import { DatabaseBusyError, InputError, SourceUnreadableError } from '../domain/errors.js';
import { DAY_MS, toIsoUtc } from '../domain/time.js';
import type { Store } from '../store/store.js';
import type { RateTable } from '../engine/currency.js';
import {
  csvReader,
  csvRowOptions,
  isCanonicalObservations,
  jsonReader,
  type ReadOptions,
  type Reader,
} from './container-readers.js';
import { GzipCorruptError, IngestInterruptedError, IngestStoppedError, writeFailureOf } from './errors.js';
import { chooseContainer } from './formats/detect.js';
import { isTcgcsvEnvelope, tcgplayerPricesFormat } from './formats/tcgplayer-prices.js';
import { cardmarketFormat, isCardmarketHead } from './formats/cardmarket.js';
import type { RecordKind } from './formats/types.js';
import { ParallelCsvReader, parallelReaderAvailable } from './parallel-reader.js';
import { decodeUtf8 } from './read/decode-utf8.js';
import { openSource, type OpenedSource } from './read/open-source.js';
import type { TcgcsvGroupsSource } from './read/tcgcsv-groups-source.js';
import { RecordWriter, type RecordCounts } from './write/record-writer.js';
import type { RejectsWriter } from './write/rejects-writer.js';
import { redactUrlsIn } from '../domain/redact.js';

/**
 * Records per transaction: large enough to amortise the commit (index pages dirtied by many
 * rows are written to the WAL and checkpointed once, and each product's aggregates updated
 * once; 50,000 spent about three times as long committing as 200,000 on a million rows over
 * 10,000 products), small enough to lose little on a crash. Rows are inserted as they are
 * read, so the size costs no memory; COMMIT_INTERVAL_MS bounds a transaction's age too.
 */
export const DEFAULT_BATCH_SIZE = 200_000;

/** A slow source (a pipe, a URL) still commits what it delivered about this often. */
const COMMIT_INTERVAL_MS = 1_000;

/**
 * What `onProgress` hears between chunks (the CLI draws it, cli/format/ingest-progress.ts, and
 * caps V8's young generation there, cli/ingest-heap.ts).
 */
export interface IngestProgress {
  source: string;
  records: number;
  bytes: number;
  totalBytes: number | null;
}

export interface IngestOptions extends ReadOptions {
  /** `--groups`: the tcgcsv groups file (path or URL) a catalog of ProductsAndPrices.csv takes set names and dates from. */
  groups?: TcgcsvGroupsSource;
  dryRun?: boolean;
  /** More rejects than this makes the run `rejected` (exit 3); good records are still written. */
  maxRejects: number;
  rejects?: RejectsWriter | null;
  /**
   * Aborting stops the run after committing what was read (Ctrl-C, SIGTERM); the abort reason,
   * a signal name, is named in the message.
   */
  signal?: AbortSignal;
  stdin: NodeJS.ReadableStream;
  onProgress?: (progress: IngestProgress) => void;
  batchSize?: number;
  /** The reference rates an observation in another currency than USD is converted with (none: such observations are rejected). */
  rates?: RateTable;
  /**
   * Parse canonical CSV observations in a worker thread while this one writes; default: when
   * the source is at least PARALLEL_MIN_BYTES or of unknown size, and the worker is built.
   */
  parallel?: boolean;
}

export interface IngestResult {
  source: string;
  kinds: RecordKind[];
  format: string;
  dryRun: boolean;
  counts: RecordCounts;
  firstReject: { line: number; reason: string } | null;
  /** More rejects than --max-rejects. */
  overLimit: boolean;
  /** Why the source stopped early (what it committed before stays in `counts`); null when it was read to its end. */
  failure: Error | null;
  /** What the user should know though nothing failed (an old download dated today: staleFileWarning). */
  warnings: string[];
  elapsedMs: number;
}

/** Sources smaller than this are read on one thread: starting the worker costs more than it saves. */
export const PARALLEL_MIN_BYTES = 8 * 2 ** 20;

/**
 * Ingests one source (path, '-' or URL). A bad source (SourceUnreadableError, InputError,
 * GzipCorruptError) ends with a result whose `failure` says why, after keeping what is
 * trustworthy; an interruption (IngestInterruptedError) or a database failure is thrown,
 * since it stops every source.
 */
export async function ingestSource(
  store: Store,
  spec: string,
  options: IngestOptions,
): Promise<IngestResult> {
  // A URL's credentials and query values never reach a message or the ingest-runs table.
  const name = spec === '-' ? 'stdin' : redactUrlsIn(spec);
  const startedAt = options.clock();
  const dryRun = options.dryRun ?? false;
  const writer = new RecordWriter(await store.openIngest({ dryRun }), {
    source: name,
    dryRun,
    batchSize: options.batchSize ?? DEFAULT_BATCH_SIZE,
    only: options.kind,
    rejects: options.rejects ?? null,
    clock: options.clock,
    rates: options.rates ?? null,
  });
  let format = options.format ?? 'unknown';
  let runId: Promise<number> | null = null;
  /** Records the run once its kind and format are known (or when it ends before); resolves with its id. */
  const startRun = (kind: string, chosenFormat: string): Promise<number> => {
    format = chosenFormat;
    if (runId === null) {
      runId = store.ingestRuns.start({ source: name, kind, format, dryRun, startedAt });
      runId.catch(() => {}); // awaited between chunks and at the end, where a failure is reported
    }
    return runId;
  };
  // The readers only announce the run; its id is awaited between chunks and at the end.
  const recordRun = (kind: string, chosenFormat: string): void => void startRun(kind, chosenFormat);

  let source: OpenedSource | undefined;
  let texts: AsyncGenerator<string> | undefined;
  let reader: Reader | undefined;
  let failure: Error | null = null;
  // Runs between chunks only (everything else is synchronous), so it never splits a row.
  let commitFailure: unknown = null;
  const committer = setInterval(() => {
    try {
      writer.commitWritten();
    } catch (error) {
      commitFailure ??= error;
    }
  }, COMMIT_INTERVAL_MS);
  committer.unref();
  const stopReading = () => source?.close();
  options.signal?.addEventListener('abort', stopReading);
  try {
    if (options.groups !== undefined && options.tcgcsvGroups === undefined) {
      options = { ...options, tcgcsvGroups: await options.groups.read(options.stdin) };
    }
    source = await openSource(spec, options.stdin);
    texts = decodeUtf8(source.chunks, name);
    // Read until the first non-blank text, which decides the container.
    let head = '';
    for (;;) {
      const next = await texts.next();
      if (next.done) break;
      head += next.value;
      if (head.trim() !== '') break;
    }
    // Nothing of a gzip stream is committed before its checksum at the end has passed.
    if (source.compressed()) writer.holdCommits();
    if (head.trim() === '') throw new InputError(name, 1, 'the file is empty: no header and no records');
    // tcgcsv's prices JSON is told by its envelope (its archive files have no extension).
    if (options.format === undefined && isTcgcsvEnvelope(head))
      options = { ...options, format: tcgplayerPricesFormat.name };
    // Cardmarket's downloads are told by their first keys, whatever their name.
    if (options.format === undefined && isCardmarketHead(head))
      options = { ...options, format: cardmarketFormat.name };
    const container = chooseContainer(options.format, source.path, head);
    const parallel =
      container === 'csv' &&
      store.address !== ':memory:' &&
      (options.parallel ?? (source.totalBytes === null || source.totalBytes >= PARALLEL_MIN_BYTES)) &&
      parallelReaderAvailable() &&
      isCanonicalObservations(name, head, options);
    if (parallel) {
      void startRun(options.kind ?? 'observations', 'csv');
      reader = new ParallelCsvReader(store, csvRowOptions(name, options), writer, options.clock);
    } else if (container === 'csv') reader = csvReader(name, options, writer, recordRun);
    else reader = jsonReader(name, container, options, writer, recordRun);
    reader.push(head);
    for (;;) {
      options.onProgress?.({
        source: name,
        records: writer.counts.read,
        bytes: source.bytesRead(),
        totalBytes: source.totalBytes,
      });
      if (options.signal?.aborted) break;
      const next = await texts.next();
      if (commitFailure !== null) throw commitFailure;
      await writer.settle();
      await runId;
      if (options.signal?.aborted || next.done) break;
      await reader.ready?.();
      reader.push(next.value);
    }
    if (options.signal?.aborted) throw interrupted(name, reader.line(), writer, source, options.signal);
    await reader.end();
    writer.releaseCommits();
    writer.flush();
    await writer.settle();
  } catch (caught) {
    let error = caught;
    // A signal that ended a read (a quiet pipe closed by stopReading) is the interruption.
    if (options.signal?.aborted && !(error instanceof IngestInterruptedError)) {
      error = interrupted(name, reader?.line() ?? 1, writer, source, options.signal);
    }
    if (error instanceof DatabaseBusyError) {
      error = new DatabaseBusyError(
        `${name}:${reader?.line() ?? 1}: gave up: ${error.message}; run the same command again to complete`,
        { cause: error },
      );
    }
    // Garbage inflated from a corrupt gzip stream fails as bad text first: gzip's verdict decides.
    if (error instanceof InputError && source?.compressed()) {
      try {
        await source.verify();
      } catch (gzipFailure) {
        error = gzipFailure;
      }
    }
    // Keep the good records read before a bad line (not of a source valid only whole); anything else leaves them to the re-run.
    try {
      if (error instanceof InputError && !writer.wholeSource) {
        await reader?.settle?.();
        writer.releaseCommits();
        writer.flush();
        await writer.settle();
      } else if (error instanceof IngestInterruptedError && !source?.compressed()) {
        // No row after the count the message gives: the parse worker may still be sending some.
        await reader?.close?.();
        writer.flush();
        await writer.settle();
        error = interrupted(name, reader?.line() ?? 1, writer, source, options.signal!);
      } else await writer.abandon();
    } catch {
      await abandonQuietly(writer);
    }
    const writeFailure = writeFailureOf(error);
    if (writeFailure !== null) {
      const committed = `${writer.counts.inserted.toLocaleString('en-US')} record${writer.counts.inserted === 1 ? '' : 's'} committed`;
      error = new IngestStoppedError(
        `${name}:${reader?.line() ?? 1}: the database could not be written (${writeFailure}: is the disk full?); ${committed}, free some space and run the same command again to complete`,
        { reason: 'the database file cannot be written', cause: error },
      );
    }
    try {
      const id = await startRun(options.kind ?? 'unknown', format);
      const status = error instanceof IngestInterruptedError ? 'interrupted' : 'failed';
      await store.ingestRuns.finish(id, options.clock(), status, writer.counts, (error as Error).message);
    } catch {
      // The database itself failed: the original error is the one to report.
    }
    if (!isSourceFailure(error)) throw error;
    failure = error;
  } finally {
    options.signal?.removeEventListener('abort', stopReading);
    clearInterval(committer);
    await reader?.close?.();
    await writer.close();
    await texts?.return(undefined);
    source?.close();
  }
  const overLimit = failure === null && writer.counts.rejected > options.maxRejects;
  const kinds = [...writer.kinds];
  if (failure === null) {
    const id = await startRun(kinds.join('+') || options.kind || 'unknown', format);
    failure = noProductKnown(name, writer.counts);
    const status = failure !== null ? 'failed' : overLimit ? 'rejected' : 'ok';
    await store.ingestRuns.finish(id, options.clock(), status, writer.counts, failure?.message);
  }
  return {
    source: name,
    kinds,
    format,
    dryRun,
    counts: writer.counts,
    firstReject: writer.firstReject,
    overLimit,
    failure,
    warnings: staleFileWarning(name, writer, options.observedAt),
    elapsedMs: options.clock() - startedAt,
  };
}

/**
 * A feed of prices none of whose products the catalog knows stored nothing, and a cron job
 * reading exit 0 would look healthy for ever: it fails (exit 2), recorded as failed, naming
 * the command that loads the catalog. A feed naming some known products is fine (a download
 * covers a whole market).
 */
function noProductKnown(name: string, counts: RecordCounts): InputError | null {
  const unmapped = counts.skippedBy.unmapped ?? 0;
  if (unmapped === 0 || counts.inserted + counts.duplicates + counts.rejected > 0) return null;
  return new InputError(
    name,
    1,
    `none of its ${unmapped.toLocaleString('en-US')} prices names a product of the catalog (unmapped), so nothing was stored: ` +
      'load the catalog first with `oracle ingest --kind catalog` (a PriceCharting download is its own catalog; ' +
      "tcgcsv's ProductsAndPrices.csv with --groups <Groups.csv>), then these prices again",
  );
}

/**
 * How far a file's own newest date may lie before the time its quotes were given by default
 * (the day's, without --observed-at) before the run warns: a daily download is at most a day
 * or two old; a week means a file kept and re-read, whose prices are not today's.
 */
export const STALE_FILE_MS = 7 * DAY_MS;

/** The warning for a file dated by the clock whose own newest date is older than STALE_FILE_MS. */
function staleFileWarning(name: string, writer: RecordWriter, observedAt: number | undefined): string[] {
  const newest = writer.newestFileDate;
  const quoted = writer.latestObservedAt;
  if (observedAt !== undefined || newest === null || quoted === null) return [];
  if (quoted - newest.at <= STALE_FILE_MS) return [];
  const days = Math.floor((quoted - newest.at) / DAY_MS);
  return [
    `${name}: its newest ${newest.field} is ${toIsoUtc(newest.at)}, ${days} days before ${toIsoUtc(quoted)}, the time its prices were given ` +
      'for want of --observed-at: if this is an old download, its prices are not of that day; ingest it with --observed-at <the time it was fetched>',
  ];
}

/** Failures of the source itself: they end that source only. */
function isSourceFailure(error: unknown): error is Error {
  // IngestStoppedError too: its source gets its summary line; ingestAll then stops.
  return (
    error instanceof InputError ||
    error instanceof SourceUnreadableError ||
    error instanceof GzipCorruptError ||
    error instanceof IngestStoppedError
  );
}

/** The error of a run stopped by a signal (the abort reason names it, e.g. 'SIGTERM'). */
function interrupted(
  name: string,
  line: number,
  writer: RecordWriter,
  source: OpenedSource | undefined,
  signal: AbortSignal,
): IngestInterruptedError {
  const by = typeof signal.reason === 'string' ? signal.reason : 'SIGINT';
  const kept = source?.compressed()
    ? 'nothing from this gzip source committed (its checksum is at its end)'
    : `${writer.counts.read.toLocaleString('en-US')} records read and committed`;
  return new IngestInterruptedError(
    by,
    `${name}:${line}: interrupted by ${by}; ${kept}, run the same command again to complete`,
  );
}

/** Rolls back what is open when the database itself failed; that failure is the one reported. */
async function abandonQuietly(writer: RecordWriter): Promise<void> {
  try {
    await writer.abandon();
  } catch {
    // Closing the store rolls back whatever is still open.
  }
}
