/**
 * The identity crosswalk: which product each source's own id names, so that the same card
 * from two sources is one product, never two (issue 33, item 4; docs/feeds.md, "One product
 * across sources").
 *
 * The API, for a feed that brings a source's ids:
 * - A catalog record claims identities with the fields of IDENTITY_FIELDS (`cardmarket_id`,
 *   `pricecharting_id`, `scryfall_id`, `psa_spec`), or a feed sets `Product.identities`
 *   itself; catalog ingest stores them in the table `product_identities` (product, scheme,
 *   value), unique on (scheme, value): an identity claimed by two product keys, in one file or
 *   one in the file and one stored, rejects both records naming both keys, and neither
 *   changes (ingest/write/product-identity.ts). A product holds one value per scheme; a record
 *   giving another value moves it.
 * - The scheme `tcgplayer` is the products' own `tcgplayer_id` and `printing` columns, kept as
 *   they were: catalog records claim it with `tcgplayer_id` (and `printing`), not here.
 * - `ProductLookup.findByIdentity(scheme, value)` (ingest, synchronous) and
 *   `ProductStore.findByIdentity` (async) find the product of an identity, for every scheme.
 *
 * A value is the source's id as text; where one id of the source prices two printings (a
 * Cardmarket product's plain and foil prices, a Scryfall card's finishes), the second is the
 * id with a suffix, `identityValue('274235', 'foil')` = `274235:foil`.
 */

export const IDENTITY_SCHEMES = ['tcgplayer', 'cardmarket', 'pricecharting', 'scryfall', 'psa_spec'] as const;
export type IdentityScheme = (typeof IDENTITY_SCHEMES)[number];

/** The schemes the table holds (`tcgplayer` lives in the products' columns). */
export type CrosswalkScheme = Exclude<IdentityScheme, 'tcgplayer'>;

export interface ProductIdentity {
  scheme: CrosswalkScheme;
  value: string;
}

/** The catalog record field of each crosswalk scheme. */
export const IDENTITY_FIELDS = {
  cardmarket: 'cardmarket_id',
  pricecharting: 'pricecharting_id',
  scryfall: 'scryfall_id',
  psa_spec: 'psa_spec',
} as const satisfies Record<CrosswalkScheme, string>;

/** A source id as the crosswalk stores it: `id`, or `id:variant` for its second printing (`foil`). */
export function identityValue(id: string | number, variant?: string | null): string {
  return variant ? `${id}:${variant}` : String(id);
}

/** How a message names an identity: `cardmarket_id 274235:foil`. */
export function describeIdentity(identity: { scheme: IdentityScheme; value: string }): string {
  return identity.scheme === 'tcgplayer'
    ? `tcgplayer_id ${identity.value}`
    : `${IDENTITY_FIELDS[identity.scheme]} ${identity.value}`;
}

/**
 * A `tcgplayer` value read back as the products' columns hold it: TCGplayer's product id and
 * the printing after the first colon (`517045:Reverse Holofoil`), null for none.
 */
export function tcgplayerIdentity(value: string): { tcgplayerId: string; printing: string | null } {
  const colon = value.indexOf(':');
  return colon < 0
    ? { tcgplayerId: value, printing: null }
    : { tcgplayerId: value.slice(0, colon), printing: value.slice(colon + 1) };
}
