/**
 * Opens one ingest source as a stream of bytes: a file path, '-' for stdin, or an http(s)
 * URL fetched with undici. Gzip is recognised by its magic bytes (so `*.gz` files and
 * gzip-encoded responses both work) and decompressed on the fly; nothing is read whole.
 * Gzip checks its data only at the end of the stream (CRC-32 and length), so a gzip source
 * says so (`compressed()`) and can finish that check without its text (`verify()`).
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable, pipeline } from 'node:stream';
import { createGunzip, type Gunzip } from 'node:zlib';
import { SourceUnreadableError } from '../../domain/errors.js';
import { GzipCorruptError } from '../errors.js';
import { redactedUrl, redactUrlsIn } from '../../domain/redact.js';
import { DEFAULT_URL_LIMITS, type UrlLimits } from '../../domain/url-limits.js';

export interface OpenedSource {
  /** How messages and the ingest-runs table name the source: the path, the URL, or `stdin`. */
  readonly name: string;
  /** The path or URL path, for format detection by extension ('' for stdin). */
  readonly path: string;
  /** Decompressed bytes. */
  readonly chunks: AsyncIterable<Buffer>;
  /** Bytes read from the source so far (compressed, as stored or sent). */
  bytesRead(): number;
  /** Size of the source when known (file size, Content-Length). */
  readonly totalBytes: number | null;
  /** True when the bytes are gzip; known once the first chunk was read. */
  compressed(): boolean;
  /**
   * Reads the rest of a gzip stream without handing it on and resolves when gzip's own
   * checks passed; throws GzipCorruptError (or SourceUnreadableError) otherwise. Nothing for
   * uncompressed sources. Call it only after `chunks` stopped being read.
   */
  verify(): Promise<void>;
  /** Stops reading and releases the file, the connection (its agent) or decompressor. */
  close(): void;
}

/**
 * File reads of 64 KiB: the decoded text of a chunk then stays a young-generation string
 * (V8 puts strings over 128 KiB in the old generation, where each chunk would linger until a
 * full collection and inflate the heap by tens of MB).
 */
const READ_CHUNK_BYTES = 64 * 1024;
const URL_PATTERN = /^https?:\/\//i;

/** Opens `spec`; throws SourceUnreadableError naming it when it cannot be opened. */
export async function openSource(
  spec: string,
  stdin: NodeJS.ReadableStream,
  limits: UrlLimits = DEFAULT_URL_LIMITS,
): Promise<OpenedSource> {
  if (spec === '-') return wrap('stdin', '', stdin as AsyncIterable<Buffer>, null);
  if (URL_PATTERN.test(spec)) return openUrl(spec, limits);
  return openFile(spec);
}

async function openFile(path: string): Promise<OpenedSource> {
  let size: number;
  try {
    const info = await stat(path);
    if (info.isDirectory()) throw new SourceUnreadableError(`${path}: is a directory, not a file`);
    size = info.size;
  } catch (error) {
    if (error instanceof SourceUnreadableError) throw error;
    throw new SourceUnreadableError(`${path}: ${describeFsError(error)}`, { cause: error });
  }
  return wrap(path, path, createReadStream(path, { highWaterMark: READ_CHUNK_BYTES }), size);
}

async function openUrl(url: string, limits: UrlLimits): Promise<OpenedSource> {
  // Messages and the ingest-runs table name it without its credentials or query values.
  const name = redactedUrl(url);
  const startedAt = Date.now();
  // undici is loaded only for URLs: file and stdin ingests do not pay for it.
  const { request, Agent, interceptors } = await import('undici');
  // An agent of its own per URL, destroyed with the source: a kept-alive socket would
  // otherwise stay open (and keep the process alive) for as long as the server allows.
  const agent = new Agent({ connectTimeout: 10_000 });
  const release = () => void agent.destroy().catch(() => undefined);
  const dispatcher = agent.compose(interceptors.redirect({ maxRedirections: 5 }));
  let response: Awaited<ReturnType<typeof request>>;
  try {
    response = await request(url, { method: 'GET', dispatcher, headersTimeout: 30_000, bodyTimeout: 60_000 });
  } catch (error) {
    release();
    const code = (error as { code?: string }).code;
    throw new SourceUnreadableError(
      `${name}: cannot fetch: ${code ?? redactUrlsIn((error as Error).message)}`,
      {
        cause: error,
      },
    );
  }
  if (response.statusCode < 200 || response.statusCode > 299) {
    await response.body.dump();
    release();
    throw new SourceUnreadableError(`${name}: HTTP ${response.statusCode} from the server`);
  }
  const length = Number(response.headers['content-length']);
  const body = bounded(response.body, name, limits, limits.deadlineMs - (Date.now() - startedAt));
  return wrap(name, new URL(url).pathname, body, Number.isFinite(length) ? length : null, release);
}

/**
 * `body` stopped with SourceUnreadableError once `remainingMs` of the deadline have passed or a
 * rate window brought fewer bytes than the minimum rate allows. A window the event loop spent
 * elsewhere (a commit waiting for the write lock: no byte could be taken) is not judged.
 */
