// @module-tag sqlite-only: gzip's verdict on a source, before the store
/**
 * A damaged or unusable gzip source ends as a fault of that source (issue 24, 4): whatever
 * the position of the damage, and whichever stage stops reading first (the text decoder, the
 * CSV parser, the format detection), gzip's verdict is reached and the run settles.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { InputError } from '../../src/domain/errors.js';
import { GzipCorruptError } from '../../src/ingest/errors.js';
import { ingestSource, type IngestOptions } from '../../src/ingest/pipeline.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/store.js';
import { runOracle } from '../_cli.js';
import { tempDir } from '../_setup.js';

const ROWS = 2_000;
const GZIP_HEADER = 10; // magic, method, flags, mtime, xfl, os: mtime, xfl and os are not checked by gzip

let dir: string;
let store: Store;
let text: string;
let gz: Buffer;

const options = (): IngestOptions => ({ maxRejects: 0, clock: Date.now, stdin: Readable.from([]) });

function file(name: string, content: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

beforeAll(async () => {
  dir = tempDir();
  store = await openStore(join(dir, 'o.db'), { create: true });
  await ingestSource(store, file('catalog.csv', 'product_key,product_name\nk,K\n'), options());
  const lines = ['product_key,source,observed_at,price_minor,external_id'];
  for (let i = 0; i < ROWS; i += 1)
    lines.push(
      `k,ebay,${new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString()},${1000 + (i % 977)},e-${i}`,
    );
  text = `${lines.join('\n')}\n`;
  gz = gzipSync(text);
  return () => store.close();
});

describe('a gzip source damaged anywhere', () => {
  it('is a GzipCorruptError naming the file, with nothing committed, at each of 28 positions', async () => {
    const positions = [
      2,
      3,
      ...Array.from({ length: 24 }, (_, i) => GZIP_HEADER + Math.floor(((gz.length - GZIP_HEADER) * i) / 24)),
      gz.length - 8,
      gz.length - 1,
    ];
    for (const at of positions) {
      const damaged = Buffer.from(gz);
      damaged[at] = (damaged[at] as number) ^ 0xff;
      const path = file(`at-${at}.csv.gz`, damaged);
      const result = await ingestSource(store, path, options());
      expect(result.failure, `byte ${at}`).toBeInstanceOf(GzipCorruptError);
      expect(result.failure?.message).toMatch(
        new RegExp(`^${path}: the gzip data is corrupt \\(.+\\): nothing from this source was committed$`),
      );
      expect(result.counts.inserted).toBe(0);
    }
  });

  it('settles when the CSV parser stops at a bad line while the rest of the gzip is still unread', async () => {
    const lines = text.split('\n');
    lines[11] = 'k,"ebay"x,2025-01-01T00:00:00Z,1000,bad';
    const result = await ingestSource(store, file('bad-line.csv.gz', gzipSync(lines.join('\n'))), options());
    expect(result.failure).toBeInstanceOf(InputError);
    expect(result.failure?.message).toMatch(
      /bad-line\.csv\.gz:12: unexpected character after a closing quote/,
    );
  });
});

describe('a gzip source whose content names no format', () => {
  it('exits 2 with the message of the same file uncompressed', async () => {
    const content = 'foo,bar\n1,2\n';
    const plain = await runOracle(['--db', join(dir, 'o.db'), 'ingest', file('unknown.csv', content)]);
    const gzipped = await runOracle([
      '--db',
      join(dir, 'o.db'),
      'ingest',
      file('unknown.csv.gz', gzipSync(content)),
    ]);
    expect(plain.code).toBe(2);
    expect(gzipped.code).toBe(2);
    expect(gzipped.stderr).toBe(plain.stderr.replace('unknown.csv', 'unknown.csv.gz'));
    expect(gzipped.stderr).toMatch(/unknown\.csv\.gz:1: cannot tell the record kind from the header/);
  });
});
