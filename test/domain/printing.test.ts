// @module-tag sqlite-only: a pure domain function: no store
import { describe, expect, it } from 'vitest';
import { canonicalPrinting, landingPrintings } from '../../src/domain/printing.js';

describe('printings', () => {
  it.each([
    ['reverse holofoil', 'Reverse Holofoil'],
    ['  1st   edition ', '1st Edition'],
    ['UNLIMITED HOLOFOIL', 'Unlimited Holofoil'],
    ['Foil', 'Foil'],
    ['   ', null],
  ])('stores %j as %j', (text, printing) => {
    expect(canonicalPrinting(text)).toBe(printing);
  });

  it.each([
    ['Normal', ['Normal', null]],
    ['Holofoil', ['Holofoil', null]],
    ['Reverse Holofoil', ['Reverse Holofoil']],
    ['1st Edition', ['1st Edition']],
    ['1st Edition Holofoil', ['1st Edition Holofoil', '1st Edition']],
    ['1st Edition Normal', ['1st Edition Normal', '1st Edition']],
    ['Unlimited Normal', ['Unlimited Normal', null]],
    ['Unlimited', ['Unlimited', null]],
    ['Unlimited Holofoil', ['Unlimited Holofoil', null]],
    ['Foil', ['Foil']],
  ])('lands a TCGplayer row of %j on the catalog printings %j, in that order', (subType, landings) => {
    expect(landingPrintings(subType)).toEqual(landings);
  });
});
