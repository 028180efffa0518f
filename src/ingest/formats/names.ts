/** The containers of canonical records. */
export const CONTAINER_FORMATS = ['csv', 'ndjson', 'json'] as const;
export type ContainerFormat = (typeof CONTAINER_FORMATS)[number];

/**
 * Every value `oracle ingest --format` accepts: the containers, then the registry's feed
 * formats (index.ts) by name. Listed apart from the formats' code so that the CLI's option
 * table loads none of it; test/ingest/formats/formats.test.ts checks it against the registry.
 */
export const FORMAT_NAMES: readonly string[] = [
  ...CONTAINER_FORMATS,
  'pricecharting',
  'tcgplayer',
  'tcgplayer-prices',
  'sold-listings',
  'cardmarket',
  // Not a record format: the ECB's reference rates, read beside the record pipeline (ingest/rates.ts).
  'ecb-rates',
];
