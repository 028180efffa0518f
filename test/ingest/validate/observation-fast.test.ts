// @module-tag sqlite-only: record validation: no store
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  cellsRecord,
  observationColumns,
  readObservationCells,
} from '../../../src/ingest/validate/observation-fast.js';
import { ObservationValues } from '../../../src/ingest/validate/observation-values.js';
import { checkObservation, OBSERVATION_FIELDS } from '../../../src/ingest/validate/observation.js';
import { normalizeRecord, type CanonicalRecord } from '../../../src/ingest/validate/record.js';
import { ROOT } from '../../_setup.js';

const COLUMNS = observationColumns(OBSERVATION_FIELDS);

/** What the zod schema makes of the same cells: the values it accepts, or null. */
function bySchema(fields: readonly string[]): ObservationValues | null {
  const values = new ObservationValues();
  return checkObservation(cellsRecord(fields, COLUMNS), values, true) === null ? values : null;
}

function byFastPath(fields: readonly string[]): ObservationValues | null {
  const values = new ObservationValues();
  return readObservationCells(fields, COLUMNS, values) ? values : null;
}

/** A row of cells in OBSERVATION_FIELDS order. */
function row(record: Partial<Record<string, string>>): string[] {
  return OBSERVATION_FIELDS.map((name) => record[name] ?? '');
}

const pad = (value: fc.Arbitrary<string>) =>
  fc
    .tuple(fc.constantFrom('', ' ', '\t', '\u00a0'), value, fc.constantFrom('', ' ', '\r'))
    .map(([a, v, b]) => a + v + b);

/** Per field: typical values, edge cases of each rule, and noise. */
const CELL: Record<string, fc.Arbitrary<string>> = {
  product_key: fc.oneof(
    fc.constantFrom('', 'charizard-4', 'a', 'k'.repeat(200), 'k'.repeat(201), 'a\tb', 'x\u007fy', 'é✓'),
    fc.string(),
  ),
  refsource_id: fc.oneof(
    fc.constantFrom('', '1002', '0', '9'.repeat(20), '9'.repeat(21), '12a', '-1'),
    fc.stringMatching(/^\d{0,22}$/),
  ),
  tcgplayer_id: fc.constantFrom('', '', '', '42', '4x'),
  source: fc.oneof(
    fc.constantFrom('', 'ebay', 'tcg_player-2', 'eBay', 's'.repeat(32), 's'.repeat(33), 'a b'),
    fc.stringMatching(/^[a-z0-9_ -]{0,34}$/),
  ),
  observed_at: fc.oneof(
    fc.constantFrom(
      '',
      '2025-03-01T10:00:00Z',
      '2025-03-01 10:00:00z',
      '2025-03-01T10:00Z',
      '2025-03-01T10:00:00.123456789Z',
      '2025-03-01T10:00:00.1234567890Z',
      '2025-03-01T10:00:00+01:00',
      '2025-03-01T10:00:00-0530',
      '2025-03-01T10:00:00',
      '2025-03-01',
      '2025-02-30T00:00:00Z',
      '2025-13-01T00:00:00Z',
      '2025-03-01T24:00:00Z',
      '2025-03-01T23:60:00Z',
      '+002025-03-01T00:00:00Z',
      'yesterday',
      '2024-02-29T00:00:00Z',
      '2023-02-29T00:00:00Z',
      '2025-03-01T10:00:60Z',
      '2025-03-01T10:00:00-00:00',
      '2025-03-01T10:00:00+24:00',
      '2025-03-01T10:00:00+05',
      '0000-01-01T00:00:00Z',
    ),
    fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
  ),
  price_minor: fc.oneof(
    fc.constantFrom('', '1', '0', '-5', '12.5', '9'.repeat(15), '9'.repeat(16), '007'),
    fc.stringMatching(/^-?\d{0,16}$/),
  ),
  price: fc.oneof(
    fc.constantFrom(
      '',
      '12.50',
      '0.29',
      '0.00',
      '0.01',
      '-5',
      '12.345',
      '1.',
      '.5',
      '9'.repeat(13) + '.99',
      '9'.repeat(14),
      '1e3',
    ),
    fc.stringMatching(/^-?\d{0,14}(\.\d{0,3})?$/),
  ),
  currency: fc.constantFrom('', '', 'USD', 'usd', 'Usd', 'EUR'),
  grader: fc.oneof(
    fc.constantFrom(
      '',
      'ungraded',
      'UNGRADED',
      'psa',
      'PSA',
      'BGS',
      'any',
      'TAG',
      'RAW-LP',
      'raw-dmg',
      'RAW',
      'PSA 10',
      '1PSA',
      'p'.repeat(33),
    ),
    fc.stringMatching(/^[A-Za-z0-9_ -]{0,4}$/),
  ),
  grade: fc.oneof(
    fc.constantFrom('', '', '10', '9.5', '9.25', '1', '0', '10.5', '-1', '07', '9.50', '1000', '9.'),
    fc.stringMatching(/^-?\d{0,4}(\.\d{0,2})?$/),
  ),
  external_id: fc.oneof(
    fc.constantFrom('', 'e-1', 'v1|204512345678|0', 'x'.repeat(200), 'x'.repeat(201), 'a\nb'),
    fc.string(),
  ),
  sales_volume: fc.oneof(
    fc.constantFrom('', '', '0', '1299', '999999999', '1000000000', '-1', '1.5', '1,299'),
    fc.stringMatching(/^-?\d{0,10}$/),
  ),
};

