/**
 * One source from bytes to committed rows: open, decode, detect, parse, validate, batch,
 * write, and record the run in the ingest-runs table. Everything streams: memory holds one
 * chunk, one batch and the product cache, whatever the size of the source.
 */
import { OracleError } from '../domain/errors.js';
import type { Store } from '../store/store.js';
import { CsvParser } from './csv-parser.js';
import { decodeUtf8 } from './decode.js';
import { chooseContainer, chooseCsvFormat, kindOfFields } from './detect.js';
import { IngestInterruptedError, InputError } from './errors.js';
import type { RecordKind, RowMapper } from './formats/types.js';
import { JsonArrayReader } from './json-array.js';
import type { JsonRecordHandler } from './json-records.js';
import { NdjsonReader } from './ndjson.js';
import { openSource } from './open-source.js';
import type { CanonicalRecord } from './records.js';
import { RecordWriter, type RecordCounts } from './record-writer.js';
import type { RejectsWriter } from './rejects.js';

/**
 * Records per transaction: large enough to amortise the commit (index pages dirtied by many
 * rows are written to the WAL once; 50,000 took about 25% less CPU than 10,000 on the
 * 300k-row sample), small enough to keep memory flat and lose little on a crash.
 */
export const DEFAULT_BATCH_SIZE = 50_000;

export interface IngestProgress {
  source: string;
  records: number;
  bytes: number;
  totalBytes: number | null;
}

export interface IngestOptions {
  kind?: RecordKind;
  format?: string;
  dryRun?: boolean;
  /** More rejects than this makes the run `rejected` (exit 3); good records are still written. */
  maxRejects: number;
  observedAt?: string;
  subtype?: string;
  rejects?: RejectsWriter | null;
  /** Aborting stops the run after committing what was read (Ctrl-C). */
  signal?: AbortSignal;
  /** Epoch ms: the ingest-runs times and the default time of price-guide rows. */
  clock: () => number;
  stdin: NodeJS.ReadableStream;
  onProgress?: (progress: IngestProgress) => void;
  batchSize?: number;
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
  elapsedMs: number;
}

/** A reader of one container: text in, records out to the writer. */
interface Reader {
  push(text: string): void;
  end(): void;
  /** The line reached, for messages. */
  line(): number;
}

/** Ingests one source (path, '-' or URL). Throws InputError, SourceUnreadableError, IngestInterruptedError. */
export async function ingestSource(store: Store, spec: string, options: IngestOptions): Promise<IngestResult> {
  const name = spec === '-' ? 'stdin' : spec;
  const startedAt = options.clock();
  const dryRun = options.dryRun ?? false;
  const writer = new RecordWriter(store, {
    source: name,
    dryRun,
    batchSize: options.batchSize ?? DEFAULT_BATCH_SIZE,
    only: options.kind,
    rejects: options.rejects ?? null,
  });
  let format = options.format ?? 'unknown';
  let runId: number | null = null;
  /** Records the run once its kind and format are known (or when it ends before); returns its id. */
  const startRun = (kind: string, chosenFormat: string): number => {
    format = chosenFormat;
    return (runId ??= store.ingestRuns.start({ source: name, kind, format, dryRun, startedAt }));
  };

  let texts: AsyncGenerator<string> | undefined;
  let reader: Reader | undefined;
  try {
    const source = await openSource(spec, options.stdin);
    texts = decodeUtf8(source.chunks, name);
    // Read until the first non-blank text, which decides the container.
    let head = '';
    for (;;) {
      const next = await texts.next();
      if (next.done) break;
      head += next.value;
      if (head.trim() !== '') break;
    }
    if (head.trim() === '') throw new InputError(name, 1, 'the file is empty: no header and no records');
    const container = chooseContainer(options.format, source.path, head);
    reader = container === 'csv' ? csvReader(name, options, writer, startRun) : jsonReader(name, container, options, writer, startRun);
    reader.push(head);
    for (;;) {
      options.onProgress?.({ source: name, records: writer.counts.read, bytes: source.bytesRead(), totalBytes: source.totalBytes });
      if (options.signal?.aborted) {
        writer.flush();
        throw new IngestInterruptedError(
          `${name}:${reader.line()}: interrupted; ${writer.counts.read.toLocaleString('en-US')} records read and committed, run the same command again to complete`,
        );
      }
      const next = await texts.next();
      if (next.done) break;
      reader.push(next.value);
    }
    reader.end();
    writer.flush();
  } catch (error) {
    // Keep the good records read before a bad line; a database error leaves them to the re-run.
    try {
      if (error instanceof InputError) writer.flush();
      const id = startRun(options.kind ?? 'unknown', format);
      store.ingestRuns.finish(id, options.clock(), 'failed', writer.counts, (error as Error).message);
    } catch {
      // The database itself failed: the original error is the one to report.
    }
    throw error;
  } finally {
    await texts?.return(undefined);
  }
  const overLimit = writer.counts.rejected > options.maxRejects;
  const kinds = [...writer.kinds];
  const id = startRun(kinds.join('+') || options.kind || 'unknown', format);
  store.ingestRuns.finish(id, options.clock(), overLimit ? 'rejected' : 'ok', writer.counts);
  return {
    source: name,
    kinds,
    format,
    dryRun,
    counts: writer.counts,
    firstReject: writer.firstReject,
    overLimit,
    elapsedMs: options.clock() - startedAt,
  };
}

