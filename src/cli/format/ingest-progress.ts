/**
 * The progress bar of `oracle ingest` on a terminal: records, records per second and bytes
 * read (with a bar when the size is known), redrawn at most ten times a second on stderr, in
 * one layout from the first frame to the last.
 * Off a terminal there is no progress output at all.
 */
import type { IngestProgress } from '../../ingest/pipeline.js';

const REDRAW_MS = 100;
const BAR_WIDTH = 10;
/** Columns assumed when the terminal does not say (stream.columns). */
const DEFAULT_COLUMNS = 80;
/** The shortest tail of a long source name worth showing. */
const MIN_NAME = 10;

export interface ProgressBar {
  update(progress: IngestProgress): void;
  /** Erases the bar (before the summary line is printed). */
  clear(): void;
}

/**
 * A bar drawing on `stream`; `clock` gives epoch ms (the rate's time base). Each line fits the
 * terminal's width (read at every redraw, so a resize is followed) less one column: a line
 * that reached the last column would wrap, and `\r` then redraws only the wrapped part,
 * leaving a line behind at every redraw.
 */
export function createProgressBar(
  stream: NodeJS.WritableStream & { columns?: number },
  clock: () => number = Date.now,
): ProgressBar {
  let startedAt: number | null = null;
  let source = '';
  let lastDraw = 0;
  let drawn = false;
  return {
    update(progress) {
      const now = clock();
      if (progress.source !== source || startedAt === null) {
        source = progress.source;
        startedAt = now;
      }
      if (now - lastDraw < REDRAW_MS) return;
      lastDraw = now;
      drawn = true;
      const width = (stream.columns || DEFAULT_COLUMNS) - 1;
      stream.write(`\r\x1b[K${render(progress, (now - startedAt) / 1000, width)}`);
    },
    clear() {
      if (drawn) stream.write('\r\x1b[K');
      drawn = false;
    },
  };
}

/** The widest count a field is laid out for: a layout chosen for it holds every frame of a run. */
const WIDEST_COUNT = 999_999_999;
/** Below this many seconds, or before the first record, a rate is not yet known: shown as `-/s`. */
const MIN_RATE_SECONDS = 0.5;

/** Bytes in the unit that suits `scale` (the total, or what was read): `812 B`, `12.3 kB`, `48.0 MB`. */
const UNITS: readonly (readonly [number, string])[] = [
  [1e9, 'GB'],
  [1e6, 'MB'],
  [1e3, 'kB'],
];
function byteUnit(scale: number): readonly [number, string] {
  return UNITS.find(([size]) => scale >= size) ?? [1, 'B'];
}
const inUnit = (bytes: number, [size]: readonly [number, string]) =>
  size === 1 ? String(bytes) : (bytes / size).toFixed(1);

/** The fields of a frame, in the order shown; `bar` only when the size is known. */
interface Fields {
  bar?: string;
  records: string;
  rate: string;
  bytes: string;
}

function fields(progress: IngestProgress, seconds: number): Fields {
  const rate =
    seconds >= MIN_RATE_SECONDS && progress.records > 0
      ? `${Math.round(progress.records / seconds).toLocaleString('en-US')}/s`
      : '-/s';
  const unit = byteUnit(progress.totalBytes ?? progress.bytes);
  const bytes = progress.totalBytes
    ? `${inUnit(progress.bytes, unit)} of ${inUnit(progress.totalBytes, unit)} ${unit[1]}`
    : `${inUnit(progress.bytes, unit)} ${unit[1]} read`;
  const f: Fields = { records: `${progress.records.toLocaleString('en-US')} records`, rate, bytes };
  if (progress.totalBytes) {
    const fraction = Math.min(1, progress.bytes / progress.totalBytes);
    const filled = Math.round(fraction * BAR_WIDTH);
    f.bar = `[${'#'.repeat(filled)}${' '.repeat(BAR_WIDTH - filled)}] ${String(Math.floor(fraction * 100)).padStart(3)}%`;
  }
  return f;
}

/** The layouts, fullest first: which fields a line shows. */
const LAYOUTS: readonly (readonly (keyof Fields)[])[] = [
  ['bar', 'records', 'rate', 'bytes'],
  ['bar', 'records', 'rate'],
  ['bar', 'records'],
  ['records', 'rate', 'bytes'],
  ['records', 'rate'],
  ['records'],
];

/**
 * The fullest layout that fits `width` for this source at its widest (WIDEST_COUNT records
 * at as many a second, every byte read), and the room left for the source's name: chosen from
 * the source and the width alone, so a run keeps one layout from its first frame to its last.
 */
function layoutFor(
  progress: IngestProgress,
  width: number,
): { fields: readonly (keyof Fields)[]; nameRoom: number } {
  const widest = fields(
    {
      ...progress,
      records: Math.max(WIDEST_COUNT, progress.records),
      bytes: progress.totalBytes ?? Math.max(WIDEST_COUNT * 100, progress.bytes),
    },
    1,
  );
  const room = (layout: readonly (keyof Fields)[]) =>
    width - 2 - layout.map((k) => widest[k]?.length ?? 0).reduce((a, b) => a + b + 2, -2);
  const need = Math.min(MIN_NAME, progress.source.length);
  const layout = LAYOUTS.find((l) => (l[0] !== 'bar' || progress.totalBytes) && room(l) >= need) ?? [
    'records',
  ];
  return { fields: layout, nameRoom: Math.max(need, room(layout)) };
}

/**
 * One line of progress of at most `width` characters, e.g.
 * `data.csv  [#####               ]  25%  120,000 records  95,000/s  12.0 of 48.0 MB`.
 * Which fields it shows depends on the width and the source only (layoutFor): narrow, it
 * drops the bytes (the bar shows them), then the rate, then the bar, and shows the end of a long source name
 * (`...ly/long/name.csv`, the file name matters most). Bytes are in the unit of the size.
 */
export function render(progress: IngestProgress, seconds: number, width = DEFAULT_COLUMNS - 1): string {
  const f = fields(progress, seconds);
  const layout = layoutFor(progress, width);
  const tail = layout.fields.map((k) => f[k]!).join('  ');
  return `${fitName(progress.source, layout.nameRoom)}  ${tail}`.slice(0, width);
}

/** `name`, or its end behind `...` in `room` characters. */
function fitName(name: string, room: number): string {
  return name.length <= room ? name : `...${name.slice(name.length - (room - 3))}`;
}