function bounded(
  body: Readable,
  name: string,
  limits: UrlLimits,
  remainingMs: number,
): AsyncIterable<Buffer> {
  let failure: SourceUnreadableError | null = null;
  const fail = (message: string) => {
    failure ??= new SourceUnreadableError(`${name}: ${message}; what was committed before stays`);
    body.destroy(failure);
  };
  let windowBytes = 0;
  let windowStart = Date.now();
  const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;
  const deadline = setTimeout(
    () => fail(`not read within ${seconds(limits.deadlineMs)} (--url-deadline): stopped`),
    Math.max(0, remainingMs),
  );
  const rate = setInterval(() => {
    const elapsed = Date.now() - windowStart;
    const least = (limits.minBytesPerSecond * elapsed) / 1000;
    if (elapsed < 2 * limits.rateWindowMs && windowBytes < least)
      fail(
        `sent ${windowBytes.toLocaleString('en-US')} bytes in ${seconds(elapsed)}, slower than ${limits.minBytesPerSecond.toLocaleString('en-US')} bytes/s (--url-min-rate, over --url-min-rate-time ${seconds(limits.rateWindowMs)}): stopped`,
      );
    windowBytes = 0;
    windowStart = Date.now();
  }, limits.rateWindowMs);
  return (async function* () {
    try {
      for await (const chunk of body as AsyncIterable<Buffer>) {
        windowBytes += chunk.length;
        yield chunk;
      }
    } catch (error) {
      throw failure ?? error;
    } finally {
      clearTimeout(deadline);
      clearInterval(rate);
    }
    if (failure !== null) throw failure;
  })();
}

function wrap(
  name: string,
  path: string,
  raw: AsyncIterable<Buffer>,
  totalBytes: number | null,
  release: () => void = () => undefined,
): OpenedSource {
  let bytes = 0;
  async function* counted(): AsyncGenerator<Buffer> {
    try {
      for await (const chunk of raw) {
        bytes += chunk.length;
        yield chunk;
      }
    } catch (error) {
      if (error instanceof SourceUnreadableError) throw error;
      throw new SourceUnreadableError(`${name}: read failed: ${describeFsError(error)}`, { cause: error });
    } finally {
      (raw as Partial<Readable>).destroy?.();
    }
  }
  const counting = counted();
  let gunzip: Gunzip | null = null;
  let gunzipFailure: Promise<Error | null> | null = null;

  /** Passes bytes through, or through gunzip when they start with gzip's magic bytes 1f 8b. */
  async function* decompressed(): AsyncGenerator<Buffer> {
    const first = await counting.next();
    if (first.done) return;
    const head = first.value;
    if (head.length < 2 || head[0] !== 0x1f || head[1] !== 0x8b) {
      yield head;
      yield* counting;
      return;
    }
    async function* all(): AsyncGenerator<Buffer> {
      yield head;
      yield* counting;
    }
    const inflate = (gunzip = createGunzip());
    // Errors of either side, the read or the checks, end up here (and in `inflate`).
    gunzipFailure = new Promise((resolve) =>
      pipeline(Readable.from(all()), inflate, (error) => resolve(error ?? null)),
    );
    try {
      // Not destroyed when the reader stops early: verify() may still read it to its end.
      for await (const chunk of inflate.iterator({ destroyOnReturn: false })) yield chunk as Buffer;
    } catch (error) {
      throw gzipError(name, error);
    }
  }

  const chunks = decompressed();
  return {
    name,
    path,
    totalBytes,
    bytesRead: () => bytes,
    chunks,
    compressed: () => gunzip !== null,
    async verify() {
      if (gunzip === null || gunzipFailure === null) return;
      // What is left is read and dropped; only gzip's verdict matters. A reader that stopped
      // between chunks (a header naming no format) left the iterator open, whose 'readable'
      // listener keeps the stream paused: it is read to its end through that iterator. One that
      // stopped inside the text decoder closed the iterator, and resume() lets the rest flow.
      while (!(await chunks.next()).done);
      gunzip.resume();
      const failure = await gunzipFailure;
      if (failure !== null) throw gzipError(name, failure);
    },
    close() {
      gunzip?.destroy();
      (raw as Partial<Readable>).destroy?.(); // also ends a read waiting on a quiet pipe or socket
      release();
    },
  };
}

/** The error of a gzip stream that failed: a read failure stays one, anything zlib says means corrupt data. */
function gzipError(name: string, error: unknown): Error {
  if (error instanceof SourceUnreadableError || error instanceof GzipCorruptError) return error;
  const reason = (error as Error).message;
  return new GzipCorruptError(
    `${name}: the gzip data is corrupt (${reason}): nothing from this source was committed`,
    { cause: error },
  );
}

function describeFsError(error: unknown): string {
  const code = (error as { code?: string }).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'is a directory, not a file';
  return (error as Error).message;
}
