// @module-tag sqlite-only: title matching: no store
/**
 * The title matcher's pure parts on titles of the real fixture (test/fixtures/sold-listings)
 * and hand-made products with the near misses that make a wrong match possible: other
 * printings, the same number in another set, the Japanese print of the same card.
 */
import { describe, expect, it } from 'vitest';
import { matchTitle, type NamedProducts } from '../../../src/ingest/validate/title-matcher.js';
import {
  agreement,
  nameWords,
  productNumber,
  setWords,
  titleSignals,
  tokens,
} from '../../../src/ingest/validate/title-signals.js';
import type { StoredProduct } from '../../../src/store/store.js';

function product(
  productKey: string,
  productName: string,
  subtitle: string,
  setName: string,
  extra: Partial<StoredProduct> = {},
): StoredProduct {
  return {
    id: 0,
    productKey,
    refsourceId: null,
    productName,
    subtitle,
    setName,
    imageUrl: '',
    productType: 'single_card',
    era: 'vintage',
    releaseDate: null,
    tcgplayerId: null,
    printing: null,
    language: null,
    ...extra,
  };
}

const CATALOG: StoredProduct[] = [
  product('base-charizard', 'Charizard', '4/102 · Holo Rare', 'Base Set'),
  product('base-charizard-1st', 'Charizard', '4/102 · Holo Rare', 'Base Set', { printing: '1st Edition' }),
  product('base-charizard-shadowless', 'Charizard', '4/102 · Holo Rare', 'Base Set (Shadowless)', {
    printing: 'Shadowless',
  }),
  product('base2-charizard', 'Charizard', '4/130 · Holo Rare', 'Base Set 2'),
  product('rocket-dark-charizard', 'Dark Charizard', '4/82 · Holo Rare', 'Team Rocket'),
  product('rocket-dark-charizard-nonholo', 'Dark Charizard', '21/82 · Rare', 'Team Rocket'),
  product(
    'sv151-charmander',
    'Charmander - 168/165',
    '168/165 · Illustration Rare',
    'SV: Scarlet & Violet 151',
    { era: 'modern' },
  ),
  product('sv2a-charmander', 'Charmander - 168/165', '168/165 · Art Rare', 'SV2a: Pokemon Card 151', {
    era: 'modern',
    language: 'Japanese',
  }),
  product('sv151-lickitung', 'Lickitung - 108/165', '108/165 · Common', 'SV: Scarlet & Violet 151', {
    era: 'modern',
  }),
  product('swsh-promo-charizard-v', 'Charizard V', 'SWSH050 · Promo', 'SWSH: Sword & Shield Promo Cards', {
    era: 'modern',
  }),
  product('chp-charizard-v', 'Charizard V', '079/073 · Secret Rare', "Champion's Path", { era: 'modern' }),
];

/** The store's part as an in-memory name index (both stores give the same answer, test/ingest/title-matcher.test.ts). */
const store: NamedProducts = {
  productsNamed: (words) =>
    CATALOG.filter((p) =>
      nameWords(p.productName).some((w) => words.map((x) => tokens(x).join('')).includes(w)),
    ),
};

