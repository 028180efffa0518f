/** The schemas of the market index routes (docs/indexes.md): the bodies of `oracle index list --json` and `show --json`. */
import { z } from 'zod';
import { every, HISTORY_DEFAULT_DAYS } from '../domain/history.js';
import { INDEX_NAME, INDEX_MAX_POINTS, INDEX_PUBLISHED_EVERY, indexVersion } from '../domain/market-index.js';
import type { IndexBody, IndexDefinitionBody } from '../service/market-index.js';
import {
  apiComponents,
  field,
  instantField,
  INSTANT_FORMS,
  outlierStddevsField,
  windowHoursField,
  type Same,
} from './schemas.js';

export const indexNamePath = z.object({
  name: z
    .string()
    .regex(INDEX_NAME)
    .meta({ description: 'The index name (lower-case letters, digits, hyphens).' }),
});

export const indexQuery = z.object({
  from: instantField(
    `First point shown (default: ${HISTORY_DEFAULT_DAYS} days before \`to\`, the base date at the earliest). ${INSTANT_FORMS}`,
  ),
  to: instantField(`Last instant, not later than now (default: now). ${INSTANT_FORMS}`),
  every: field(every, {
    description: `Step the index is chained at from its base date: \`<n>h\`, \`<n>d\` or \`<n>w\`; at most ${INDEX_MAX_POINTS} steps from the base date.`,
  }),
  window_hours: windowHoursField,
  outlier_stddevs: outlierStddevsField,
  version: field(z.optional(indexVersion), {
    description: `Read each published day at its latest version up to this one (\`oracle index publish\`); only with every ${INDEX_PUBLISHED_EVERY} and the default window_hours and outlier_stddevs. Default: the latest.`,
  }),
});

const definitionShape = {
  name: z.string(),
  label: z.string(),
  selector: z
    .string()
    .meta({ description: 'What picks the members: set, era, product_type, search, products.' }),
  selector_value: z.string(),
  slot: z.string(),
  method: z.string(),
  base_date: z.string(),
  base_value: z.number(),
  created_at: z.iso.datetime(),
};

export const indexDefinition = z.object(definitionShape).register(apiComponents, { id: 'IndexDefinition' });

export const indexListResponse = z
  .object({ total: z.int().nonnegative(), indexes: z.array(indexDefinition) })
  .register(apiComponents, { id: 'IndexList' });

export const indexResponse = z
  .object({
    ...definitionShape,
    from: z.iso.datetime(),
    to: z.iso.datetime(),
    every: z.string(),
    members: z.int().nonnegative(),
    points: z.array(
      z.object({
        at: z.iso.datetime(),
        value: z.number(),
        low: z.number(),
        high: z.number(),
        priced: z
          .int()
          .nonnegative()
          .meta({ description: 'Members with a price of their own at this instant.' }),
        linked: z
          .int()
          .nonnegative()
          .meta({ description: 'Members the step into this instant was measured over.' }),
        version: z.int().positive().nullable().meta({
          description:
            'The published version of this value (`oracle index publish`; a restated day has a higher one); null: not published, computed at the request.',
        }),
      }),
    ),
    change_pct: z.number().nullable(),
    top_contributors: z.array(
      z.object({ product_key: z.string(), product_name: z.string(), contribution_pct: z.number() }),
    ),
  })
  .register(apiComponents, { id: 'Index' });

const definitionMatches: Same<z.output<typeof indexDefinition>, IndexDefinitionBody> = true;
const indexMatches: Same<z.output<typeof indexResponse>, IndexBody> = true;
void definitionMatches;
void indexMatches;
