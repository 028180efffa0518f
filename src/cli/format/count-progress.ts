/**
 * A progress bar over a known count on a terminal (`oracle export`): a bar, done of total and
 * the rate, redrawn at most ten times a second on stderr and erased at the end.
 */
const REDRAW_MS = 100;
const BAR_WIDTH = 20;
/** Below this many seconds, or before the first product, a rate is not yet known: shown as `-/s`. */
const MIN_RATE_SECONDS = 0.5;

export interface CountProgress {
  update(done: number): void;
  clear(): void;
}

export function createCountProgress(
  stream: NodeJS.WritableStream,
  label: string,
  total: number,
  clock: () => number = Date.now,
): CountProgress {
  const started = clock();
  let lastDraw = 0;
  let drawn = false;
  return {
    update(done) {
      const now = clock();
      if (now - lastDraw < REDRAW_MS && done < total) return;
      lastDraw = now;
      drawn = true;
      stream.write(`\r\x1b[K${renderCount(label, done, total, (now - started) / 1000)}`);
    },
    clear() {
      if (drawn) stream.write('\r\x1b[K');
      drawn = false;
    },
  };
}

/** `export [#####               ] 25%  2,500 of 10,000 products  1,250/s` */
export function renderCount(label: string, done: number, total: number, seconds: number): string {
  const fraction = total > 0 ? Math.min(1, done / total) : 1;
  const filled = Math.round(fraction * BAR_WIDTH);
  const rate =
    seconds >= MIN_RATE_SECONDS && done > 0 ? Math.round(done / seconds).toLocaleString('en-US') : '-';
  return `${label} [${'#'.repeat(filled)}${' '.repeat(BAR_WIDTH - filled)}] ${Math.floor(fraction * 100)}%  ${done.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} products  ${rate}/s`;
}
