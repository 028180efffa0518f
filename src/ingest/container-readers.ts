/**
 * The reader of each container (CSV, NDJSON, JSON array) on this thread: text in, parsed
 * (read/ and domain/csv.ts), through the format the source's first record chooses
 * (formats/), records out to the writer, which validates and writes them (write/).
 */
import { CsvParser } from '../domain/csv.js';
import { InputError } from '../domain/errors.js';
import { csvRowHandler, mapperFailure, type CsvRowOptions } from './formats/csv-row-handler.js';
import { chooseCsvFormat, kindOfFields } from './formats/detect.js';
import { findJsonFeedFormat } from './formats/index.js';
import type { TcgcsvGroups } from './formats/tcgcsv-groups.js';
import { RowRejection, type JsonFormat, type RecordKind } from './formats/types.js';
import { JsonArrayReader } from './read/json-array.js';
import type { JsonRecordHandler } from './read/json-records.js';
import { JsonResultsReader } from './read/json-results.js';
import { NdjsonReader } from './read/ndjson.js';
import type { CanonicalRecord } from './validate/record.js';
import type { RecordWriter } from './write/record-writer.js';

/** What the readers take of `oracle ingest`'s options. */
export interface ReadOptions {
  kind?: RecordKind;
  format?: string;
  /** `--observed-at`, epoch ms (checked by the CLI). */
  observedAt?: number;
  subtype?: string;
  /** `--groups`, read (the pipeline reads the file before the source). */
  tcgcsvGroups?: TcgcsvGroups;
  /** Epoch ms: the ingest-runs times, the default time of price-guide rows, and what a future observation is. */
  clock: () => number;
}

/** A reader of one container: text in, records out to the writer. */
export interface Reader {
  /** Resolves when the reader takes more text (a reader working ahead of the writes). */
  ready?(): Promise<void>;
  push(text: string): void;
  end(): void | Promise<void>;
  /** The line reached, for messages. */
  line(): number;
  /** Waits until what was pushed is written, ignoring failures (before committing on a bad input). */
  settle?(): Promise<void>;
  close?(): Promise<void>;
}

/** Records the run in the ingest-runs table once the kind and format are known. */
export type StartRun = (kind: string, format: string) => void;

/** The reader of a CSV source on this thread: the header chooses the format (canonical or a feed's). */
export function csvReader(
  name: string,
  options: ReadOptions,
  writer: RecordWriter,
  startRun: StartRun,
): Reader {
  const handler = csvRowHandler(csvRowOptions(name, options), writer, (format) => {
    writer.skipUnmapped = format.skipsUnmapped === true;
    writer.keepStoredKeys = format.keepsProductKeys === true;
    startRun(options.kind ?? format.kinds.join('+'), format.name);
  });
  const parser = new CsvParser(name, handler);
  return { push: (text) => parser.push(text), end: () => parser.end(), line: () => parser.currentLine };
}

/** True when a CSV source's header is that of canonical observation records (what the parse worker reads). */
export function isCanonicalObservations(name: string, head: string, options: ReadOptions): boolean {
  let header: string[] | null = null;
  const stop = new Error('header read');
  try {
    new CsvParser(name, (fields) => {
      header = fields;
      throw stop;
    }).push(head);
  } catch (error) {
    if (error !== stop) return false; // the single-threaded reader reports it
  }
  if (header === null) return false;
  try {
    const format = chooseCsvFormat(header, options.format, options.kind);
    return format.name === 'csv' && format.kinds.length === 1 && format.kinds[0] === 'observations';
  } catch {
    return false;
  }
}

/** The options of a CSV source's row handler, on this thread or in the parse worker. */
export function csvRowOptions(name: string, options: ReadOptions): CsvRowOptions {
  return {
    source: name,
    format: options.format,
    kind: options.kind,
    observedAt: options.observedAt,
    subtype: options.subtype,
    now: options.clock(),
    tcgcsvGroups: options.tcgcsvGroups,
  };
}

