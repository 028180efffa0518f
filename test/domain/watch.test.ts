// @module-tag sqlite-only: a pure domain function: no store
/** The inputs of a watch rule (domain/watch.ts), each through its schema as the CLI reads it. */
import { describe, expect, it } from 'vitest';
import { dollars, formatSpan, move, span, watchSlot } from '../../src/domain/watch.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('watch rule inputs', () => {
  it.each([
    ['150', 15_000],
    ['150.5', 15_050],
    ['$1,250.05', 125_005],
    ['0.01', 1],
  ])('reads the amount %s as %d cents', (text, cents) => {
    expect(dollars.parse(text)).toBe(cents);
  });

  it.each(['0', '0.00', '-5', '1.005', '1,25', '12e3', 'ten', ''])('refuses the amount %j', (text) => {
    expect(dollars.safeParse(text).success).toBe(false);
  });

  it.each([
    ['10%', { percent: 10, direction: 'either' }],
    ['+2.5%', { percent: 2.5, direction: 'up' }],
    ['-10', { percent: 10, direction: 'down' }],
  ])('reads the move %s', (text, expected) => {
    expect(move.parse(text)).toEqual(expected);
  });

  it.each(['0%', '1001%', '10 %', 'ten%'])('refuses the move %j', (text) => {
    expect(move.safeParse(text).success).toBe(false);
  });

  it.each([
    ['12h', 12 * HOUR, '12h'],
    ['7d', 7 * DAY, '7d'],
    ['2W', 14 * DAY, '14d'],
    ['30d ago', 30 * DAY, '30d'],
  ])('reads the span %s and writes it back as %s', (text, ms, written) => {
    expect(span.parse(text)).toBe(ms);
    expect(formatSpan(ms)).toBe(written);
  });

  it.each(['0d', '366d', '7x', '2026-11-01', 'now'])('refuses the span %j', (text) => {
    expect(span.safeParse(text).success).toBe(false);
  });

  it.each([
    ['PSA 10', 'psa10'],
    ['BGS 9.5', 'bgs9.5'],
    ['raw', 'ungraded'],
  ])('reads the slot %s as %s', (text, key) => {
    expect(watchSlot.parse(text)).toBe(key);
  });

  it('refuses a played raw card, which has no price of its own', () => {
    expect(watchSlot.safeParse('raw-lp').success).toBe(false);
  });
});
