/**
 * A large canonical CSV observation source read on two cores: this thread decodes and
 * writes, the parse worker (parallel-worker.ts) parses, validates and resolves. Text goes out
 * a chunk at a time and at most MAX_IN_FLIGHT chunks are ahead of the writes, so memory
 * stays flat whichever side is slower. Counts, rejects (in order, with their lines), line
 * numbers, commits and interruption behave as in the single-threaded reader.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { DatabaseUnavailableError, InputError, OracleError } from '../domain/errors.js';
import type { Store } from '../store/store.js';
import { MapperBugError } from './errors.js';
import type { CsvRowOptions } from './formats/csv-row-handler.js';
import { ObservationValues } from './validate/observation-values.js';
import type { RecordWriter } from './write/record-writer.js';
import { RowUnpacker } from './parallel-rows.js';
import type { FromParseWorker, ParseWorkerData, ToParseWorker, WorkerError } from './parallel-worker.js';

/**
 * Chunks of text (64 KiB each from a file) the worker may be ahead of the writes: enough rows
 * that a late worker (a busy core) rarely leaves the writes waiting.
 */
const MAX_IN_FLIGHT = 32;

/**
 * The compiled worker script, ingest/parallel-worker.js of the same build (dist/ or build/,
 * scripts/build.js). Relative to the directory of the file this code runs from, which is two
 * levels below the package root wherever the build puts it (dist/cli/main.js, build/chunks/);
 * run from the TypeScript sources (tests) it does not exist and the pipeline reads on one thread.
 */
const WORKER_SCRIPT = fileURLToPath(new URL('../ingest/parallel-worker.js', import.meta.url));

/** True when the parse worker can run here. */
export function parallelReaderAvailable(): boolean {
  return existsSync(WORKER_SCRIPT);
}

export class ParallelCsvReader {
  private readonly worker: Worker;
  private readonly unpacker = new RowUnpacker();
  private readonly values = new ObservationValues();
  private inFlight = 0;
  private lastLine = 1;
  private failure: unknown = null;
  private wake: (() => void) | null = null;

  constructor(
    store: Store,
    options: CsvRowOptions,
    private readonly writer: RecordWriter,
    private readonly clock: () => number,
  ) {
    const data: ParseWorkerData = { dbPath: store.address, options };
    this.worker = new Worker(WORKER_SCRIPT, { workerData: data });
    this.worker.on('message', (message: FromParseWorker) => this.receive(message));
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', (code) => {
      if (this.inFlight > 0)
        this.fail(new OracleError(`${options.source}: the parse worker stopped (exit code ${code})`));
    });
  }

  /** Waits until the worker may take more text. */
  async ready(): Promise<void> {
    await this.until(() => this.inFlight < MAX_IN_FLIGHT);
  }

  /** The clock goes with the text: the worker refuses observations dated after it (a live pipe keeps it current). */
  push(text: string): void {
    this.send({ text, now: this.clock() });
  }

  /** Sends the end of the input and waits until every row is written. */
  async end(): Promise<void> {
    this.send({ end: true });
    await this.until(() => this.inFlight === 0);
  }

  /** Waits until the text sent so far is written (or the worker failed), without throwing. */
  async settle(): Promise<void> {
    while (this.failure === null && this.inFlight > 0)
      await new Promise<void>((resolve) => (this.wake = resolve));
  }

  /** The line the worker has parsed up to, in the rows written so far. */
  line(): number {
    return this.lastLine;
  }

  /** Stops the worker; rows it still sends are not written. */
  async close(): Promise<void> {
    this.fail(new OracleError('the parallel reader is closed'));
    await this.worker.terminate();
  }

  private send(message: ToParseWorker): void {
    if (this.failure !== null) throw this.failure;
    this.inFlight += 1;
    this.worker.postMessage(message);
  }

  private async until(done: () => boolean): Promise<void> {
    while (this.failure === null && !done()) await new Promise<void>((resolve) => (this.wake = resolve));
    if (this.failure !== null) throw this.failure;
  }

  private receive(message: FromParseWorker): void {
    if (this.failure === null && 'rows' in message) {
      try {
        this.unpacker.unpack(message.rows, this.values, (productId, values) =>
          this.writer.resolvedObservation(productId, values),
        );
        for (const reject of message.rejects) {
          this.writer.line = reject.line;
          this.writer.rejectUnread(reject.line, reject.reason, reject.record);
        }
        this.lastLine = message.line;
        this.inFlight -= 1;
      } catch (error) {
        this.fail(error);
      }
    }
    if (message.error !== undefined) this.fail(deserialize(message.error));
    this.notify();
  }

  private fail(error: unknown): void {
    this.failure ??= error;
    this.notify();
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}

/**
 * The worker's error as the class the pipeline and the CLI's exit codes know, keeping the
 * worker's stacks (ORACLE_DEBUG=1 prints them: where a mapper bug happened).
 */
function deserialize(e: WorkerError): Error {
  const cause = e.cause === undefined ? undefined : deserializeCause(e.cause);
  let error: Error;
  if (e.name === 'InputError')
    error = new InputError(e.source ?? '', e.line ?? 0, e.what ?? e.message, { cause });
  else if (e.name === 'MapperBugError') error = new MapperBugError(e.message, { cause });
  else if (e.name === 'DatabaseUnavailableError') error = new DatabaseUnavailableError(e.message, { cause });
  else error = new OracleError(e.message, { cause });
  if (e.stack !== undefined) error.stack = e.stack;
  return error;
}

/** An error the worker's error wraps (a mapper's TypeError, say): its name, message and stack as they were. */
function deserializeCause(e: WorkerError): Error {
  const error = new Error(e.message, {
    cause: e.cause === undefined ? undefined : deserializeCause(e.cause),
  });
  error.name = e.name;
  if (e.stack !== undefined) error.stack = e.stack;
  return error;
}
