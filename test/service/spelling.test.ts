// @module-tag sqlite-only: spelling correction, pure: no store
/** Spelling correction of search words (src/service/spelling.ts), pure: words to the closest word of a vocabulary. */
import { describe, expect, it } from 'vitest';
import {
  correctedSearch,
  distanceToWordOrPrefix,
  searchWords,
  WORDS_PER_STEP,
} from '../../src/service/spelling.js';

const VOCABULARY = [
  ['charizard', 60],
  ['charmander', 20],
  ['chansey', 10],
  ['pikachu', 13],
  ['blastoise', 9],
  ['base', 80],
  ['jungle', 30],
  ['mew', 5],
  ['mewtwo', 5],
  ['102', 100],
  ['holo', 200],
]
  .map(([word, products]) => ({ word: word as string, products: products as number }))
  // Sorted by word, as correctedSearch takes it (search.ts sorts the store's).
  .sort((a, b) => (a.word < b.word ? -1 : 1));

describe('distanceToWordOrPrefix', () => {
  it.each([
    ['charzard', 'charizard', 1],
    ['pickachu', 'pikachu', 1],
    ['pikahcu', 'pikachu', 1], // two neighbours swapped: one edit
    ['blastiose', 'blastoise', 1],
    ['charzar', 'charizard', 1], // to the prefix "chariza"
    ['chaizard', 'charizard', 1],
    ['zapdos', 'charizard', 3], // beyond max 2: max + 1
  ])('%s -> %s: %d', (a, b, d) => {
    expect(distanceToWordOrPrefix(a, b, 2)).toBe(d);
  });
});

describe('correctedSearch', () => {
  it.each([
    ['charzard', 'charizard'],
    ['Charzard BASE', 'charizard BASE'],
    ['base charzard holo 4/102', 'base charizard holo 4/102'],
    ['pickachu jungel', 'pikachu jungle'],
    ['Pikachú', null], // diacritics fold: "pikachu" is found as is
    ['blastiose', 'blastoise'],
    // A word close to no catalog word is left out; numbers are never corrected.
    ['charzard qwxyzv', 'charizard'],
    ['charizard 999', null],
  ])('%j -> %j', async (text, corrected) => {
    expect(await correctedSearch(text, VOCABULARY)).toBe(corrected);
  });

  it('corrects short words no more than their length allows: none up to 3 letters, 1 edit up to 5', async () => {
    expect(await correctedSearch('mwe', VOCABULARY)).toBeNull();
    expect(await correctedSearch('bsae', VOCABULARY)).toBe('base');
    expect(await correctedSearch('bxxe', VOCABULARY)).toBeNull();
  });

  it('prefers the closer word, then the one more products hold', async () => {
    // "charmandr" is 1 from charmander, 2 from charizard.
    expect(await correctedSearch('charmandr', VOCABULARY)).toBe('charmander');
    // "chasey": 1 from chansey (10 products); "charizard" is further.
    expect(await correctedSearch('chasey', VOCABULARY)).toBe('chansey');
  });

  it('gives the event loop back after every WORDS_PER_STEP catalog words it compares', async () => {
    // A catalog of many words none close to the misspelled one: every word is compared.
    const many = Array.from({ length: WORDS_PER_STEP * 5 + 10 }, (_, i) => ({
      word: `zz${i.toString(36).padStart(4, '0')}`,
      products: 1,
    }));
    const vocabulary = [...VOCABULARY, ...many].sort((a, b) => (a.word < b.word ? -1 : 1));
    let pauses = 0;
    const corrected = await correctedSearch('charzard', vocabulary, () => {
      pauses += 1;
      return Promise.resolve();
    });
    expect(corrected).toBe('charizard');
    expect(pauses).toBe(Math.floor(vocabulary.length / WORDS_PER_STEP));
  });

  it('splits and folds words as the search index does', () => {
    expect(searchWords('Pokémon-Base 4/102')).toEqual(['pokemon', 'base', '4', '102']);
  });
});
