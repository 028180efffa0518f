/**
 * A bounded map that forgets its least recently used entry first. Map keeps insertion order,
 * so re-inserting on read is all the bookkeeping an LRU needs.
 */
export class LruCache<K, V> {
  readonly #entries = new Map<K, V>();
  /** The most recently used key: reading it again needs no reordering (the common case under load). */
  #newest: K | undefined;

  constructor(readonly maxEntries: number) {
    if (!(maxEntries >= 1)) throw new RangeError('maxEntries must be at least 1');
  }

  get size(): number {
    return this.#entries.size;
  }

  get(key: K): V | undefined {
    const value = this.#entries.get(key);
    if (value !== undefined && key !== this.#newest) {
      this.#entries.delete(key);
      this.#entries.set(key, value);
      this.#newest = key;
    }
    return value;
  }

  set(key: K, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    this.#newest = key;
    if (this.#entries.size > this.maxEntries) {
      this.#entries.delete(this.#entries.keys().next().value as K);
    }
  }

  delete(key: K): void {
    this.#entries.delete(key);
    if (key === this.#newest) this.#newest = undefined;
  }

  clear(): void {
    this.#entries.clear();
    this.#newest = undefined;
  }
}
