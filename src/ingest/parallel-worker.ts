/**
 * The parse worker: the first half of a large canonical CSV observation ingest, on its own
 * core. It receives decoded text, parses, validates and resolves every row exactly as the
 * single-threaded path does (formats/csv-row-handler.ts, validate/observation-fast.ts, the
 * zod schema for the reason of a reject, validate/product-resolver.ts over its own read
 * connection), and posts back, per text chunk, the resolved rows packed (parallel-rows.ts) and
 * the rejects in order. The writing thread inserts them; see parallel-reader.ts for the protocol
 * and the flow control.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { CsvParser } from '../domain/csv.js';
import { futureObservationProblem } from '../domain/observation.js';
import { openStore } from '../store/open-store.js';
import type { NormalizedRecordSink } from './formats/canonical-csv.js';
import { csvRowHandler, type CsvRowOptions, type CsvRowSink } from './formats/csv-row-handler.js';
import { cellsRecord, readObservationCells, type ObservationColumns } from './validate/observation-fast.js';
import { ObservationValues } from './validate/observation-values.js';
import { checkObservation } from './validate/observation.js';
import { ProductResolver } from './validate/product-resolver.js';
import type { CanonicalRecord } from './validate/record.js';
import { RowPacker, type PackedRows } from './parallel-rows.js';

export interface ParseWorkerData {
  dbPath: string;
  options: CsvRowOptions;
}

/** A row that is no valid observation, as the writing thread reports it. */
export interface WorkerReject {
  line: number;
  reason: string;
  record: unknown;
}

/** Messages to the worker: text to parse with the writing thread's clock (epoch ms), then the end of the input. */
export type ToParseWorker = { text: string; now: number } | { end: true };

/** An error as it crosses threads, with its stack and its cause's (where a mapper bug happened). */
export interface WorkerError {
  name: string;
  message: string;
  stack?: string;
  source?: string;
  line?: number;
  what?: string;
  cause?: WorkerError;
}

/**
 * Messages from the worker: one per message received, with the rows and rejects it made and
 * the error that stopped it, if any (after the rows before it, as on one thread); or only an
 * error when the worker could not start.
 */
export type FromParseWorker =
  { rows: PackedRows; rejects: WorkerReject[]; line: number; error?: WorkerError } | { error: WorkerError };

/** The worker's sink: valid rows are packed, the others collected as rejects. */
class PackingSink implements NormalizedRecordSink, CsvRowSink {
  line = 0;
  rejects: WorkerReject[] = [];
  /** The writing thread's clock, as of the text being parsed. */
  now: number;
  private readonly values = new ObservationValues();

  constructor(
    private readonly resolver: ProductResolver,
    private readonly packer: RowPacker,
    now: number,
  ) {
    this.now = now;
  }

  observationCells(fields: readonly string[], columns: ObservationColumns): void {
    if (!readObservationCells(fields, columns, this.values))
      return this.observation(cellsRecord(fields, columns), true);
    const future = futureObservationProblem(this.values.observedAt, this.now);
    if (future !== null) return this.rejectUnread(this.line, future, cellsRecord(fields, columns));
    const product = this.resolver.resolve(this.values);
    if ('reason' in product) this.rejectUnread(this.line, product.reason, cellsRecord(fields, columns));
    else this.packer.add(product.id, this.values);
  }

  observation(record: CanonicalRecord, normalized = false): void {
    const invalid = checkObservation(record, this.values, normalized);
    if (invalid !== null) return this.rejectUnread(this.line, invalid, record);
    const future = futureObservationProblem(this.values.observedAt, this.now);
    if (future !== null) return this.rejectUnread(this.line, future, record);
    const product = this.resolver.resolve(this.values);
    if ('reason' in product) this.rejectUnread(this.line, product.reason, record);
    else this.packer.add(product.id, this.values);
  }

  product(): void {
    throw new Error('the parse worker reads observation files only');
  }

  skip(): void {
    throw new Error('the parse worker reads canonical files only');
  }

  rejectUnread(line: number, reason: string, record: unknown): void {
    this.rejects.push({ line, reason, record });
  }
}

const port = parentPort;
if (port === null) throw new Error('parallel-worker.js runs as a worker thread');
const data = workerData as ParseWorkerData;
const post = (message: FromParseWorker, transfer?: ArrayBuffer[]) => port.postMessage(message, transfer);

// A function rather than top-level await: the worker is bundled as CommonJS (scripts/build.js).
async function serve(port: MessagePort): Promise<void> {
  try {
    const store = await openStore(data.dbPath);
    // A dry run's writer: the store's product lookups, and no writes.
    const lookup = await store.openIngest({ dryRun: true });
    const packer = new RowPacker();
    const sink = new PackingSink(new ProductResolver(lookup.products), packer, data.options.now);
    const parser = new CsvParser(
      data.options.source,
      csvRowHandler(data.options, sink, () => {}),
    );
    const postRows = (line: number, error?: unknown): void => {
      const rows = packer.take();
      const message: FromParseWorker = { rows, rejects: sink.rejects.splice(0), line };
      if (error !== undefined) message.error = serialize(error);
      post(message, [rows.numbers.buffer as ArrayBuffer]);
    };
    port.on('message', (message: ToParseWorker) => {
      try {
        if ('text' in message) {
          sink.now = message.now;
          parser.push(message.text);
        } else {
          parser.end();
          void lookup.close().then(() => store.close());
        }
      } catch (error) {
        // The rows before the error are kept, as on one thread.
        return postRows(parser.currentLine, error);
      }
      postRows(parser.currentLine);
    });
  } catch (error) {
    post({ error: serialize(error) });
  }
}

void serve(port);

function serialize(error: unknown): WorkerError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const e = error as Error & { source?: string; line?: number; what?: string };
  const serialized: WorkerError = {
    name: e.name,
    message: e.message,
    stack: e.stack,
    source: e.source,
    line: e.line,
    what: e.what,
  };
  if (e.cause !== undefined) serialized.cause = serialize(e.cause);
  return serialized;
}
