/**
 * A small market for the index tests (CLI and pages): two cards of one set, one steady and one
 * that jumps 20 % half-way through the 30 days after the base date, and a card of another set.
 */
import { databaseWith, testProduct } from './_setup.js';

const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
export const BASE = Date.parse('2026-10-01T00:00:00Z');
export const NOW = BASE + 30 * DAY + 12 * HOUR;
export const JUMP = BASE + 15 * DAY;

/** Ungraded sales every 6 hours from 60 days before the base to now: `before` cents, then `after` from JUMP. */
const sales = (productKey: string, before: number, after: number) =>
  Array.from({ length: (90 * DAY) / (6 * HOUR) }, (_, i) => {
    const observedAt = BASE - 60 * DAY + i * 6 * HOUR;
    return {
      productKey,
      source: 'ebay',
      observedAt,
      priceMinor: observedAt < JUMP ? before : after,
      grader: 'ungraded',
      grade: null,
      externalId: `${productKey}-${i}`,
    };
  }).filter((s) => s.observedAt < NOW);

const card = (
  productKey: string,
  refsourceId: string,
  productName: string,
  setName: string,
  era: 'vintage' | 'modern',
) => testProduct({ productKey, refsourceId, tcgplayerId: null, productName, setName, era });

/** The database of the market: `steady-card` and `jumping-card` in "Test Set", `other-set-card` in "Else". */
export const indexMarketDatabase = (): Promise<string> =>
  databaseWith(
    [
      card('steady-card', '1', 'Steady', 'Test Set', 'vintage'),
      card('jumping-card', '2', 'Jumper', 'Test Set', 'vintage'),
      card('other-set-card', '3', 'Other', 'Else', 'modern'),
    ],
    [...sales('steady-card', 10_000, 10_000), ...sales('jumping-card', 5_000, 6_000)],
  );
