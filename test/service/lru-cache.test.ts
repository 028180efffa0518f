import { describe, expect, it } from 'vitest';
import { LruCache } from '../../src/service/lru-cache.js';

describe('LruCache', () => {
  it('evicts the least recently used entry, reads of the newest entry included', () => {
    const cache = new LruCache<string, number>(3);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3);
    expect(cache.get('c')).toBe(3);
    expect(cache.get('a')).toBe(1);
    expect(cache.get('a')).toBe(1);
    cache.set('d', 4);
    expect(cache.get('b')).toBeUndefined();
    cache.delete('d');
    expect(cache.get('c')).toBe(3);
    cache.set('e', 5);
    cache.set('f', 6);
    expect([cache.get('a'), cache.get('c'), cache.get('e'), cache.get('f')]).toEqual([undefined, 3, 5, 6]);
    expect(cache.size).toBe(3);
  });
});