describe('titleSignals', () => {
  it.each([
    ['PSA 9 Mint Charizard GX 9 68 Pokemon 2019 Hidden Fates', ['9', '68']],
    ['Pokemon Charizard VMAX PSA 10 GEM MT Darkness Ablaze 020 189', ['20', '189']],
    ['2016 Pokemon XY Evolutions Charizard Holo 11 Mint PSA 9 1 1 Holo bleed', ['11', '1', '1']],
    ['Blastoise 1 17 Pop Series 3 Pokemon Very Rare 2006 Mint PSA 9', ['1', '17', '3']],
    ['Umbreon VMAX 215/203 Alt Art Evolving Skies (TAG 8 NM)', ['215', '203']],
    ['2019 Pokemon Hidden Fates CHARIZARD GX Full Art SV49 SV94 Shiny Vault PSA 9 MINT', ['sv49', 'sv94']],
  ])('reads the card numbers of %j, grades, years and population counts aside', (title, numbers) => {
    expect(titleSignals(title).numberTokens).toEqual(numbers);
  });

  it.each([
    [
      '1999 Pokemon Fossil 1st edition Horsea Card 49 PSA 10',
      { firstEdition: true, shadowless: false, reverse: false },
    ],
    ['Here Comes Team Rocket First Edition Holo 15 82 PSA 10 GEM MINT', { firstEdition: true }],
    [
      'PSA 9 1st ed Kabutops Neo Discovery pokemon Non Holo',
      { firstEdition: true, nonHolo: true, holo: false },
    ],
    ['Pokemon Legendary Collection Charmeleon 37 110 Reverse Foil PSA 10', { reverse: true, holo: false }],
    [
      'Beautiful 1999 Pokemon Base Set Charmander Shadowless PSA 9 Mint 46 102 Rare',
      { shadowless: true, firstEdition: false },
    ],
    [
      'PSA 10 Pokemon Vivid Voltage Prerelease LUGIA Stamped Holo Promo SWSH069',
      { stamped: true, promo: true, holo: true },
    ],
  ])('reads the printing words of %j', (title, printing) => {
    expect(titleSignals(title)).toMatchObject(printing);
  });

  it.each([
    ['Japanese Pokemon Clash Blue Sky Shedinja PSA 10', 'Japanese', ['Japanese']],
    ['Pokemon Feraligatr Holo Jap Neo premium file PSA Mint 9', 'Japanese', ['Japanese']],
    ['NEW PSA 10 GEM MINT Pokemon Vivid Voltage Amazing Rare ZACIAN 082 185 ENGLISH', 'English', ['English']],
    ['PSA 10 Pokemon German Deutsch 1st Edition Base Digdri Dugtrio 19', 'German', ['German']],
    ['1999 Pokemon Jungle 80 Pikachu PSA 9 MINT', null, []],
    // Issue 35 item 7: prints sellers name in Polish and Thai are not English.
    ['Pokemon Charizard ex 199/165 Polish Polski PSA 10', 'Polish', ['Polish']],
    ['Pikachu 025/165 Thai Pokemon Card 151 PSA 10', 'Thai', ['Thai']],
  ])('reads the language of %j', (title, language, languages) => {
    expect(titleSignals(title)).toMatchObject({ language, languages });
  });

  it('joins the letter a URL slug split off an apostrophe', () => {
    expect(tokens('Pokemon 1st Edition Gym Heroes PSA 9 mint Erika s Vileplume Holo')).toContain('erikas');
    expect(nameWords("Erika's Vileplume")).toEqual(['erikas', 'vileplume']);
  });

  it('takes the number from the subtitle, else from the name, and the set words without codes and generic words', () => {
    expect(productNumber({ productName: 'Charizard', subtitle: '4/102 · Holo Rare' })).toEqual({
      number: '4',
      total: '102',
    });
    expect(productNumber({ productName: 'Charizard ex - 199/165', subtitle: '' })).toEqual({
      number: '199',
      total: '165',
    });
    expect(productNumber({ productName: 'Aerodactyl (1)', subtitle: '' })).toEqual({
      number: '1',
      total: null,
    });
    expect(productNumber({ productName: 'Charizard V', subtitle: '#SWSH050 · Promo' })).toEqual({
      number: 'swsh50',
      total: null,
    });
    // A catalog numbering old Japanese cards by Pokedex (`No. 006`) agrees with a title's "No. 006" (issue 33 item 6).
    for (const subtitle of ['No. 006', 'No.006', 'NO. 6 · No Rarity'])
      expect(productNumber({ productName: 'Charizard', subtitle })).toEqual({ number: '6', total: null });
    expect(
      agreement(titleSignals('1996 Charizard Base Set No. 006 No Rarity Japanese PSA 8'), {
        productKey: 'jp-base-charizard-6',
        productName: 'Charizard',
        subtitle: 'No. 006',
        setName: 'Base Set',
        language: 'Japanese',
      }),
    ).toMatchObject({ ok: true, numberText: '6', language: 'Japanese' });
    expect(nameWords('Charizard ex - 199/165')).toEqual(['charizard', 'ex']);
    expect(nameWords('M Charizard-EX')).toEqual(['m', 'charizard', 'ex']);
    expect(setWords('SWSH04: Vivid Voltage')).toEqual(['vivid', 'voltage']);
    expect(setWords('Expedition Base Set')).toEqual(['expedition']);
    expect(setWords('Base Set 2')).toEqual(['base', '2']);
    expect(setWords('HS—Triumphant')).toEqual(['triumphant']);
  });
});

