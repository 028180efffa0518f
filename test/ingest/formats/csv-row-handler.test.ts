// @module-tag sqlite-only: a format's parser: no store
import { describe, expect, it } from 'vitest';
import { MapperBugError } from '../../../src/ingest/errors.js';
import { csvRowHandler } from '../../../src/ingest/formats/csv-row-handler.js';

describe('a mapper that fails', () => {
  it('stops the run with a MapperBugError naming the row, never rejecting the row', () => {
    const rejected: string[] = [];
    const handler = csvRowHandler(
      {
        source: 'prices.csv',
        format: 'tcgplayer',
        kind: undefined,
        observedAt: Date.UTC(2026, 10, 20, 20),
        subtype: undefined,
        now: Date.UTC(2026, 10, 21),
      },
      {
        line: 0,
        observation: () => {
          throw new TypeError("Cannot read properties of undefined (reading 'price')");
        },
        product: () => {},
        skip: () => {},
        rejectUnread: (_line, reason) => rejected.push(reason),
      },
      () => {},
    );
    handler(['productId', 'marketPrice', 'subTypeName'], 1);
    handler(['x', '1.00', 'Normal'], 2); // a bad row is a reject
    expect(rejected).toEqual(['productId must be digits (got "x")']);
    const bug = () => handler(['1', '1.00', 'Normal'], 3);
    expect(bug).toThrow(MapperBugError);
    expect(bug).toThrow(
      /^prices\.csv:3: the tcgplayer format failed on this record \(a bug in oracle, not in the file\): TypeError: Cannot read/,
    );
    expect(rejected).toHaveLength(1);
  });
});
