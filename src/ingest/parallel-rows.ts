/**
 * Resolved observations in a compact, cheap-to-send form, for the parse worker to hand rows
 * to the writing thread: numbers in one Float64Array (transferred, not copied), the few
 * distinct condition, source and grader strings as dictionary codes sent once, and the
 * external ids as one array. Structured clone of thousands of small objects would cost
 * about as much as the parsing it moves off the writing thread.
 */
import type { ObservationValues } from './validate/observation-values.js';

/** One batch of rows as posted between threads. */
export interface PackedRows {
  count: number;
  /** FIELDS numbers per row: product id, observed_at, price_minor, grade (NaN: none), condition, source and grader codes, sales_volume (NaN: none), currency code. */
  numbers: Float64Array;
  /** Dictionary strings new in this batch; their codes follow the ones sent before. */
  strings: string[];
  /** External id per row ('' when none). */
  externalIds: string[];
}

const FIELDS = 9;

/** The sending side: collects rows until `take`. */
export class RowPacker {
  private readonly codes = new Map<string, number>();
  private fresh: string[] = [];
  private numbers = new Float64Array(1024 * FIELDS);
  private externalIds: string[] = [];
  private count = 0;

  add(productId: number, v: ObservationValues): void {
    if ((this.count + 1) * FIELDS > this.numbers.length) {
      const grown = new Float64Array(this.numbers.length * 2);
      grown.set(this.numbers);
      this.numbers = grown;
    }
    const n = this.numbers;
    const at = this.count * FIELDS;
    n[at] = productId;
    n[at + 1] = v.observedAt;
    n[at + 2] = v.priceMinor;
    n[at + 3] = v.grade ?? Number.NaN;
    n[at + 4] = this.code(v.condition);
    n[at + 5] = this.code(v.source);
    n[at + 6] = this.code(v.grader);
    n[at + 7] = v.salesVolume ?? Number.NaN;
    n[at + 8] = this.code(v.currency);
    this.externalIds.push(v.externalId);
    this.count += 1;
  }

  /** The rows added since the last take (the numbers' buffer can be transferred). */
  take(): PackedRows {
    const packed: PackedRows = {
      count: this.count,
      numbers: this.numbers.slice(0, this.count * FIELDS),
      strings: this.fresh,
      externalIds: this.externalIds,
    };
    this.fresh = [];
    this.externalIds = [];
    this.count = 0;
    return packed;
  }

  private code(text: string): number {
    let code = this.codes.get(text);
    if (code === undefined) {
      code = this.codes.size;
      this.codes.set(text, code);
      this.fresh.push(text);
    }
    return code;
  }
}

/** The receiving side: keeps the dictionary across batches. */
export class RowUnpacker {
  private readonly dictionary: string[] = [];

  /** Calls `row` for each row of `packed`, with `values` refilled (its product reference is left unset). */
  unpack(
    packed: PackedRows,
    values: ObservationValues,
    row: (productId: number, values: ObservationValues) => void,
  ): void {
    for (const text of packed.strings) this.dictionary.push(text);
    const n = packed.numbers;
    const dictionary = this.dictionary;
    for (let i = 0, at = 0; i < packed.count; i += 1, at += FIELDS) {
      const grade = n[at + 3] as number;
      values.observedAt = n[at + 1] as number;
      values.priceMinor = n[at + 2] as number;
      values.grade = Number.isNaN(grade) ? null : grade;
      values.condition = dictionary[n[at + 4] as number] as string;
      values.source = dictionary[n[at + 5] as number] as string;
      values.grader = dictionary[n[at + 6] as number] as string;
      values.externalId = packed.externalIds[i] as string;
      const volume = n[at + 7] as number;
      values.salesVolume = Number.isNaN(volume) ? null : volume;
      values.currency = dictionary[n[at + 8] as number] as string;
      values.amountMinor = null;
      row(n[at] as number, values);
    }
  }
}