/** The reader of a JSON source (NDJSON or a JSON array): canonical records, or a JSON feed's values. */
export function jsonReader(
  name: string,
  container: 'ndjson' | 'json',
  options: ReadOptions,
  writer: RecordWriter,
  startRun: StartRun,
): Reader {
  let kind: RecordKind | null = null;
  let line = 1;
  const feed = findJsonFeedFormat(options.format);
  if (feed !== undefined) return jsonFeedReader(name, container, feed, options, writer, startRun);
  const handler: JsonRecordHandler = {
    value(value, at) {
      line = at;
      const isObject = typeof value === 'object' && value !== null && !Array.isArray(value);
      if (kind === null) {
        // The first record decides the kind, and shows whether this is JSON records at all.
        if (!isObject)
          throw new InputError(
            name,
            at,
            `expected a JSON object per record, found ${Array.isArray(value) ? 'an array' : typeof value}`,
          );
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
      if (kind === null)
        throw new InputError(
          name,
          at,
          `${reason} (is this ${container === 'json' ? 'a JSON array' : 'NDJSON'}?)`,
        );
      writer.rejectUnread(at, reason, text);
    },
  };
  const reader = container === 'json' ? new JsonArrayReader(name, handler) : new NdjsonReader(name, handler);
  return { push: (text) => reader.push(text), end: () => reader.end(), line: () => line };
}

/**
 * A reader of a JSON feed format (sold listings): each value goes through the format's
 * mapper; a RowRejection rejects the value, any other error stops the run as a bug.
 */
function jsonFeedReader(
  name: string,
  container: 'ndjson' | 'json',
  feed: JsonFormat,
  options: ReadOptions,
  writer: RecordWriter,
  startRun: StartRun,
): Reader {
  if (options.kind !== undefined && !feed.kinds.includes(options.kind)) {
    throw new InputError(
      name,
      1,
      `--format ${feed.name} makes ${feed.kinds.join(' and ')} records, not ${options.kind}`,
    );
  }
  const envelope = feed.openEnvelope?.(csvRowOptions(name, options));
  const map = envelope?.map ?? feed.open(csvRowOptions(name, options));
  writer.skipUnmapped = feed.skipsUnmapped === true;
  writer.joinCrosswalk = feed.joinsCrosswalk === true;
  startRun(feed.kinds.join('+'), feed.name);
  let line = 1;
  let seen = false;
  const handler: JsonRecordHandler = {
    value(value, at) {
      line = writer.line = at;
      seen = true;
      try {
        map(value, writer);
      } catch (error) {
        if (!(error instanceof RowRejection)) throw mapperFailure(name, at, feed.name, error);
        writer.rejectUnread(at, error.message, value);
      }
    },
    invalid(at, reason, text) {
      line = at;
      // A first line that is no JSON: not NDJSON at all (a pretty-printed response, say).
      if (!seen)
        throw new InputError(
          name,
          at,
          `${reason} (is this ${container === 'json' ? 'a JSON array' : 'NDJSON'}? ${feed.notJsonRecordsHint})`,
        );
      writer.rejectUnread(at, reason, text);
    },
  };
  if (feed.envelope === true) {
    writer.holdCommits();
    writer.wholeSource = true;
    const reader = new JsonResultsReader(
      name,
      handler,
      (key, value, at) => {
        feed.checkEnvelope?.(key, value, name, at);
        envelope?.onKey(key, value, at);
      },
      feed.resultsKeys,
      envelope?.onArray,
    );
    return { push: (text) => reader.push(text), end: () => reader.end(), line: () => reader.currentLine };
  }
  const reader = container === 'json' ? new JsonArrayReader(name, handler) : new NdjsonReader(name, handler);
  return { push: (text) => reader.push(text), end: () => reader.end(), line: () => line };
}

function firstRecordKind(
  name: string,
  line: number,
  keys: readonly string[],
  kind: RecordKind | undefined,
): RecordKind {
  const detected = kindOfFields(keys);
  if (kind !== undefined && detected !== null && detected !== kind) {
    throw new InputError(name, line, `the first record has ${detected} fields but --kind is ${kind}`);
  }
  const chosen = kind ?? detected;
  if (chosen === null) {
    const listing =
      keys.includes('itemId') || keys.includes('lastSoldPrice')
        ? '; a marketplace sold listing needs --format sold-listings'
        : '';
    throw new InputError(
      name,
      line,
      `cannot tell the record kind from the first record: observations need source, observed_at and a price; catalog records need product_key and product_name (or use --kind)${listing}`,
    );
  }
  return chosen;
}
