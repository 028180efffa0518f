// @module-tag sqlite-only: record validation: no store
import { describe, expect, it } from 'vitest';
import { catalogRecordSchema } from '../../../src/ingest/validate/catalog.js';
import { ObservationValues } from '../../../src/ingest/validate/observation-values.js';
import { checkObservation, observationRecordSchema } from '../../../src/ingest/validate/observation.js';
import { normalizeRecord, rejectReason, type CanonicalRecord } from '../../../src/ingest/validate/record.js';

const good = {
  product_key: 'charizard',
  source: 'ebay',
  observed_at: '2025-03-01T12:00:00Z',
  price: '12.50',
};

function reason(
  record: CanonicalRecord,
  schema: typeof observationRecordSchema | typeof catalogRecordSchema = observationRecordSchema,
) {
  const result = schema.safeParse(normalizeRecord(record));
  return result.success ? null : rejectReason(result.error);
}

describe('observation records', () => {
  it.each<[string, CanonicalRecord, RegExp]>([
    ['no product', { ...good, product_key: '' }, /names no product: give product_key or refsource_id/],
    [
      'a refsource_id that is not digits',
      { ...good, product_key: undefined, refsource_id: '12a' },
      /refsource_id must be digits \(got "12a"\)/,
    ],
    [
      'a bad source id',
      { ...good, source: 'eBay!' },
      /source must be 1 to 32 characters of a-z, 0-9, _ and - \(got "eBay!"\)/,
    ],
    ['a missing source', { ...good, source: undefined }, /source is required/],
    [
      'observed_at without a zone',
      { ...good, observed_at: '2025-03-01T12:00:00' },
      /has no time zone: add Z or an offset/,
    ],
    ['a date without time or zone', { ...good, observed_at: '2025-03-01' }, /has no time zone/],
    [
      'observed_at that is no date',
      { ...good, observed_at: 'yesterday' },
      /observed_at must be an ISO-8601 date-time with Z or an offset/,
    ],
    [
      'observed_at on a day that does not exist',
      { ...good, observed_at: '2026-02-30T10:00:00Z' },
      /^observed_at "2026-02-30T10:00:00Z" is not a real date: February 2026 has 28 days$/,
    ],
    [
      'observed_at at hour 24',
      { ...good, observed_at: '2026-03-01T24:00:00Z' },
      /^observed_at "2026-03-01T24:00:00Z" is not a real time: there is no hour 24/,
    ],
    [
      'price with more than 2 decimals',
      { ...good, price: '12.345' },
      /price must be an amount with at most 2 decimals \(US dollars unless currency says otherwise\) \(got "12.345"\)/,
    ],
    ['price of 0', { ...good, price: '0.00' }, /price must be greater than 0/],
    ['negative price', { ...good, price: '-5' }, /price must be greater than 0/],
    [
      'non-integer price_minor',
      { ...good, price: undefined, price_minor: 12.5 },
      /price_minor must be a whole number of the currency.s minor units \(US cents\) \(got "12.5"\)/,
    ],
    [
      'price_minor of 0',
      { ...good, price: undefined, price_minor: '0' },
      /price_minor must be greater than 0/,
    ],
    ['both price fields', { ...good, price_minor: '1250' }, /give price_minor or price, not both/],
    ['neither price field', { ...good, price: undefined }, /has no price: give price_minor/],
    [
      'a currency that is no ISO 4217 code',
      { ...good, currency: 'euro' },
      /currency must be an ISO 4217 code/,
    ],
    [
      'an unknown grader form',
      { ...good, grader: 'PSA 10', grade: '10' },
      /grader must be ungraded or a grader name/,
    ],
    [
      'a grade above 10',
      { ...good, grader: 'PSA', grade: '10.5' },
      /grade must be 1 to 10 in steps of 0.5 \(got 10.5\)/,
    ],
    ['a grade below 1', { ...good, grader: 'PSA', grade: '0' }, /grade must be 1 to 10 in steps of 0.5/],
    [
      'a grade that is not a half',
      { ...good, grader: 'BGS', grade: '9.25' },
      /grade must be 1 to 10 in steps of 0.5/,
    ],
    ['a grade without a grader', { ...good, grade: '9' }, /grade 9 needs a grader/],
    [
      'an ungraded record with a grade',
      { ...good, grader: 'ungraded', grade: '9' },
      /grade 9 needs a grader/,
    ],
    ['a grader without a grade', { ...good, grader: 'PSA' }, /grader PSA needs a grade/],
    [
      'a played raw card with a grade',
      { ...good, grader: 'RAW-LP', grade: '9' },
      /grader RAW-LP is a raw card's played condition: give no grade \(got 9\)/,
    ],
    ['an unknown field', { ...good, obseved_at: 'x' }, /unknown field "obseved_at"/],
    [
      'a value that is neither text nor number',
      { ...good, price: true },
      /price must be text or a number \(got true\)/,
    ],
    [
      'a product_key over 200 characters',
      { ...good, product_key: 'k'.repeat(201) },
      /product_key must be 1 to 200 characters/,
    ],
  ])('rejects %s with a specific reason', (_name, record, expected) => {
    expect(reason(record)).toMatch(expected);
  });

  it.each<[string, CanonicalRecord, object]>([
    [
      'a dollar price in cents',
      { ...good, price: '0.29' },
      { priceMinor: 29, grader: 'ungraded', grade: null },
    ],
    [
      'JSON numbers and an offset',
      { ...good, price: undefined, price_minor: 1999, observed_at: '2025-03-01T14:00:00+02:00' },
      { priceMinor: 1999, observedAt: Date.UTC(2025, 2, 1, 12) },
    ],
    [
      'grader case and halves',
      { ...good, grader: 'bgs', grade: '9.5', currency: 'usd' },
      { grader: 'BGS', grade: 9.5 },
    ],
    ['the pooled grader', { ...good, grader: 'any', grade: 9 }, { grader: 'ANY', grade: 9 }],
    ['empty grader as ungraded', { ...good, grader: '', grade: '' }, { grader: 'ungraded', grade: null }],
    [
      'a played raw card, outside the ungraded price',
      { ...good, grader: 'raw-lp' },
      { grader: 'RAW-LP', grade: null, condition: 'raw-lp' },
    ],
    [
      'a damaged raw card',
      { ...good, grader: 'RAW-DMG', grade: '' },
      { grader: 'RAW-DMG', grade: null, condition: 'raw-dmg' },
    ],
    ['an external id', { ...good, external_id: ' 123-abc ' }, { externalId: '123-abc' }],
  ])('accepts %s', (_name, record, expected) => {
    const values = new ObservationValues();
    expect(checkObservation(record, values)).toBeNull();
    expect(values).toMatchObject(expected);
  });
});

describe('catalog records', () => {
  const product = { product_key: 'charizard', product_name: 'Charizard #4' };
  it.each<[string, CanonicalRecord, RegExp]>([
    ['a missing product_key', { product_name: 'x' }, /product_key is required/],
    [
      'a product_key with a control character',
      { ...product, product_key: 'a\tb' },
      /product_key must be 1 to 200 characters without control characters/,
    ],
    ['a missing product_name', { product_key: 'x' }, /product_name is required/],
    [
      'an unknown product_type',
      { ...product, product_type: 'deck' },
      /product_type must be single_card or booster_box/,
    ],
    ['an unknown era', { ...product, era: 'golden' }, /era must be modern or vintage/],
    [
      'a release_date that is not a date',
      { ...product, release_date: '2024-02-30' },
      /release_date "2024-02-30" is not a real date: February 2024 has 29 days/,
    ],
    ['a refsource_id that is not digits', { ...product, refsource_id: 'x1' }, /refsource_id must be digits/],
  ])('rejects %s', (_name, record, expected) => {
    expect(reason(record, catalogRecordSchema)).toMatch(expected);
  });
});
