/**
 * The real products of the bundled sample catalog (data/catalog.csv): Pokemon, Magic: The
 * Gathering and sports cards, single cards and sealed boxes, modern and vintage.
 *
 * Prices are rough late-2025 market levels in USD, only to give the generated history
 * realistic magnitudes; they are not quotes. Release dates are given where they are well
 * known and left empty otherwise (the catalog allows it). refsource ids are made up.
 */
import type { ProductType } from '../src/domain/product.js';

export type Game = 'pokemon' | 'mtg' | 'baseball' | 'basketball' | 'football';

/**
 * How a product trades in the sample:
 * - `flow`: marketplace sales at `salesPerDay` ungraded sales a day on average (graded sales
 *   on top, see market-model.ts), plus daily price-guide quotes;
 * - `sparse`: a sale every `gapDays[0]` to `gapDays[1]` days (fixed in absolute time, see
 *   sparse-sales.ts) and no price-guide coverage, so the pricing fallbacks have something to do;
 * - `none`: tracked in the catalog but never observed.
 */
export type Liquidity =
  | { kind: 'flow'; salesPerDay: number }
  | { kind: 'sparse'; gapDays: readonly [number, number] }
  | { kind: 'none' };

export interface SampleProduct {
  key: string;
  refsourceId: string;
  name: string;
  subtitle: string;
  setName: string;
  productType: ProductType;
  game: Game;
  /** Year of issue; decides the era (see eraOf). */
  year: number;
  releaseDate: string | null;
  /**
   * Near-mint ungraded (or sealed, for boxes) price in USD: the sample's drift line passes
   * through it on PRICE_ANCHOR (December 2025); scale mode ends the history near it.
   */
  ungradedUsd: number;
  /** PSA 10 price in USD; null for sealed products, which are never graded. */
  psa10Usd: number | null;
  liquidity: Liquidity;
}

/**
 * Cards issued before 2003 are `vintage`: the WotC-era Pokemon sets end in 2003 and the
 * hobby calls pre-2003 sports and Magic cards vintage too. The rule is the year, nothing else.
 */
export function eraOf(product: { year: number }): 'vintage' | 'modern' {
  return product.year < 2003 ? 'vintage' : 'modern';
}

const flow = (salesPerDay: number): Liquidity => ({ kind: 'flow', salesPerDay });
const sparse = (minGapDays: number, maxGapDays: number): Liquidity => ({ kind: 'sparse', gapDays: [minGapDays, maxGapDays] });

