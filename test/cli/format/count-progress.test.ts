// @module-tag sqlite-only: a progress line: no store
import { describe, expect, it } from 'vitest';
import { createCountProgress, renderCount } from '../../../src/cli/format/count-progress.js';

describe('count progress bar (oracle export)', () => {
  it('shows the bar, done of total and the rate', () => {
    expect(renderCount('export', 2_500, 10_000, 2)).toBe(
      'export [#####               ] 25%  2,500 of 10,000 products  1,250/s',
    );
    expect(renderCount('export', 0, 0, 0)).toBe('export [####################] 100%  0 of 0 products  -/s');
  });

  it('redraws at most every 100 ms, always at the end, and erases itself', () => {
    let written = '';
    const stream = { write: (text: string) => ((written += text), true) } as unknown as NodeJS.WritableStream;
    let now = 1_000;
    const bar = createCountProgress(stream, 'export', 3, () => now);
    now += 100;
    bar.update(1);
    now += 50;
    bar.update(2); // too soon: not drawn
    now += 10;
    bar.update(3); // the end: drawn anyway
    bar.clear();
    const draws = written.split('\r\x1b[K').filter((s) => s !== '');
    expect(draws.map((d) => d.match(/(\d) of 3/)![1])).toEqual(['1', '3']);
    expect(written.endsWith('\r\x1b[K')).toBe(true);
  });
});
