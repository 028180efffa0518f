// @module-tag sqlite-only: a SQLite file changed and replaced under the server's store
/**
 * The server's store over a SQLite file: its data version moves when another connection
 * writes and when the file is replaced, and keys' last-used times go only into the file the
 * reads came from. The file changed under a running server, end to end: http/database-file.test.ts.
 */
import { copyFileSync, renameSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open-store.js';
import { createWatchedStore } from '../../src/store/watched-store.js';
import { databaseWith, tempDir, testProduct } from '../_setup.js';
import { writeProducts } from '../_store.js';

const NOW = Date.UTC(2026, 10, 20, 12);
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
/** A product of its own key and refsource id. */
const product = (productKey: string, refsourceId: string) => testProduct({ productKey, refsourceId });

/** The key ids of the file at `path` with their last-used times, read by a connection of its own. */
async function lastUsed(path: string) {
  const store = await openStore(path);
  try {
    return (await store.apiKeys.list()).map((k) => [k.id, k.lastUsedAt]);
  } finally {
    await store.close();
  }
}

describe('the watched store', () => {
  it('keeps its data version within a turn, and moves it on the next turn after another connection wrote', async () => {
    const path = await databaseWith([product('a', '1')], []);
    const watched = createWatchedStore(path, { fileCheckIntervalMs: 0 });
    try {
      expect(await watched.products.count()).toBe(1);
      const version = watched.dataVersion();
      const writer = await openStore(path);
      await writeProducts(writer, [product('b', '2')]);
      await writer.close();
      expect(watched.dataVersion()).toBe(version); // the same turn
      await nextTurn();
      expect(watched.dataVersion()).not.toBe(version);
      expect(await watched.products.count()).toBe(2);
    } finally {
      await watched.close();
    }
  });

  it('reads a file moved over its own, under a new data version', async () => {
    const path = await databaseWith([product('a', '1')], []);
    const rebuilt = await databaseWith([product('x', '1'), product('y', '2')], []);
    const watched = createWatchedStore(path, { fileCheckIntervalMs: 0 });
    try {
      expect(await watched.products.count()).toBe(1);
      const version = watched.dataVersion();
      renameSync(rebuilt, path);
      await nextTurn();
      expect(watched.dataVersion()).not.toBe(version);
      expect(await watched.products.count()).toBe(2);
    } finally {
      await watched.close();
    }
  });

  it('writes last-used times into the file its reads came from, after close too, and into no other file', async () => {
    const path = await databaseWith([testProduct()], []);
    const seed = await openStore(path);
    await seed.apiKeys.create('key_a', 'a', 'hash-a', NOW);
    await seed.close();
    const watched = createWatchedStore(path, { fileCheckIntervalMs: 0 });
    await watched.apiKeys.findByHash('hash-a'); // the reads open the file
    await watched.close();
    await watched.apiKeys.touch([['key_a', NOW + 1]]);
    expect(await lastUsed(path)).toEqual([['key_a', NOW + 1]]);

    // Another file at the path now: the write is dropped rather than put into a file the reads never saw.
    const other = `${tempDir()}/other.db`;
    copyFileSync(path, other);
    renameSync(other, path);
    await watched.apiKeys.touch([['key_a', NOW + 2]]);
    expect(await lastUsed(path)).toEqual([['key_a', NOW + 1]]);
  });
});