/** The catalog, in the order data/catalog.csv lists it. The first product is the benchmark's hot product. */
export const SAMPLE_PRODUCTS: readonly SampleProduct[] = [
  // Pokemon, vintage singles
  { key: 'pokemon-base-set-charizard-4-102', refsourceId: '631245', name: 'Charizard', subtitle: '4/102 Holo', setName: 'Base Set', productType: 'single_card', game: 'pokemon', year: 1999, releaseDate: '1999-01-09', ungradedUsd: 450, psa10Usd: 12_000, liquidity: flow(6) },
  { key: 'pokemon-base-set-1st-edition-charizard-4-102', refsourceId: '631246', name: 'Charizard', subtitle: '4/102 1st Edition Holo', setName: 'Base Set', productType: 'single_card', game: 'pokemon', year: 1999, releaseDate: '1999-01-09', ungradedUsd: 9_000, psa10Usd: 350_000, liquidity: flow(0.25) },
  { key: 'pokemon-base-set-blastoise-2-102', refsourceId: '631212', name: 'Blastoise', subtitle: '2/102 Holo', setName: 'Base Set', productType: 'single_card', game: 'pokemon', year: 1999, releaseDate: '1999-01-09', ungradedUsd: 150, psa10Usd: 4_000, liquidity: flow(3) },
  { key: 'pokemon-base-set-venusaur-15-102', refsourceId: '631298', name: 'Venusaur', subtitle: '15/102 Holo', setName: 'Base Set', productType: 'single_card', game: 'pokemon', year: 1999, releaseDate: '1999-01-09', ungradedUsd: 120, psa10Usd: 3_500, liquidity: flow(2.5) },
  { key: 'pokemon-team-rocket-dark-charizard-4-82', refsourceId: '645107', name: 'Dark Charizard', subtitle: '4/82 Holo', setName: 'Team Rocket', productType: 'single_card', game: 'pokemon', year: 2000, releaseDate: '2000-04-24', ungradedUsd: 180, psa10Usd: 4_000, liquidity: flow(1.5) },
  { key: 'pokemon-gym-challenge-blaines-charizard-2-132', refsourceId: '652033', name: "Blaine's Charizard", subtitle: '2/132 Holo', setName: 'Gym Challenge', productType: 'single_card', game: 'pokemon', year: 2000, releaseDate: '2000-10-16', ungradedUsd: 250, psa10Usd: 9_000, liquidity: flow(0.8) },
  { key: 'pokemon-neo-genesis-lugia-9-111', refsourceId: '658871', name: 'Lugia', subtitle: '9/111 Holo', setName: 'Neo Genesis', productType: 'single_card', game: 'pokemon', year: 2000, releaseDate: '2000-12-16', ungradedUsd: 220, psa10Usd: 5_500, liquidity: flow(1.5) },
  { key: 'pokemon-corocoro-pikachu-illustrator', refsourceId: '609914', name: 'Pikachu', subtitle: '"Illustrator" Promo', setName: 'CoroCoro Comic Promo', productType: 'single_card', game: 'pokemon', year: 1998, releaseDate: null, ungradedUsd: 2_000_000, psa10Usd: 5_275_000, liquidity: { kind: 'none' } },
  // Pokemon, modern singles
  { key: 'pokemon-evolving-skies-umbreon-vmax-215-203', refsourceId: '2274501', name: 'Umbreon VMAX', subtitle: '215/203 "Moonbreon" Alternate Art', setName: 'Evolving Skies', productType: 'single_card', game: 'pokemon', year: 2021, releaseDate: '2021-08-27', ungradedUsd: 1_500, psa10Usd: 3_800, liquidity: flow(10) },
  { key: 'pokemon-evolving-skies-rayquaza-vmax-218-203', refsourceId: '2274517', name: 'Rayquaza VMAX', subtitle: '218/203 Alternate Art', setName: 'Evolving Skies', productType: 'single_card', game: 'pokemon', year: 2021, releaseDate: '2021-08-27', ungradedUsd: 600, psa10Usd: 1_500, liquidity: flow(6) },
  { key: 'pokemon-evolving-skies-sylveon-vmax-212-203', refsourceId: '2274488', name: 'Sylveon VMAX', subtitle: '212/203 Alternate Art', setName: 'Evolving Skies', productType: 'single_card', game: 'pokemon', year: 2021, releaseDate: '2021-08-27', ungradedUsd: 350, psa10Usd: 900, liquidity: flow(4) },
  { key: 'pokemon-hidden-fates-charizard-gx-sv49', refsourceId: '1938412', name: 'Charizard GX', subtitle: 'SV49/SV94 Shiny', setName: 'Hidden Fates', productType: 'single_card', game: 'pokemon', year: 2019, releaseDate: '2019-08-23', ungradedUsd: 120, psa10Usd: 450, liquidity: flow(6) },
  { key: 'pokemon-team-up-latias-latios-gx-170-181', refsourceId: '1851190', name: 'Latias & Latios GX', subtitle: '170/181 Alternate Art', setName: 'Team Up', productType: 'single_card', game: 'pokemon', year: 2019, releaseDate: '2019-02-01', ungradedUsd: 400, psa10Usd: 1_500, liquidity: flow(3) },
  { key: 'pokemon-lost-origin-giratina-v-186-196', refsourceId: '2531876', name: 'Giratina V', subtitle: '186/196 Alternate Art', setName: 'Lost Origin', productType: 'single_card', game: 'pokemon', year: 2022, releaseDate: '2022-09-09', ungradedUsd: 500, psa10Usd: 1_300, liquidity: flow(6) },
  { key: 'pokemon-crown-zenith-giratina-vstar-gg69', refsourceId: '2640358', name: 'Giratina VSTAR', subtitle: 'GG69/GG70 Gold', setName: 'Crown Zenith', productType: 'single_card', game: 'pokemon', year: 2023, releaseDate: '2023-01-20', ungradedUsd: 180, psa10Usd: 450, liquidity: flow(5) },
  { key: 'pokemon-151-charizard-ex-199-165', refsourceId: '2896617', name: 'Charizard ex', subtitle: '199/165 Special Illustration Rare', setName: 'Scarlet & Violet: 151', productType: 'single_card', game: 'pokemon', year: 2023, releaseDate: '2023-09-22', ungradedUsd: 230, psa10Usd: 700, liquidity: flow(12) },
  { key: 'pokemon-151-mew-ex-205-165', refsourceId: '2896640', name: 'Mew ex', subtitle: '205/165 Hyper Rare', setName: 'Scarlet & Violet: 151', productType: 'single_card', game: 'pokemon', year: 2023, releaseDate: '2023-09-22', ungradedUsd: 40, psa10Usd: 160, liquidity: flow(9) },
  { key: 'pokemon-obsidian-flames-charizard-ex-223-197', refsourceId: '2858302', name: 'Charizard ex', subtitle: '223/197 Special Illustration Rare', setName: 'Obsidian Flames', productType: 'single_card', game: 'pokemon', year: 2023, releaseDate: '2023-08-11', ungradedUsd: 90, psa10Usd: 260, liquidity: flow(8) },
  // Pokemon, sealed
  { key: 'pokemon-base-set-booster-box', refsourceId: '631001', name: 'Base Set Booster Box', subtitle: 'Unlimited, 36 packs', setName: 'Base Set', productType: 'booster_box', game: 'pokemon', year: 1999, releaseDate: '1999-01-09', ungradedUsd: 30_000, psa10Usd: null, liquidity: flow(0.1) },
  { key: 'pokemon-base-set-1st-edition-booster-box', refsourceId: '631002', name: 'Base Set Booster Box', subtitle: '1st Edition, 36 packs', setName: 'Base Set', productType: 'booster_box', game: 'pokemon', year: 1999, releaseDate: '1999-01-09', ungradedUsd: 420_000, psa10Usd: null, liquidity: sparse(25, 80) },
  { key: 'pokemon-neo-genesis-booster-box', refsourceId: '658801', name: 'Neo Genesis Booster Box', subtitle: 'Unlimited, 36 packs', setName: 'Neo Genesis', productType: 'booster_box', game: 'pokemon', year: 2000, releaseDate: '2000-12-16', ungradedUsd: 20_000, psa10Usd: null, liquidity: flow(0.08) },
  { key: 'pokemon-evolving-skies-booster-box', refsourceId: '2274402', name: 'Evolving Skies Booster Box', subtitle: '36 packs', setName: 'Evolving Skies', productType: 'booster_box', game: 'pokemon', year: 2021, releaseDate: '2021-08-27', ungradedUsd: 1_400, psa10Usd: null, liquidity: flow(6) },
  { key: 'pokemon-fusion-strike-booster-box', refsourceId: '2351974', name: 'Fusion Strike Booster Box', subtitle: '36 packs', setName: 'Fusion Strike', productType: 'booster_box', game: 'pokemon', year: 2021, releaseDate: '2021-11-12', ungradedUsd: 230, psa10Usd: null, liquidity: flow(3) },
  { key: 'pokemon-brilliant-stars-booster-box', refsourceId: '2402215', name: 'Brilliant Stars Booster Box', subtitle: '36 packs', setName: 'Brilliant Stars', productType: 'booster_box', game: 'pokemon', year: 2022, releaseDate: '2022-02-25', ungradedUsd: 300, psa10Usd: null, liquidity: flow(3) },
  // Magic: The Gathering, vintage singles
  { key: 'mtg-alpha-black-lotus', refsourceId: '512001', name: 'Black Lotus', subtitle: 'Rare', setName: 'Limited Edition Alpha', productType: 'single_card', game: 'mtg', year: 1993, releaseDate: '1993-08-05', ungradedUsd: 45_000, psa10Usd: 550_000, liquidity: flow(0.08) },
  { key: 'mtg-beta-black-lotus', refsourceId: '513001', name: 'Black Lotus', subtitle: 'Rare', setName: 'Limited Edition Beta', productType: 'single_card', game: 'mtg', year: 1993, releaseDate: '1993-10-04', ungradedUsd: 25_000, psa10Usd: 300_000, liquidity: flow(0.12) },
  { key: 'mtg-unlimited-black-lotus', refsourceId: '514001', name: 'Black Lotus', subtitle: 'Rare', setName: 'Unlimited Edition', productType: 'single_card', game: 'mtg', year: 1993, releaseDate: '1993-12-01', ungradedUsd: 14_000, psa10Usd: 120_000, liquidity: flow(0.3) },
  { key: 'mtg-alpha-mox-sapphire', refsourceId: '512044', name: 'Mox Sapphire', subtitle: 'Rare', setName: 'Limited Edition Alpha', productType: 'single_card', game: 'mtg', year: 1993, releaseDate: '1993-08-05', ungradedUsd: 9_000, psa10Usd: 150_000, liquidity: flow(0.1) },
  { key: 'mtg-arabian-nights-juzam-djinn', refsourceId: '515032', name: 'Juzám Djinn', subtitle: 'Rare', setName: 'Arabian Nights', productType: 'single_card', game: 'mtg', year: 1993, releaseDate: '1993-12-17', ungradedUsd: 1_800, psa10Usd: 30_000, liquidity: flow(0.4) },
  { key: 'mtg-legends-the-tabernacle-at-pendrell-vale', refsourceId: '517201', name: 'The Tabernacle at Pendrell Vale', subtitle: 'Rare', setName: 'Legends', productType: 'single_card', game: 'mtg', year: 1994, releaseDate: null, ungradedUsd: 4_000, psa10Usd: 40_000, liquidity: sparse(14, 45) },
  { key: 'mtg-revised-underground-sea', refsourceId: '516288', name: 'Underground Sea', subtitle: 'Rare', setName: 'Revised Edition', productType: 'single_card', game: 'mtg', year: 1994, releaseDate: null, ungradedUsd: 650, psa10Usd: 6_000, liquidity: flow(2) },
  // Magic: The Gathering, modern singles
  { key: 'mtg-worldwake-jace-the-mind-sculptor-31', refsourceId: '1103117', name: 'Jace, the Mind Sculptor', subtitle: '31/145 Mythic', setName: 'Worldwake', productType: 'single_card', game: 'mtg', year: 2010, releaseDate: '2010-02-05', ungradedUsd: 65, psa10Usd: 400, liquidity: flow(3) },
  { key: 'mtg-modern-horizons-2-ragavan-nimble-pilferer-138', refsourceId: '2391138', name: 'Ragavan, Nimble Pilferer', subtitle: '138/303 Mythic', setName: 'Modern Horizons 2', productType: 'single_card', game: 'mtg', year: 2021, releaseDate: '2021-06-18', ungradedUsd: 55, psa10Usd: 180, liquidity: flow(5) },
  { key: 'mtg-dominaria-united-sheoldred-the-apocalypse-107', refsourceId: '2570107', name: 'Sheoldred, the Apocalypse', subtitle: '107/281 Mythic', setName: 'Dominaria United', productType: 'single_card', game: 'mtg', year: 2022, releaseDate: '2022-09-09', ungradedUsd: 75, psa10Usd: 220, liquidity: flow(6) },
  { key: 'mtg-lord-of-the-rings-the-one-ring-246', refsourceId: '2788246', name: 'The One Ring', subtitle: '246/281 Mythic', setName: 'The Lord of the Rings: Tales of Middle-earth', productType: 'single_card', game: 'mtg', year: 2023, releaseDate: '2023-06-23', ungradedUsd: 55, psa10Usd: 160, liquidity: flow(6) },
  // Magic: The Gathering, sealed
  { key: 'mtg-alpha-booster-box', refsourceId: '512900', name: 'Alpha Booster Box', subtitle: '36 packs', setName: 'Limited Edition Alpha', productType: 'booster_box', game: 'mtg', year: 1993, releaseDate: '1993-08-05', ungradedUsd: 1_900_000, psa10Usd: null, liquidity: sparse(40, 120) },
  { key: 'mtg-revised-booster-box', refsourceId: '516900', name: 'Revised Booster Box', subtitle: '36 packs', setName: 'Revised Edition', productType: 'booster_box', game: 'mtg', year: 1994, releaseDate: null, ungradedUsd: 25_000, psa10Usd: null, liquidity: flow(0.15) },
  { key: 'mtg-modern-horizons-2-draft-booster-box', refsourceId: '2391900', name: 'Modern Horizons 2 Draft Booster Box', subtitle: '36 packs', setName: 'Modern Horizons 2', productType: 'booster_box', game: 'mtg', year: 2021, releaseDate: '2021-06-18', ungradedUsd: 350, psa10Usd: null, liquidity: flow(2) },
  { key: 'mtg-modern-horizons-3-collector-booster-box', refsourceId: '3011902', name: 'Modern Horizons 3 Collector Booster Box', subtitle: '12 packs', setName: 'Modern Horizons 3', productType: 'booster_box', game: 'mtg', year: 2024, releaseDate: '2024-06-14', ungradedUsd: 420, psa10Usd: null, liquidity: flow(4) },
  // Sports, vintage singles
  { key: '1952-topps-mickey-mantle-311', refsourceId: '701311', name: 'Mickey Mantle', subtitle: '#311', setName: '1952 Topps', productType: 'single_card', game: 'baseball', year: 1952, releaseDate: null, ungradedUsd: 60_000, psa10Usd: 12_600_000, liquidity: sparse(20, 70) },
  { key: '1965-topps-joe-namath-122', refsourceId: '703122', name: 'Joe Namath', subtitle: '#122 Rookie', setName: '1965 Topps', productType: 'single_card', game: 'football', year: 1965, releaseDate: null, ungradedUsd: 1_500, psa10Usd: 400_000, liquidity: sparse(14, 40) },
  { key: '1986-fleer-michael-jordan-57', refsourceId: '708657', name: 'Michael Jordan', subtitle: '#57 Rookie', setName: '1986-87 Fleer', productType: 'single_card', game: 'basketball', year: 1986, releaseDate: null, ungradedUsd: 1_500, psa10Usd: 200_000, liquidity: flow(1.5) },
  { key: '1989-upper-deck-ken-griffey-jr-1', refsourceId: '709101', name: 'Ken Griffey Jr.', subtitle: '#1 Star Rookie', setName: '1989 Upper Deck', productType: 'single_card', game: 'baseball', year: 1989, releaseDate: null, ungradedUsd: 60, psa10Usd: 2_000, liquidity: flow(4) },
  { key: '1996-topps-chrome-kobe-bryant-138', refsourceId: '712138', name: 'Kobe Bryant', subtitle: '#138 Rookie', setName: '1996-97 Topps Chrome', productType: 'single_card', game: 'basketball', year: 1996, releaseDate: null, ungradedUsd: 600, psa10Usd: 14_000, liquidity: flow(1.2) },
  { key: '2000-playoff-contenders-tom-brady-144', refsourceId: '715144', name: 'Tom Brady', subtitle: '#144 Rookie Ticket Autograph', setName: '2000 Playoff Contenders', productType: 'single_card', game: 'football', year: 2000, releaseDate: null, ungradedUsd: 45_000, psa10Usd: 900_000, liquidity: flow(0.15) },
  // Sports, modern singles
  { key: '2003-topps-chrome-lebron-james-111', refsourceId: '1003111', name: 'LeBron James', subtitle: '#111 Rookie', setName: '2003-04 Topps Chrome', productType: 'single_card', game: 'basketball', year: 2003, releaseDate: null, ungradedUsd: 900, psa10Usd: 12_000, liquidity: flow(1) },
  { key: '2009-topps-chrome-stephen-curry-101', refsourceId: '1009101', name: 'Stephen Curry', subtitle: '#101 Rookie', setName: '2009-10 Topps Chrome', productType: 'single_card', game: 'basketball', year: 2009, releaseDate: null, ungradedUsd: 700, psa10Usd: 9_000, liquidity: flow(0.8) },
  { key: '2011-topps-update-mike-trout-us175', refsourceId: '1011175', name: 'Mike Trout', subtitle: '#US175 Rookie', setName: '2011 Topps Update', productType: 'single_card', game: 'baseball', year: 2011, releaseDate: null, ungradedUsd: 150, psa10Usd: 1_000, liquidity: flow(4) },
  { key: '2017-panini-prizm-patrick-mahomes-269', refsourceId: '1017269', name: 'Patrick Mahomes II', subtitle: '#269 Rookie', setName: '2017 Panini Prizm', productType: 'single_card', game: 'football', year: 2017, releaseDate: null, ungradedUsd: 250, psa10Usd: 1_600, liquidity: flow(4) },
  { key: '2018-topps-update-shohei-ohtani-us1', refsourceId: '1018001', name: 'Shohei Ohtani', subtitle: '#US1 Rookie', setName: '2018 Topps Update', productType: 'single_card', game: 'baseball', year: 2018, releaseDate: null, ungradedUsd: 60, psa10Usd: 500, liquidity: flow(8) },
  { key: '2018-panini-prizm-luka-doncic-280', refsourceId: '1018280', name: 'Luka Doncic', subtitle: '#280 Rookie', setName: '2018-19 Panini Prizm', productType: 'single_card', game: 'basketball', year: 2018, releaseDate: null, ungradedUsd: 120, psa10Usd: 900, liquidity: flow(5) },
  { key: '2019-panini-prizm-zion-williamson-248', refsourceId: '1019248', name: 'Zion Williamson', subtitle: '#248 Rookie', setName: '2019-20 Panini Prizm', productType: 'single_card', game: 'basketball', year: 2019, releaseDate: null, ungradedUsd: 20, psa10Usd: 120, liquidity: flow(6) },
  // Sports, sealed
  { key: '1986-fleer-basketball-wax-box', refsourceId: '708600', name: '1986-87 Fleer Basketball Wax Box', subtitle: '36 packs', setName: '1986-87 Fleer', productType: 'booster_box', game: 'basketball', year: 1986, releaseDate: null, ungradedUsd: 200_000, psa10Usd: null, liquidity: flow(0.03) },
  { key: '2023-panini-prizm-football-hobby-box', refsourceId: '3023300', name: '2023 Panini Prizm Football Hobby Box', subtitle: '12 packs', setName: '2023 Panini Prizm', productType: 'booster_box', game: 'football', year: 2023, releaseDate: null, ungradedUsd: 650, psa10Usd: null, liquidity: flow(3) },
  { key: '2024-topps-chrome-baseball-hobby-box', refsourceId: '3024400', name: '2024 Topps Chrome Baseball Hobby Box', subtitle: '12 packs', setName: '2024 Topps Chrome', productType: 'booster_box', game: 'baseball', year: 2024, releaseDate: null, ungradedUsd: 260, psa10Usd: null, liquidity: flow(3) },
];
