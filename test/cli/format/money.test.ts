// @module-tag sqlite-only: money formatting: no store
import { describe, expect, it } from 'vitest';
import { formatUsd } from '../../../src/cli/format/money.js';

describe('formatUsd', () => {
  it.each([
    [1, '$0.01'],
    [100, '$1.00'],
    [178015, '$1,780.15'],
    [30_000_000, '$300,000.00'],
  ])('%d cents is %s', (cents, text) => {
    expect(formatUsd(cents)).toBe(text);
  });
});
