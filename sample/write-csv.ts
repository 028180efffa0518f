/**
 * Streaming CSV writers for the generator. Observation lines are encoded straight into
 * ~1 MB byte chunks from the day columns (no string or object per row), and the chunks are
 * piped to the file, through gzip when its name ends in .gz. Memory stays constant and the
 * writer keeps up with the generator: millions of rows a second uncompressed.
 */
import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { csvField, csvLine } from '../src/domain/csv.js';
import { DAY_MS } from '../src/domain/time.js';
import {
  catalogRows,
  CATALOG_COLUMNS,
  OBSERVATION_COLUMNS,
  observationDays,
  SOURCES,
  type SamplePlan,
} from './generate.js';
import { SAMPLE_CONDITIONS } from './market-model.js';

const CHUNK_BYTES = 1 << 20;
const encoder = new TextEncoder();

/** Writes byte chunks to `path`, gzipped when it ends in `.gz`; resolves once the file is complete. */
export async function writeChunks(path: string, chunks: Iterable<Uint8Array>): Promise<void> {
  const source = Readable.from(chunks, { objectMode: false });
  const file = createWriteStream(path);
  if (path.endsWith('.gz')) await pipeline(source, createGzip(), file);
  else await pipeline(source, file);
}

/** Catalog CSV lines (header first), RFC 4180 quoted where needed. */
export function* catalogLines(plan: Pick<SamplePlan, 'products'>): Generator<string> {
  yield CATALOG_COLUMNS.join(',');
  for (const row of catalogRows(plan)) yield csvLine(CATALOG_COLUMNS.map((column) => row[column]));
}

/** The catalog CSV file content. */
export function catalogCsv(plan: Pick<SamplePlan, 'products'>): string {
  return [...catalogLines(plan)].join('\n') + '\n';
}

/** Appends ASCII bytes to a chunk; a fresh chunk is started after each full one is handed out. */
class ChunkBuilder {
  buf = new Uint8Array(CHUNK_BYTES);
  pos = 0;

  /** True when the chunk is full enough to hand out (one more line always fits). */
  get full(): boolean {
    return this.pos >= CHUNK_BYTES - 4096;
  }

  /** The bytes written so far; the builder starts a new chunk. */
  take(): Uint8Array {
    const chunk = this.buf.subarray(0, this.pos);
    this.buf = new Uint8Array(CHUNK_BYTES);
    this.pos = 0;
    return chunk;
  }

  bytes(b: Uint8Array): void {
    // A native copy pays off past a few bytes; short pieces are cheaper byte by byte.
    if (b.length > 16) {
      this.buf.set(b, this.pos);
      this.pos += b.length;
      return;
    }
    const buf = this.buf;
    let pos = this.pos;
    for (let k = 0; k < b.length; k++) buf[pos++] = b[k]!;
    this.pos = pos;
  }

  twoDigits(n: number): void {
    const tens = (n / 10) | 0;
    this.buf[this.pos++] = 48 + tens;
    this.buf[this.pos++] = 48 + n - tens * 10;
  }

  /** A non-negative integer in decimal (below 2^53); 32-bit integer steps where they fit. */
  int(n: number): void {
    if (n >= 1e9) {
      const high = Math.floor(n / 1e9);
      this.int(high);
      this.digits(n - high * 1e9, 9);
      return;
    }
    let width = 1;
    for (let t = n; t >= 10; t = (t / 10) | 0) width++;
    this.digits(n, width);
  }

  /** `n` (below 1e9) as exactly `width` digits, zero-padded. */
  private digits(n: number, width: number): void {
    const buf = this.buf;
    for (let i = this.pos + width - 1; i >= this.pos; i--) {
      const q = (n / 10) | 0;
      buf[i] = 48 + n - q * 10;
      n = q;
    }
    this.pos += width;
  }

  byte(c: number): void {
    this.buf[this.pos++] = c;
  }
}

const COLON = 0x3a;
const COMMA = 0x2c;
const NEWLINE = 0x0a;
const Z = 0x5a;

/**
 * The observation CSV of a plan as byte chunks (header first). Times are ISO-8601 UTC to
 * the second (`2026-11-21T14:03:27Z`); the date part is encoded once per day. `counter.rows`
 * is increased by the number of rows, a day ahead of the bytes.
 */
export function* observationChunks(
  plan: SamplePlan,
  counter: { rows: number } = { rows: 0 },
): Generator<Uint8Array> {
  const out = new ChunkBuilder();
  out.bytes(encoder.encode(OBSERVATION_COLUMNS.join(',') + '\n'));
  // Everything but the time, price and id is one of a few byte strings: encode them once.
  const keys = plan.products.map((p) => encoder.encode(csvField(p.key) + ','));
  const sources = SOURCES.map((s) => encoder.encode(s + ','));
  const conditions = SAMPLE_CONDITIONS.map((c) => encoder.encode(`,${c.grader},${c.grade ?? ''},`));
  const ebayPrefix = encoder.encode('ebay-');
  let cachedDay = NaN;
  let datePrefix = new Uint8Array(0);
  for (const day of observationDays(plan)) {
    counter.rows += day.size;
    for (let n = 0; n < day.size; n++) {
      const i = day.order[n]!;
      const at = day.at[i]!;
      const dayIndex = Math.floor(at / DAY_MS);
      if (dayIndex !== cachedDay) {
        cachedDay = dayIndex;
        datePrefix = encoder.encode(new Date(dayIndex * DAY_MS).toISOString().slice(0, 11));
      }
      const seconds = Math.floor((at - dayIndex * DAY_MS) / 1000);
      const minutes = Math.floor(seconds / 60);
      out.bytes(keys[day.product[i]!]!);
      out.bytes(sources[day.source[i]!]!);
      out.bytes(datePrefix);
      out.twoDigits(Math.floor(minutes / 60));
      out.byte(COLON);
      out.twoDigits(minutes % 60);
      out.byte(COLON);
      out.twoDigits(seconds % 60);
      out.byte(Z);
      out.byte(COMMA);
      out.int(day.price[i]!);
      out.bytes(conditions[day.condition[i]!]!);
      const ebayId = day.ebayId[i]!;
      if (ebayId) {
        out.bytes(ebayPrefix);
        out.int(ebayId);
      }
      out.byte(NEWLINE);
      if (out.full) yield out.take();
    }
  }
  if (out.pos > 0) yield out.take();
}

/** Writes a plan's catalog and observations to the given paths; resolves to the number of observation rows. */
export async function writeSample(
  plan: SamplePlan,
  paths: { catalog: string; observations: string },
): Promise<number> {
  await writeChunks(paths.catalog, [encoder.encode(catalogCsv(plan))]);
  const counter = { rows: 0 };
  await writeChunks(paths.observations, observationChunks(plan, counter));
  return counter.rows;
}