describe('matchTitle', () => {
  it.each([
    [
      'CHARIZARD HOLO RARE 1999 POKEMON GAME BASE SET 4/102 UNLIMITED PSA 9 MINT',
      'base-charizard',
      'title: number 4/102 + name charizard + set base + holo',
    ],
    [
      '1999 WOTC Pokemon Charizard Holo 1st Edition PSA 10 Base Set 4 102',
      'base-charizard-1st',
      'title: number 4/102 + name charizard + set base + holo + 1st Edition',
    ],
    [
      'Pokemon Card 1999 Base Set Charizard Shadowless PSA 9 MINT 4 102',
      'base-charizard-shadowless',
      'title: number 4/102 + name charizard + set shadowless + Shadowless',
    ],
    [
      'Base Set 2 Charizard Holo Pokemon Card PSA 9 4 130',
      'base2-charizard',
      'title: number 4/130 + name charizard + set base 2 + holo',
    ],
    [
      'Vintage PSA 9 Mint 2000 Pokemon Team Rocket Dark Charizard 4 82 Holo Rare',
      'rocket-dark-charizard',
      'title: number 4/82 + name dark charizard + set team rocket + holo',
    ],
    [
      'Pokemon Japanese 151 Charmander 168/165 Art Rare (TAG 10 PRISTINE)',
      'sv2a-charmander',
      'title: number 168/165 + name charmander + set 151 + Japanese',
    ],
    [
      'Charmander 168/165 Scarlet Violet 151 Illustration Rare PSA 10',
      'sv151-charmander',
      'title: number 168/165 + name charmander + set scarlet violet 151',
    ],
    [
      'Pokemon Charizard V Champions Path Promo SWSH050 PSA 9',
      'swsh-promo-charizard-v',
      'title: number swsh50 + name charizard v + set promo',
    ],
    // The only promo Charizard V of this catalog; with a second one (SWSH260) the title would be ambiguous.
    [
      '2020 Pokemon SWSH Champions Path ETB Promo Charizard V PSA 9 MINT',
      'swsh-promo-charizard-v',
      'title: name charizard v + set promo',
    ],
    // Holo or not tells Team Rocket's two Dark Charizards apart.
    [
      'Pokemon Team Rocket Dark Charizard Holo PSA 8',
      'rocket-dark-charizard',
      'title: name dark charizard + set team rocket + holo',
    ],
    // No language word: the English print, never the Japanese one of the same number.
    ['Charmander 168/165 PSA 10', 'sv151-charmander', 'title: number 168/165 + name charmander'],
  ])('matches %j', (title, key, how) => {
    expect(matchTitle(title, store)).toEqual({
      product: expect.objectContaining({ productKey: key }),
      matchedBy: how,
    });
  });

  it.each([
    // No number, no set: the regular Charizards of two sets agree (the printings are refused: the title names none).
    [
      'Pokemon Charizard Holo PSA 9',
      'ambiguous',
      /^title names neither the number nor the set of base-charizard, base2-charizard: give product_key$/,
    ],
    // A plain number without its set is no identity.
    [
      'Charizard 4 Holo PSA 9',
      'unknown',
      /^title matches no product: .*base-charizard \(set: the title names the number 4 but not the set \(Base Set\)\)/,
    ],
    [
      'Japanese Charizard Base Set 4/102 Holo PSA 9',
      'unknown',
      /^title matches no product: .*base-charizard \(language: English product, title says Japanese\)/,
    ],
    [
      'Pokemon topps series 2 108 lickitung psa 9 mint',
      'unknown',
      /sv151-lickitung \(set: the title names the number 108 but not the set/,
    ],
    // A prerelease stamp is no card of Champion's Path; the promo set may hold it, but which promo is not said.
    [
      'Pokemon Champions Path Charizard V Secret Rare PSA 9 Prerelease',
      'ambiguous',
      /^title names neither the number nor the set of swsh-promo-charizard-v: give product_key$/,
    ],
    [
      '1999 Pokemon Jungle 80 Pikachu PSA 9 MINT',
      'unknown',
      /^title matches no product: no catalog product has the name words of the title$/,
    ],
    [
      '1999 Pokemon Base Set Charizard 4/102 Unlimited German PSA 8',
      'unknown',
      /base-charizard \(language: English product, title says German\)/,
    ],
  ])('rejects %j', (title, kind, reason) => {
    const match = matchTitle(title, store);
    expect(match).toMatchObject({ kind });
    expect('reason' in match ? match.reason : '').toMatch(reason);
  });
});
