// @module-tag sqlite-only: a progress line: no store
import { describe, expect, it } from 'vitest';
import { createProgressBar, render } from '../../../src/cli/format/ingest-progress.js';

/** What a terminal of `columns` columns gets written by a bar, one string per write. */
function drawOn(columns: number | undefined) {
  let now = 0;
  const written: string[] = [];
  const stream = { columns, write: (text: string) => written.push(text) } as unknown as NodeJS.WritableStream;
  const bar = createProgressBar(stream, () => now);
  return {
    written,
    draw(progress: Parameters<typeof render>[0]) {
      now += 1_000;
      bar.update(progress);
    },
  };
}

const LONG_NAME =
  'https://feeds.example.com/exports/pricecharting/pokemon-cards/2026-11-23/full-price-guide-with-every-printing.csv.gz';
const BIG = { records: 1_234_567_890, bytes: 987_654_321_000, totalBytes: 1_987_654_321_000 };

describe('progress bar', () => {
  it('shows records, records per second and bytes read, with a bar when the size is known', () => {
    expect(render({ source: 'a.csv', records: 120_000, bytes: 12e6, totalBytes: 48e6 }, 2)).toBe(
      'a.csv  [###       ]  25%  120,000 records  60,000/s  12.0 of 48.0 MB',
    );
    expect(render({ source: 'stdin', records: 10, bytes: 2e6, totalBytes: null }, 1)).toBe(
      'stdin  10 records  10/s  2.0 MB read',
    );
  });

  it('says something true of a small file: bytes in its unit, no rate before one is known', () => {
    expect(render({ source: 'catalog.csv', records: 0, bytes: 0, totalBytes: 4_012 }, 0, 99)).toBe(
      'catalog.csv  [          ]   0%  0 records  -/s  0.0 of 4.0 kB',
    );
    expect(render({ source: 'catalog.csv', records: 55, bytes: 4_012, totalBytes: 4_012 }, 0.1, 99)).toBe(
      'catalog.csv  [##########] 100%  55 records  -/s  4.0 of 4.0 kB',
    );
    expect(render({ source: 'tiny.csv', records: 3, bytes: 200, totalBytes: 812 }, 1, 99)).toBe(
      'tiny.csv  [##        ]  24%  3 records  3/s  200 of 812 B',
    );
  });

  it.each([80, 60, 40])('keeps one layout from the first frame to the last in %i columns', (columns) => {
    const source = 'data/observations.csv.gz';
    const frames = [0, 1_000, 103_094, 263_091, 12_345_678].map((records, i) =>
      render(
        { source, records, bytes: Math.min(records * 16, 4.2e6), totalBytes: 4.2e6 },
        i * 1.5,
        columns - 1,
      ),
    );
    const shape = (line: string) =>
      line
        .replace(/\[[# ]*\]/, '[bar]')
        .replace(/ +/g, ' ')
        .replace(/\d[\d,.]*|-(?=\/s)/g, 'N');
    expect(new Set(frames.map(shape)).size, frames.join('\n')).toBe(1);
    for (const line of frames) expect(line.length).toBeLessThanOrEqual(columns - 1);
  });

  it('redraws at most every 100 ms and erases itself', () => {
    let now = 0;
    const written: string[] = [];
    const bar = createProgressBar(
      { write: (text: string) => written.push(text) } as unknown as NodeJS.WritableStream,
      () => now,
    );
    for (now = 100; now < 400; now += 10)
      bar.update({ source: 's', records: now, bytes: now, totalBytes: null });
    expect(written).toHaveLength(3);
    bar.clear();
    expect(written.at(-1)).toBe('\r\x1b[K');
  });

  it.each([80, 40, undefined])(
    'never reaches the last column of a %s-column terminal (80 when unknown), whatever the name and numbers',
    (columns) => {
      const terminal = drawOn(columns);
      for (const source of [LONG_NAME, 'a.csv', 'x'.repeat(79), 'stdin']) {
        for (const sizes of [BIG, { ...BIG, totalBytes: null }, { records: 7, bytes: 1, totalBytes: 2 }])
          terminal.draw({ source, ...sizes });
      }
      const lines = terminal.written.map((text) => text.replace('\r\x1b[K', ''));
      expect(lines).toHaveLength(12);
      for (const line of lines) {
        expect(line.length).toBeLessThanOrEqual((columns ?? 80) - 1);
        expect(line).toMatch(/ \d[\d,]* records/); // the count is never the part dropped
      }
    },
  );

  it('shows the end of a long source name, and drops the bytes, then the rate, then the bar when narrow', () => {
    const wide = render({ source: LONG_NAME, ...BIG }, 10, 79);
    expect(wide.length).toBeLessThanOrEqual(79);
    expect(wide).toMatch(
      /^\.\.\.\S*\.csv\.gz {2}\[#{5} {5}\] {2}49% {2}1,234,567,890 records {2}123,456,789\/s$/,
    );
    expect(render({ source: LONG_NAME, ...BIG }, 10, 39)).toBe('...inting.csv.gz  1,234,567,890 records');
    expect(render({ source: 'a.csv', records: 120_000, bytes: 12e6, totalBytes: 48e6 }, 2, 50)).toBe(
      'a.csv  [###       ]  25%  120,000 records',
    );
  });
});
