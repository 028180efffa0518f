// @module-tag sqlite-only: suggestions over the catalog: the store's search vocabulary runs on both in the
// store contract
/** "Did you mean": the keys suggested for an unknown product key, over a real store's full-text index. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UnknownProductError } from '../../src/domain/errors.js';
import { createPricing } from '../../src/service/pricing.js';
import { editDistance, MAX_SUGGESTIONS } from '../../src/service/suggest.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/store.js';
import { databaseWith, testProduct } from '../_setup.js';

const KEYS = [
  'pokemon-base-set-charizard-4-102',
  'pokemon-base-set-1st-edition-charizard-4-102',
  'pokemon-base-set-blastoise-2-102',
  'pokemon-base-set-venusaur-15-102',
  'pokemon-base-set-chansey-3-102',
  'pokemon-team-rocket-dark-charizard-4-82',
];

describe('suggested keys', () => {
  let store: Store;
  beforeAll(async () => {
    store = await openStore(
      await databaseWith(
        KEYS.map((productKey, i) => testProduct({ productKey, refsourceId: String(i + 1) })),
        [],
      ),
    );
  });
  afterAll(() => store.close());

  const unknown = (key: string) =>
    createPricing(store)
      .productByKey(key)
      .then(
        () => {
          throw new Error(`${key} was found`);
        },
        (e: unknown) => e as UnknownProductError,
      );

  it('names up to 3 close keys for an unknown product key, the closest first', async () => {
    const error = await unknown('pokemon-base-set-charzard-4-102');
    expect(error).toBeInstanceOf(UnknownProductError);
    expect(error.suggestions[0]).toBe('pokemon-base-set-charizard-4-102');
    // Every key shares words with it: the index proposes them all, the 3 closest are shown.
    expect(error.suggestions).toHaveLength(MAX_SUGGESTIONS);
    expect(error.message).toContain('did you mean "pokemon-base-set-charizard-4-102"');
  });

  it('suggests nothing, and says no "did you mean", when nothing is close', async () => {
    expect((await unknown('zzzz')).message).toBe('unknown product_key "zzzz"');
    expect((await unknown('"*-')).message).toMatch(/^unknown product_key "\\"\*-"$/);
  });

  it('measures edit distance as Levenshtein', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('same', 'same')).toBe(0);
    expect(editDistance('charzard', 'charizard')).toBe(1);
  });
});
