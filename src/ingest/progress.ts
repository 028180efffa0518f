/**
 * The progress bar of `oracle ingest` on a terminal: records, records per second and bytes
 * read (with a bar when the size is known), redrawn at most ten times a second on stderr.
 * Off a terminal there is no progress output at all.
 */
import type { IngestProgress } from './pipeline.js';

const REDRAW_MS = 100;
const BAR_WIDTH = 20;

export interface ProgressBar {
  update(progress: IngestProgress): void;
  /** Erases the bar (before the summary line is printed). */
  clear(): void;
}

/** A bar drawing on `stream`; `clock` gives epoch ms (the rate's time base). */
export function createProgressBar(stream: NodeJS.WritableStream, clock: () => number = Date.now): ProgressBar {
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
      stream.write(`\r\x1b[K${render(progress, (now - startedAt) / 1000)}`);
    },
    clear() {
      if (drawn) stream.write('\r\x1b[K');
      drawn = false;
    },
  };
}

/** One line of progress, e.g. `data.csv [#####     ] 25%  120,000 records  95,000/s  12.0 of 48.0 MB`. */
export function render(progress: IngestProgress, seconds: number): string {
  const rate = seconds > 0 ? Math.round(progress.records / seconds) : 0;
  const parts = [progress.source];
  if (progress.totalBytes) {
    const fraction = Math.min(1, progress.bytes / progress.totalBytes);
    const filled = Math.round(fraction * BAR_WIDTH);
    parts.push(`[${'#'.repeat(filled)}${' '.repeat(BAR_WIDTH - filled)}] ${Math.floor(fraction * 100)}%`);
  }
  parts.push(`${progress.records.toLocaleString('en-US')} records`, `${rate.toLocaleString('en-US')}/s`);
  const mb = (bytes: number) => (bytes / 1e6).toFixed(1);
  parts.push(progress.totalBytes ? `${mb(progress.bytes)} of ${mb(progress.totalBytes)} MB` : `${mb(progress.bytes)} MB read`);
  return parts.join('  ');
}