type StartRun = (kind: string, format: string) => void;

function csvReader(name: string, options: IngestOptions, writer: RecordWriter, startRun: StartRun): Reader {
  let header: string[] | null = null;
  let mapper: RowMapper | null = null;
  const parser = new CsvParser(name, (fields, line) => {
    if (mapper === null) {
      header = fields;
      try {
        const format = chooseCsvFormat(fields, options.format, options.kind);
        mapper = format.open(fields, {
          source: name,
          observedAt: options.observedAt,
          subtype: options.subtype,
          kind: options.kind,
          now: options.clock(),
        });
        writer.skipUnmapped = format.skipsUnmapped === true;
        writer.keepStoredKeys = format.keepsProductKeys === true;
        startRun(options.kind ?? format.kinds.join('+'), format.name);
      } catch (error) {
        if (error instanceof OracleError) throw error;
        throw new InputError(name, line, (error as Error).message, { cause: error });
      }
      return;
    }
    writer.line = line;
    try {
      mapper({ line, fields }, writer);
    } catch (error) {
      if (error instanceof OracleError) throw error;
      writer.rejectUnread(line, (error as Error).message, rowRecord(header as string[], fields));
    }
  });
  return { push: (text) => parser.push(text), end: () => parser.end(), line: () => parser.currentLine };
}

/** A CSV row as a record for the rejects file: named cells, or the bare cells when the count is off. */
function rowRecord(header: readonly string[], fields: readonly string[]): unknown {
  if (header.length !== fields.length) return fields;
  const record: CanonicalRecord = {};
  header.forEach((name, i) => (record[name] = fields[i]));
  return record;
}

function jsonReader(
  name: string,
  container: 'ndjson' | 'json',
  options: IngestOptions,
  writer: RecordWriter,
  startRun: StartRun,
): Reader {
  let kind: RecordKind | null = null;
  let line = 1;
  const handler: JsonRecordHandler = {
    value(value, at) {
      line = at;
      const isObject = typeof value === 'object' && value !== null && !Array.isArray(value);
      if (kind === null) {
        // The first record decides the kind, and shows whether this is JSON records at all.
        if (!isObject) throw new InputError(name, at, `expected a JSON object per record, found ${Array.isArray(value) ? 'an array' : typeof value}`);
        kind = firstRecordKind(name, at, Object.keys(value), options.kind);
        startRun(kind, container);
      }
      writer.line = at;
      if (!isObject) writer.rejectUnread(at, 'the record is not a JSON object', value);
      else if (kind === 'catalog') writer.product(value as CanonicalRecord);
      else writer.observation(value as CanonicalRecord);
    },
    invalid(at, reason, text) {
      line = at;
      if (kind === null) throw new InputError(name, at, `${reason} (is this ${container === 'json' ? 'a JSON array' : 'NDJSON'}?)`);
      writer.rejectUnread(at, reason, text);
    },
  };
  const reader = container === 'json' ? new JsonArrayReader(name, handler) : new NdjsonReader(name, handler);
  return { push: (text) => reader.push(text), end: () => reader.end(), line: () => line };
}

function firstRecordKind(name: string, line: number, keys: readonly string[], kind: RecordKind | undefined): RecordKind {
  const detected = kindOfFields(keys);
  if (kind !== undefined && detected !== null && detected !== kind) {
    throw new InputError(name, line, `the first record has ${detected} fields but --kind is ${kind}`);
  }
  const chosen = kind ?? detected;
  if (chosen === null) {
    throw new InputError(name, line, 'cannot tell the record kind from the first record: observations need source, observed_at and a price; catalog records need product_key and product_name (or use --kind)');
  }
  return chosen;
}
