/**
 * The progress bar of `oracle ingest` on a terminal: records, records per second and bytes
 * read (with a bar when the size is known), redrawn at most ten times a second on stderr.
 * Off a terminal there is no progress output at all.
 */
import type { IngestProgress } from '../../ingest/pipeline.js';

const REDRAW_MS = 100;
const BAR_WIDTH = 20;
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
export function createProgressBar(stream: NodeJS.WritableStream & { columns?: number }, clock: () => number = Date.now): ProgressBar {
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

/**
 * One line of progress of at most `width` characters, e.g.
 * `data.csv  [#####               ] 25%  120,000 records  95,000/s  12.0 of 48.0 MB`.
 * When that is too wide it drops the bar, then the rate, then the bytes, and shows the end
 * of a long source name (`...ly/long/name.csv`, the file name matters most).
 */
export function render(progress: IngestProgress, seconds: number, width = DEFAULT_COLUMNS - 1): string {
  const rate = seconds > 0 ? Math.round(progress.records / seconds) : 0;
  const mb = (bytes: number) => (bytes / 1e6).toFixed(1);
  const records = `${progress.records.toLocaleString('en-US')} records`;
  const perSecond = `${rate.toLocaleString('en-US')}/s`;
  const read = progress.totalBytes ? `${mb(progress.bytes)} of ${mb(progress.totalBytes)} MB` : `${mb(progress.bytes)} MB read`;
  const tails = [[records, perSecond, read], [records, read], [records]];
  if (progress.totalBytes) {
    const fraction = Math.min(1, progress.bytes / progress.totalBytes);
    const filled = Math.round(fraction * BAR_WIDTH);
    tails.unshift([`[${'#'.repeat(filled)}${' '.repeat(BAR_WIDTH - filled)}] ${Math.floor(fraction * 100)}%`, records, perSecond, read]);
  }
  for (const tail of tails) {
    const text = tail.join('  ');
    const room = width - text.length - 2;
    if (room >= Math.min(MIN_NAME, progress.source.length)) return `${fitName(progress.source, room)}  ${text}`;
  }
  return `${fitName(progress.source, MIN_NAME)}  ${records}`.slice(0, width);
}

/** `name`, or its end behind `...` in `room` characters. */
function fitName(name: string, room: number): string {
  return name.length <= room ? name : `...${name.slice(name.length - (room - 3))}`;
}
