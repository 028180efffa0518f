// @module-tag sqlite-only: a pure domain function: no store
import { describe, expect, it } from 'vitest';
import {
  conditionKey,
  isPlayedGrader,
  PRICED_CONDITIONS,
  playedGrader,
  UNGRADED,
} from '../../src/domain/conditions.js';

describe('condition keys', () => {
  it.each([
    [UNGRADED, null, 'ungraded'],
    ['PSA', 10, 'psa10'],
    ['BGS', 9.5, 'bgs9.5'],
    ['ARS', 10, 'ars10'],
    ['RAW-LP', null, 'raw-lp'],
    ['RAW-DMG', null, 'raw-dmg'],
    ['PSA', null, 'ungraded'],
  ] as const)('keys %s %s as %s', (grader, grade, key) => {
    expect(conditionKey(grader, grade)).toBe(key);
  });

  it('keeps played raw cards out of every priced condition', () => {
    for (const condition of ['LP', 'MP', 'HP', 'DMG'] as const) {
      expect(isPlayedGrader(playedGrader(condition))).toBe(true);
      expect(PRICED_CONDITIONS).not.toContain(conditionKey(playedGrader(condition), null));
    }
    expect(isPlayedGrader('RAW')).toBe(false);
    expect(isPlayedGrader('raw-lp')).toBe(false); // graders are upper case by the time they get here
  });
});
