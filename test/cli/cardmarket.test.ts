/**
 * Cardmarket's daily files (docs/feeds.md, "Cardmarket"), cut from real downloads
 * (test/fixtures/README.md): the product catalog and the price guide in two commands, EUR
 * quotes dated by the guide's own createdAt and converted at the ECB rate of their day, re-runs
 * that add nothing, and the cross-source check (docs/methodology.md §18) on a Cardmarket id
 * crosswalked to the wrong card.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PricingBundle } from '../../src/domain/bundle.js';
import type { EvidenceBody } from '../../src/domain/evidence.js';
import { newTestDatabase } from '../_pg.js';
import { runOracle } from '../_cli.js';
import { ROOT, tempDir } from '../_setup.js';

const FIXTURES = join(ROOT, 'test/fixtures/cardmarket');
const CATALOG = join(FIXTURES, 'products_singles_6.cut.json');
const GUIDE = join(FIXTURES, 'price_guide_6.cut.json');
/** The guide's createdAt, 2025-11-26T02:47:06+0100, and a clock after the catalog's (2025-12-04). */
const CREATED_AT = '2025-11-26T01:47:06Z';
const NOW = Date.parse('2025-12-05T12:00:00Z');
/** Euro reference rates in the ECB's daily format (test values, not the ECB's of those days). */
const RATES = 'Date,USD,JPY,\n2025-11-25,1.1560,181.00,\n2025-11-26,1.1590,181.50,\n';

describe('Cardmarket files', () => {
  let db: string;
  let dir: string;
  const run = (args: string[], input?: string) => runOracle(['--db', db, ...args], { input, now: NOW });
  const bundle = async (key: string, extra: string[] = []) => {
    const result = await run(['price', key, '--at', '2025-11-27', '--json', ...extra]);
    expect(result.stderr).toBe('');
    return JSON.parse(result.stdout) as PricingBundle;
  };

  beforeAll(async () => {
    dir = tempDir('oracle-cardmarket-');
    db = await newTestDatabase(dir);
    writeFileSync(join(dir, 'eurofxref.csv'), RATES);
    expect((await run(['ingest', join(dir, 'eurofxref.csv')])).code).toBe(0);
    // Two products of another source, each crosswalked to a Cardmarket id: Charity rightly,
    // and a Charizard deliberately to 274182 (Erika's Gloom), the wrong card.
    const mapped = [
      'product_key,product_name,set_name,cardmarket_id',
      'charity-gym-heroes-tcg,Charity,Gym Heroes,274235',
      'charizard-base-set-4,Charizard,Base Set,274182',
    ].join('\n');
    expect((await run(['ingest', '--kind', 'catalog', '-'], mapped)).code).toBe(0);
    const sales = [
      'product_key,source,observed_at,price_minor',
      ...['2025-11-20', '2025-11-22', '2025-11-25'].flatMap((d) => [
        `charity-gym-heroes-tcg,tcgplayer,${d}T20:00:00Z,1250`,
        `charizard-base-set-4,tcgplayer,${d}T20:00:00Z,35000`,
      ]),
    ].join('\n');
    expect((await run(['ingest', '-'], sales)).code).toBe(0);
  });

  it('loads the catalog file as products, keeping crosswalked ids on their products, and a re-run changes nothing', async () => {
    const first = await run(['ingest', CATALOG]);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(
      /read 10, inserted 8, updated 0, duplicates 0, rejected 0, skipped 2 \(on a product of another source \(crosswalk\) 2\)/,
    );
    const again = await run(['ingest', CATALOG]);
    expect(again.stdout).toMatch(/inserted 0, updated 0, duplicates 8, rejected 0, skipped 2/);
    const catalog = JSON.parse((await run(['catalog', '--json'])).stdout) as {
      products: { product_key: string; product_name: string }[];
    };
    expect(catalog.products.find((p) => p.product_key === 'lt-surges-pikachu-cm274217')?.product_name).toBe(
      "Lt. Surge's Pikachu [Charge | Lightning Tail]",
    );
    // One product per Cardmarket id: no `charity-cm274235` beside the crosswalked Charity.
    expect(catalog.products.some((p) => p.product_key === 'charity-cm274235')).toBe(false);
  });

  it('stores the guide as EUR quotes dated by its createdAt, once however often it is read', async () => {
    const first = await run(['ingest', GUIDE]);
    expect(first.code).toBe(0);
    // 11 rows: 9 trends on known products, 2 of sealed products not in the catalog; 10 -holo
    // trends, 9 with a price but no product of the foil printing, 1 zero.
    expect(first.stdout).toMatch(/read 21, inserted 9, duplicates 0, rejected 0, skipped 12 \(/);
    expect(first.stdout).toMatch(/unmapped 2/);
    expect(first.stdout).toMatch(/no foil product 9/);
    expect(first.stdout).toMatch(/no foil trend 1/);
    const again = await run(['ingest', GUIDE]);
    expect(again.stdout).toMatch(/read 21, inserted 0, duplicates 9, rejected 0/);
    const pikachu = await bundle('lt-surges-pikachu-cm274217', ['--currency', 'EUR']);
    expect(pikachu.ungraded.meta.source_counts).toEqual({ cardmarket: 1 });
    expect(pikachu.ungraded.meta.newest_observation_at).toBe(CREATED_AT);
    // trend 3.46 EUR at 1.1590 USD per EUR: 401.014 US cents; in EUR exactly the guide's figure.
    expect(pikachu.ungraded.price_minor).toBe(401);
    expect((pikachu.ungraded.meta.converted as { price_minor: number }).price_minor).toBe(346);
  });

  it('refuses the guide under --kind catalog, naming what it holds', async () => {
    const result = await run(['ingest', '--kind', 'catalog', GUIDE]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/"priceGuides" are observations records, not catalog/);
  });

  it('prices a card whose sources agree, and says so in meta', async () => {
    const charity = await bundle('charity-gym-heroes-tcg');
    expect(charity.ungraded.price_minor).not.toBeNull();
    expect(charity.ungraded.meta.cross_source).toEqual({
      agree: true,
      ratio: '1.10',
      max_ratio: 2.5,
      medians_minor: { cardmarket: 1380, tcgplayer: 1250 },
      out_of_line: null,
    });
  });

  it('withholds the price of a card whose Cardmarket id is crosswalked to the wrong card, naming the source', async () => {
    const charizard = await bundle('charizard-base-set-4');
    expect(charizard.ungraded.price_minor).toBeNull();
    expect(charizard.ungraded.error).toBe('no_observations');
    expect(charizard.ungraded.meta.no_price_reason).toBe('sources_disagree');
    expect(charizard.ungraded.meta.cross_source).toMatchObject({
      agree: false,
      medians_minor: { cardmarket: 352, tcgplayer: 35000 },
      out_of_line: 'cardmarket',
    });
    const explain = await run([
      'explain',
      'charizard-base-set-4',
      '--slot',
      'ungraded',
      '--at',
      '2025-11-27',
      '--json',
    ]);
    const steps = (JSON.parse(explain.stdout) as EvidenceBody).steps.map((s) => s.name);
    expect(steps.slice(-2)).toEqual(['cross_source', 'no_price']);
    const text = await run(['explain', 'charizard-base-set-4', '--slot', 'ungraded', '--at', '2025-11-27']);
    expect(text.stdout).toMatch(/they disagree, cardmarket furthest from the rest/);
  });
});
