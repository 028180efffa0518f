// @module-tag sqlite-only: a view's layout: no store
/** The catalog table fitted to a terminal's width: what gives way first, and the variant cell. */
import { describe, expect, it } from 'vitest';
import type { CatalogEntry } from '../../../src/domain/product.js';
import { renderCatalogTable } from '../../../src/cli/format/catalog-table.js';
import { variantCell } from '../../../src/cli/format/identity.js';

const entry = (over: Partial<CatalogEntry>): CatalogEntry => ({
  product_key: 'pokemon-base-set-alakazam-1',
  refsource_id: '630414',
  product_name: 'Alakazam',
  subtitle: '001/102 Holo Rare',
  set_name: 'Base Set',
  product_type: 'single_card',
  era: 'vintage',
  earliest_observation: '2025-10-20',
  tcgplayer_id: '42346',
  printing: null,
  language: null,
  observation_count: 1,
  ...over,
});

const ENTRIES = [
  entry({}),
  entry({
    product_key: 'pokemon-base-set-1st-edition-alakazam-1',
    refsource_id: null,
    printing: '1st Edition Holofoil',
    earliest_observation: null,
    observation_count: 0,
  }),
  entry({
    product_key: 'japanese-sv2a-565243',
    refsource_id: null,
    product_name: 'Product 565243',
    subtitle: '',
    set_name: 'SV2a: Pokemon Card 151',
    tcgplayer_id: '565243',
    printing: 'Normal',
    language: 'Japanese',
  }),
];

describe('the catalog table', () => {
  it.each([80, 100, 130, 160])('fits %i columns, the key and the ids whole', (width) => {
    const lines = renderCatalogTable(ENTRIES, width).trimEnd().split('\n');
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(width);
    for (const e of ENTRIES)
      expect(lines.some((l) => l.startsWith(`${e.product_key} `) && l.includes(` ${e.tcgplayer_id} `))).toBe(
        true,
      );
  });

  it('never cuts a key: at 60 columns the ids give way and the key is whole on its line', () => {
    const table = renderCatalogTable(ENTRIES, 60);
    expect(table).toMatch(/^pokemon-base-set-1st-edition-alakazam-1 +1st Ed Holo +0$/m);
    for (const line of table.split('\n')) expect(line.length, line).toBeLessThanOrEqual(60);
  });

  it('wraps a key wider than the table leaves it after a hyphen, and cuts nothing under --wide (Infinity)', () => {
    const long = entry({
      product_key: 'pokemon-sword-and-shield-brilliant-stars-trainer-gallery-charizard-tg03',
    });
    const table = renderCatalogTable([long], 40);
    for (const line of table.split('\n')) expect(line.length, line).toBeLessThanOrEqual(40);
    // Stacked: the key on lines of its own (broken after a hyphen, being wider than 40), the rest indented under it.
    expect(
      table
        .split('\n')
        .filter((l) => !l.startsWith(' '))
        .join(''),
    ).toContain(`product key${long.product_key}`);
    expect(table).toMatch(/^ {2}name +.* obs$/m);
    const wide = renderCatalogTable(ENTRIES, Infinity);
    expect(wide).not.toContain('…');
    expect(wide).toContain('Alakazam 001/102 Holo Rare');
  });

  it('gives up the set, then the name, before it cuts a key; shows them all when there is room', () => {
    expect(renderCatalogTable(ENTRIES, 80).split('\n')[0]).toMatch(
      /^product key +variant +tcg id +ref id +obs$/,
    );
    expect(renderCatalogTable(ENTRIES, 100).split('\n')[0]).toMatch(
      /^product key +name +set +variant +tcg id +ref id +obs$/,
    );
    expect(renderCatalogTable(ENTRIES, 160)).toContain(
      'pokemon-base-set-1st-edition-alakazam-1  Alakazam 001/102 Holo Rare  Base Set                1st Ed Holo   42346       -  -             0',
    );
  });

  it('leaves out the variant and id columns when no product listed has one', () => {
    const plain = ENTRIES.map((e) => ({ ...e, printing: null, language: null, tcgplayer_id: null }));
    expect(renderCatalogTable(plain, 120).split('\n')[0]).toMatch(
      /^product key +name +set +ref id +earliest +obs$/,
    );
  });

  it.each([
    [null, null, ''],
    ['1st Edition Holofoil', null, '1st Ed Holo'],
    ['Reverse Holofoil', null, 'Rev Holo'],
    ['Unlimited Holofoil', null, 'Unl Holo'],
    ['Foil', null, 'Foil'],
    ['Normal', 'Japanese', 'Normal JP'],
    [null, 'Japanese', 'JP'],
    [null, 'Klingon', 'Klingon'],
  ])('writes printing %s, language %s as %j', (printing, language, cell) => {
    expect(variantCell(printing, language)).toBe(cell);
  });
});