/** Rows that are mostly valid (so the property also covers what is accepted), with any field replaced. */
const VALID: fc.Arbitrary<string[]> = fc
  .record({
    product_key: fc.constantFrom('charizard-4', ''),
    refsource_id: fc.constantFrom('', '1002'),
    source: fc.constantFrom('ebay', 'pricecharting'),
    observed_at: fc.constantFrom('2025-03-01T10:00:00Z', '2025-03-01T11:00:00+01:00'),
    price: fc.constantFrom('350.00', '12.5', '1'),
    grader: fc.constantFrom('', 'PSA', 'ungraded'),
    external_id: fc.constantFrom('', 'e-1'),
    sales_volume: fc.constantFrom('', '', '42'),
  })
  .map((r) => {
    const graded = r.grader === 'PSA';
    return row({
      ...r,
      product_key: r.product_key || (r.refsource_id ? '' : 'charizard-4'),
      grade: graded ? '9' : '',
    });
  });

const MUTATED: fc.Arbitrary<string[]> = fc
  .tuple(
    VALID,
    fc.integer({ min: 0, max: OBSERVATION_FIELDS.length - 1 }),
    fc.constantFrom(...Object.values(CELL)),
  )
  .chain(([cells, at, cell]) => pad(cell).map((value) => cells.map((c, i) => (i === at ? value : c))));

const RANDOM: fc.Arbitrary<string[]> = fc.tuple(
  ...OBSERVATION_FIELDS.map((name) => pad(CELL[name] as fc.Arbitrary<string>)),
);

describe('the fast path of canonical CSV observations', () => {
  it('accepts exactly the rows the zod schema accepts, with the same values', () => {
    fc.assert(
      fc.property(fc.oneof(VALID, MUTATED, RANDOM), (fields) => {
        expect(byFastPath(fields)).toEqual(bySchema(fields));
      }),
      { numRuns: 5_000 },
    );
  });

  it('agrees with the schema on the canonical observations fixture and on the edge cases of each rule', () => {
    const fixture = readFileSync(join(ROOT, 'test/fixtures/canonical/observations.ndjson'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => normalizeRecord(JSON.parse(line) as CanonicalRecord) as Record<string, string>);
    const edges = Object.entries(CELL).flatMap(([name]) =>
      ['', ' x ', '0', '-0', '1', '10', '9.5', 'ungraded', 'PSA'].map((value) => ({
        ...fixture[1],
        [name]: value,
      })),
    );
    const rows = [...fixture, ...edges].map((record) => row(record));
    let accepted = 0;
    for (const fields of rows) {
      const expected = bySchema(fields);
      expect(byFastPath(fields)).toEqual(expected);
      if (expected !== null) accepted += 1;
    }
    expect(accepted).toBeGreaterThan(fixture.length); // both outcomes are covered
    expect(accepted).toBeLessThan(rows.length);
  });

  it('fills the values the insert binds', () => {
    const values = byFastPath(
      row({
        refsource_id: '1002',
        source: 'ebay',
        observed_at: '2025-03-01T11:00:00+01:00',
        price: ' 0.29 ',
        grader: 'bgs',
        grade: '9.5',
        external_id: 'e-1',
      }),
    );
    expect(values).toMatchObject({
      productKey: undefined,
      refsourceId: '1002',
      source: 'ebay',
      observedAt: Date.UTC(2025, 2, 1, 10),
      priceMinor: 29,
      grader: 'BGS',
      grade: 9.5,
      condition: 'bgs9.5',
      externalId: 'e-1',
    });
  });
});
