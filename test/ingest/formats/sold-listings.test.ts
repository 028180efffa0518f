// @module-tag sqlite-only: a format's parser: no store
import { describe, expect, it } from 'vitest';
import { mapSoldListing, MAX_QUANTITY } from '../../../src/ingest/formats/sold-listings.js';
import { RowRejection } from '../../../src/ingest/formats/types.js';

/** A listing as item_sales/search returns it, with the catalog product added. */
function listing(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    product_key: 'pokemon-base-set-charizard-4',
    itemId: 'v1|204512345678|0',
    title: 'Charizard 4/102 Base Set Holo PSA 9 MINT',
    lastSoldDate: '2026-11-20T09:14:05.000Z',
    lastSoldPrice: { value: '2480.00', currency: 'USD' },
    totalSoldQuantity: 1,
    ...fields,
  };
}

const descriptors = (grader: string, grade: string) => [
  { name: 'Professional Grader', values: [{ content: grader }] },
  { name: 'Grade', values: [{ content: grade }] },
];

function rejection(fields: Record<string, unknown> | unknown): string {
  try {
    mapSoldListing(fields);
  } catch (error) {
    expect(error).toBeInstanceOf(RowRejection);
    return (error as Error).message;
  }
  throw new Error('not rejected');
}

describe('mapSoldListing', () => {
  it('maps a listing to one sale in canonical fields, the item id and unit as its external id', () => {
    expect(mapSoldListing(listing())).toEqual([
      {
        source: 'ebay',
        external_id: 'v1|204512345678|0#1',
        product_key: 'pokemon-base-set-charizard-4',
        observed_at: '2026-11-20T09:14:05.000Z',
        price: '2480.00',
        currency: 'USD',
        grader: 'PSA',
        grade: 9,
      },
    ]);
  });

  it('counts a quantity of N as N sales at the last price, with ids that a later read extends', () => {
    const three = mapSoldListing(listing({ totalSoldQuantity: 3 }));
    expect(three.map((s) => s.external_id)).toEqual([
      'v1|204512345678|0#1',
      'v1|204512345678|0#2',
      'v1|204512345678|0#3',
    ]);
    const five = mapSoldListing(listing({ totalSoldQuantity: 5, lastSoldDate: '2026-11-20T13:00:00.000Z' }));
    expect(five.slice(0, 3).map((s) => s.external_id)).toEqual(three.map((s) => s.external_id));
    expect(five.map((s) => s.observed_at)).toEqual(Array(5).fill('2026-11-20T13:00:00.000Z'));
    expect(mapSoldListing(listing({ totalSoldQuantity: undefined }))).toHaveLength(1);
    expect(mapSoldListing(listing({ totalSoldQuantity: '2' }))).toHaveLength(2);
  });

  it.each([0, -1, 1.5, 'many', MAX_QUANTITY + 1])('rejects totalSoldQuantity %j', (quantity) => {
    expect(rejection(listing({ totalSoldQuantity: quantity }))).toMatch(
      /^totalSoldQuantity must be a whole number from 1 to 1000/,
    );
  });

  it('takes grader and grade from condition descriptors, names or ids, before the title', () => {
    const graded = (fields: Record<string, unknown>) => {
      const [sale] = mapSoldListing(listing(fields));
      return `${sale?.grader} ${sale?.grade}`;
    };
    expect(
      graded({
        title: 'Charizard Holo',
        conditionId: '2750',
        conditionDescriptors: descriptors('Professional Sports Authenticator (PSA)', '10'),
      }),
    ).toBe('PSA 10');
    expect(graded({ conditionDescriptors: descriptors('Beckett Grading Services (BGS)', '9.5') })).toBe(
      'BGS 9.5',
    );
    expect(graded({ conditionDescriptors: descriptors('Beckett', '8') })).toBe('BGS 8');
    expect(
      graded({
        conditionDescriptors: [
          { name: '27501', values: [{ content: 'CGC' }] },
          { name: '27502', values: [{ content: '10' }] },
        ],
      }),
    ).toBe('CGC 10');
    expect(graded({ title: 'Charizard Holo PSA 9', conditionId: '2750' })).toBe('PSA 9');
  });

  it('lets the condition id decide graded or ungraded', () => {
    const [raw] = mapSoldListing(listing({ title: 'Charizard PSA 10 GEM MINT', conditionId: '4000' }));
    expect(raw).toMatchObject({ grader: 'ungraded', grade: null });
    expect(rejection(listing({ title: 'Charizard Holo NM', conditionId: '2750' }))).toMatch(
      /^conditionId 2750 says graded, but neither/,
    );
    const [plain] = mapSoldListing(listing({ title: 'Charizard Holo NM', conditionId: '3000' }));
    expect(plain).toMatchObject({ grader: 'ungraded', grade: null });
  });

  it('stores a played raw card under RAW-LP ... : the Card Condition descriptor, else the title', () => {
    const raw = (fields: Record<string, unknown>) => {
      const [sale] = mapSoldListing(listing(fields));
      return `${sale?.grader} ${sale?.grade}`;
    };
    const condition = (content: string, name = 'Card Condition') => [{ name, values: [{ content }] }];
    expect(
      raw({
        title: 'Charizard Holo',
        conditionId: '4000',
        conditionDescriptors: condition('Lightly Played (Excellent)'),
      }),
    ).toBe('RAW-LP null');
    expect(
      raw({
        title: 'Charizard Holo',
        conditionId: '4000',
        conditionDescriptors: condition('Moderately Played (Very Good)'),
      }),
    ).toBe('RAW-MP null');
    expect(raw({ title: 'Charizard Holo', conditionDescriptors: condition('Heavily Played (Poor)') })).toBe(
      'RAW-HP null',
    );
    expect(raw({ title: 'Charizard Holo', conditionDescriptors: condition('400012', '40001') })).toBe(
      'RAW-MP null',
    );
    expect(raw({ title: 'Charizard Holo', conditionDescriptors: condition('Excellent') })).toBe(
      'RAW-LP null',
    );
    expect(
      raw({
        title: 'Charizard Holo - LP',
        conditionId: '4000',
        conditionDescriptors: condition('Near Mint or Better'),
      }),
    ).toBe('ungraded null');
    expect(raw({ title: 'Charizard Holo - LP', conditionId: '4000' })).toBe('RAW-LP null');
    expect(raw({ title: 'Charizard Holo creased' })).toBe('RAW-DMG null');
    expect(raw({ title: 'Charizard Holo PSA 9 creased' })).toBe('PSA 9');
    expect(
      rejection(
        listing({ title: 'Charizard Holo', conditionId: '4000', conditionDescriptors: condition('Mint') }),
      ),
    ).toMatch(/^the Card Condition descriptor "Mint" is none of eBay's ungraded conditions/);
  });

  it('rejects a title that is not one card whatever the condition fields say', () => {
    expect(
      rejection(
        listing({
          title: 'Charizard lot of 3 PSA 10',
          conditionId: '2750',
          conditionDescriptors: descriptors('PSA', '10'),
        }),
      ),
    ).toMatch(/a lot/);
    expect(rejection(listing({ title: 'Charizard PROXY gold metal', conditionId: '4000' }))).toMatch(
      /a proxy/,
    );
    expect(
      rejection(
        listing({
          title: '8x 1996 Pokemon Japanese Charizard No Rarity PSA 1-8',
          conditionDescriptors: descriptors('PSA', '1'),
        }),
      ),
    ).toMatch(/several copies/);
  });

  it.each([
    [
      { lastSoldPrice: { value: '98.00', currency: 'pounds' } },
      /^lastSoldPrice\.currency is "pounds": give the ISO 4217 code/,
    ],
    [{ lastSoldPrice: { value: '98.00' } }, /^lastSoldPrice\.currency is null/],
    [{ lastSoldPrice: undefined }, /^lastSoldPrice is required/],
    [{ itemId: undefined }, /^itemId is required as text/],
    [{ title: '' }, /^title is required as text/],
    [{ lastSoldDate: 1 }, /^lastSoldDate is required as text/],
    [{ lastSoldDate: '2026-11-20 09:14' }, /^lastSoldDate "2026-11-20 09:14" has no time zone/],
    [{ lastSoldDate: '2026-02-30T09:14:05Z' }, /^lastSoldDate "2026-02-30T09:14:05Z" is not a real date/],
    [
      { lastSoldPrice: { value: '12.345', currency: 'USD' } },
      /^lastSoldPrice\.value must be an amount greater than 0 with at most 2 decimals \(got "12\.345"\)/,
    ],
    [
      { lastSoldPrice: { value: '0.00', currency: 'USD' } },
      /^lastSoldPrice\.value must be an amount greater than 0/,
    ],
    [{ product_key: undefined, title: ' ' }, /^title is required as text/],
    [
      { conditionDescriptors: descriptors('PSA', 'Authentic') },
      /the Grade descriptor "Authentic" is no grade from 1 to 10/,
    ],
    [
      { conditionDescriptors: [{ name: 'Grade', values: [{ content: '10' }] }] },
      /give a grade \(10\) but no grader/,
    ],
    [{ conditionDescriptors: 'PSA 10' }, /conditionDescriptors must be an array/],
  ])('rejects %j, naming the field', (fields, reason) => {
    expect(rejection(listing(fields))).toMatch(reason);
  });

  it('refuses a whole search response, telling how to unwrap it', () => {
    expect(rejection({ href: 'https://api.ebay.com/...', itemSales: [listing()], total: 1 })).toMatch(
      /whole item_sales\/search response.*jq -c/,
    );
    expect(rejection([listing()])).toMatch(/must be a JSON object \(got an array\)/);
  });

  it('keeps the title of a listing that names no product, to match its product by', () => {
    const [sale] = mapSoldListing(listing({ product_key: undefined }));
    expect(sale).toMatchObject({
      title: 'Charizard 4/102 Base Set Holo PSA 9 MINT',
      grader: 'PSA',
      grade: 9,
    });
    expect(sale).not.toHaveProperty('product_key');
  });

  it('names the source of another marketplace and takes a refsource_id instead of a product_key', () => {
    const [sale] = mapSoldListing(
      listing({ source: 'mercari', product_key: undefined, refsource_id: 630417 }),
    );
    expect(sale).toMatchObject({ source: 'mercari', refsource_id: '630417' });
    expect(sale).not.toHaveProperty('product_key');
  });
});
