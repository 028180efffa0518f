// @module-tag sqlite-only: V8's heap in an ingest child process: memory of the parser, not the store
/**
 * Issue 24 item 8: a catalog ingest's memory does not grow with the catalog. What grew was V8's
 * heap (bench/findings.md, 6b): the old generation, as records were promoted at young
 * collections (objects built by spread, allocation-site pretenuring), and the young
 * generation, as V8 grew it to its maximum. A real `oracle ingest` of 40,000 products in a
 * child process, with V8's own line for each young collection (--trace-gc-nvp): once the run
 * is under way nothing is promoted, and no collection finds more allocated than the capped
 * young generation holds. Before the fixes: 240-900 kB promoted at each, and 14-15 MB
 * allocated between two. The peak RSS itself is the benchmark's (`npm run bench -- --only
 * catalog-memory`).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { YOUNG_GENERATION_CAP_BYTES } from '../../src/cli/ingest-heap.js';
import { BIN, runCommand, tempDir } from '../_setup.js';

const PRODUCTS = 40_000;

/** The figures of V8's trace line of one young-generation collection (`gc=s`). */
function youngCollections(trace: string): { promoted: number; allocated: number }[] {
  return trace
    .split('\n')
    .filter((line) => / gc=s /.test(line))
    .map((line) => {
      const field = (name: string) => Number(new RegExp(` ${name}=(\\d+)`).exec(line)?.[1]);
      return { promoted: field('promoted'), allocated: field('allocated') };
    });
}

describe('catalog ingest memory', () => {
  it('promotes nothing once under way and keeps the young generation at its cap', async () => {
    const dir = tempDir('catalog-memory-');
    const csv = join(dir, 'catalog.csv');
    const rows = ['product_key,refsource_id,product_name,set_name,subtitle,era,release_date'];
    for (let i = 0; i < PRODUCTS; i += 1)
      rows.push(
        `card-${i},${100_000 + i},Card Name Number ${i},Some Set ${i % 300},${i}/999,modern,2020-01-01`,
      );
    writeFileSync(csv, `${rows.join('\n')}\n`);

    const result = await runCommand(process.execPath, [
      '--trace-gc-nvp',
      BIN,
      '--db',
      join(dir, 'o.db'),
      'ingest',
      csv,
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`read 40,000, inserted 40,000`);

    // The first half holds start-up (loading the bundle promotes what it keeps).
    const collections = youngCollections(result.stdout);
    const underWay = collections.slice(Math.floor(collections.length / 2));
    expect(underWay.length).toBeGreaterThanOrEqual(5);
    const promoted = underWay.reduce((sum, c) => sum + c.promoted, 0);
    expect(promoted).toBeLessThan(256 * 1024);
    const mostAllocated = Math.max(...underWay.map((c) => c.allocated));
    expect(mostAllocated).toBeLessThanOrEqual((YOUNG_GENERATION_CAP_BYTES / 2) * 1.25);
  }, 60_000);
});
