/**
 * One day of generated observations in parallel columns, reused from day to day so that
 * memory stays proportional to one day's rows, and writers can encode without an object per row.
 */

/**
 * One day of observations in columns. `order` lists row indexes by time (ties in insertion
 * order) and only its first `size` entries are rows to read; prices are whole cents; `ebayId`
 * is the numeric part of a sale's external id (0 for quotes).
 */
export interface ObservationDay {
  size: number;
  order: Float64Array;
  product: Int32Array;
  condition: Uint8Array;
  source: Uint8Array;
  at: Float64Array;
  price: Float64Array;
  ebayId: Float64Array;
}

/** The day's rows, in parallel arrays that grow as needed. */
export class DayBuffer implements ObservationDay {
  size = 0;
  order = new Float64Array(1024);
  product = new Int32Array(1024);
  condition = new Uint8Array(1024);
  source = new Uint8Array(1024);
  at = new Float64Array(1024);
  price = new Float64Array(1024);
  ebayId = new Float64Array(1024);

  push(product: number, condition: number, source: number, at: number, price: number): void {
    if (this.size === this.product.length) this.grow();
    const i = this.size++;
    this.product[i] = product;
    this.condition[i] = condition;
    this.source[i] = source;
    this.at[i] = at;
    this.price[i] = price;
  }

  /** Sorts `order` by time; the key packs the second of the day and the row index. */
  sort(dayStart: number): void {
    if (this.size >= 2 ** 24)
      throw new RangeError('more than 16.7 million observations in one day: use more --days');
    const keys = this.order.subarray(0, this.size);
    for (let i = 0; i < this.size; i++) keys[i] = Math.floor((this.at[i]! - dayStart) / 1000) * 2 ** 24 + i;
    keys.sort();
    for (let i = 0; i < this.size; i++) keys[i] = keys[i]! % 2 ** 24;
  }

  private grow(): void {
    const n = this.product.length * 2;
    const grown = <T extends Int32Array | Uint8Array | Float64Array>(a: T, b: T): T => {
      b.set(a);
      return b;
    };
    this.product = grown(this.product, new Int32Array(n));
    this.condition = grown(this.condition, new Uint8Array(n));
    this.source = grown(this.source, new Uint8Array(n));
    this.at = grown(this.at, new Float64Array(n));
    this.price = grown(this.price, new Float64Array(n));
    this.order = new Float64Array(n);
    this.ebayId = new Float64Array(n);
  }
}
