/**
 * The fast input parsers against their definition, the zod schemas: on every input of the
 * table both give the same value, or the same named error with the same message.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { z } from 'zod';
import { inputParser, schemaParser, type InputParser } from '../../src/http/input.js';
import { pricingQuery, productKeyPath, refsourceIdPath, snapshotQuery } from '../../src/http/schemas.js';

type Outcome = { value: unknown } | { error: string; message: string; parameter: unknown };

function outcome(parse: InputParser, input: Record<string, unknown>): Outcome {
  try {
    return { value: parse(input) };
  } catch (error) {
    const e = error as Error & { parameter?: unknown };
    return { error: e.constructor.name, message: e.message, parameter: e.parameter };
  }
}

const INTEGERS = [undefined, '', ' ', '1', '24', '72', '73', '0', '-1', '-0', '+5', ' 5 ', ' 24', '24\n', '024', '24.0', '1.5', '1e1', '0x10', 'abc', '٣', '00012', '9'.repeat(30)];

const TABLE: [string, z.ZodObject, Record<string, unknown>[]][] = [
  [
    'pricing query',
    pricingQuery,
    [
      {},
      { extra: '1' },
      ...INTEGERS.map((raw) => ({ window_hours: raw })),
      ...INTEGERS.map((raw) => ({ outlier_stddevs: raw })),
      { window_hours: ['2', '3'] },
      { window_hours: ['5'] },
      { outlier_stddevs: [] },
      { window_hours: '0', outlier_stddevs: '0' },
      { window_hours: '12', outlier_stddevs: '9' },
    ],
  ],
  [
    'snapshot query',
    snapshotQuery,
    [{}, { date: '2025-01-01' }, { date: ['2025-01-01', '2025-01-02'] }, { date: '' }, { outlier_stddevs: '11' }, { date: 'x', outlier_stddevs: '4' }],
  ],
  ['product key', productKeyPath, [{ product_key: 'base-set-charizard' }, { product_key: 'ポケモン é/x' }, { product_key: '' }, {}, { product_key: 5 }]],
  [
    'refsource id',
    refsourceIdPath,
    [{ refsource_id: '1001' }, { refsource_id: '1'.repeat(20) }, { refsource_id: '1'.repeat(21) }, { refsource_id: '12a' }, { refsource_id: '' }, {}, { refsource_id: 7 }],
  ],
];

describe('fast input parsers', () => {
  afterEach(() => vi.restoreAllMocks());

  it.each(TABLE)('agree with the zod schema of the %s on every input of the table', (_name, schema, inputs) => {
    const fast = inputParser(schema);
    const slow = schemaParser(schema);
    for (const input of inputs) {
      expect(outcome(fast, input), JSON.stringify(input)).toEqual(outcome(slow, input));
    }
  });

  it.each(TABLE)('validate good %s input without a zod parse', (_name, schema, inputs) => {
    const fast = inputParser(schema);
    const good = inputs.filter((input) => 'value' in outcome(schemaParser(schema), input));
    expect(good.length).toBeGreaterThan(0);
    const spy = vi.spyOn(schema, 'safeParse');
    for (const input of good) fast(input);
    expect(spy).not.toHaveBeenCalled();
  });

  it('gives the defaults and the parsed integers as numbers', () => {
    expect(inputParser(pricingQuery)({})).toEqual({ window_hours: 24, outlier_stddevs: 2 });
    expect(inputParser(pricingQuery)({ window_hours: '72', outlier_stddevs: '10', extra: 'x' })).toEqual({ window_hours: 72, outlier_stddevs: 10 });
  });
});
