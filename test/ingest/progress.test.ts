import { describe, expect, it } from 'vitest';
import { createProgressBar, render } from '../../src/ingest/progress.js';

describe('progress bar', () => {
  it('shows records, records per second and bytes read, with a bar when the size is known', () => {
    expect(render({ source: 'a.csv', records: 120_000, bytes: 12e6, totalBytes: 48e6 }, 2)).toBe(
      'a.csv  [#####               ] 25%  120,000 records  60,000/s  12.0 of 48.0 MB',
    );
    expect(render({ source: 'stdin', records: 10, bytes: 2e6, totalBytes: null }, 1)).toBe('stdin  10 records  10/s  2.0 MB read');
  });

  it('redraws at most every 100 ms and erases itself', () => {
    let now = 0;
    const written: string[] = [];
    const bar = createProgressBar({ write: (text: string) => written.push(text) } as unknown as NodeJS.WritableStream, () => now);
    for (now = 100; now < 400; now += 10) bar.update({ source: 's', records: now, bytes: now, totalBytes: null });
    expect(written).toHaveLength(3);
    bar.clear();
    expect(written.at(-1)).toBe('\r\x1b[K');
  });
});
