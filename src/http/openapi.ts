/**
 * The OpenAPI 3.1 document, generated from the route table and its zod schemas: a route,
 * parameter, field or header the server does not have cannot appear here, and the reverse
 * (test/http/_helpers.ts checks every response of the HTTP suite against it).
 */
import { z } from 'zod';
import type { Route } from './route.js';
import {
  apiComponents,
  errorResponse,
  keyHeaders,
  rateLimitHeaders,
  retryAfterHeader,
  wwwAuthenticateHeader,
} from './schemas.js';

/** SPEC.md section 7, as each route can answer it. */
const STATUS_MEANINGS: Record<number, string> = {
  400: 'Unknown product_key, invalid parameter (the detail names it and its range), or no catalog mapping for a reference-source id.',
  401: 'Missing or invalid API key.',
  422: 'Snapshot: missing or invalid date, or a date in the future.',
  429: 'Rate limit exceeded: wait Retry-After seconds; back off exponentially.',
  500: 'Oracle computation failure.',
  502: 'Upstream data source failed, with no local fallback.',
  503: 'Database unreachable, or upstream data source not configured.',
};

/** Every route answers it, before any route is chosen. */
const MALFORMED = 'Malformed request: HTTP/1.1 without a Host header.';

const COMPONENT_URI = (id: string) => `#/components/schemas/${id}`;

type JsonSchema = Record<string, unknown>;

/**
 * What zod writes that says less than it seems: a safe-integer check becomes bounds of
 * ±(2^53 - 1), and a set of integer literals a `number` enum.
 */
function plainer({ jsonSchema }: { jsonSchema: JsonSchema }): void {
  if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
  if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
  if (
    jsonSchema.type === 'number' &&
    Array.isArray(jsonSchema.enum) &&
    jsonSchema.enum.every(Number.isInteger)
  )
    jsonSchema.type = 'integer';
  // zod's date and date-time checks are a long regular expression; the format names them.
  if (jsonSchema.format === 'date' || jsonSchema.format === 'date-time') delete jsonSchema.pattern;
}

/** `schema` as JSON Schema, of the value the handler receives (a parameter's default applied, an integer parsed). */
function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  const {
    $schema: _schema,
    $id: _id,
    ...rest
  } = z.toJSONSchema(schema, { io: 'output', target: 'draft-2020-12', override: plainer }) as JsonSchema;
  return rest;
}

/** Builds the document for `routes`; `version` is the package version. */
export function openApiDocument(routes: readonly Route[], version: string): Record<string, unknown> {
  const { schemas } = z.toJSONSchema(apiComponents, {
    uri: COMPONENT_URI,
    target: 'draft-2020-12',
    override: plainer,
  });
  const paths: Record<string, unknown> = {};
  for (const route of routes) {
    paths[route.path.replace(/:(\w+)/g, '{$1}')] = { get: operation(route) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'oracle',
      version,
      description:
        'Read-only price oracle for collectible trading cards: TWAP pricing bundles, a catalog and snapshots. ' +
        "Every response is application/json; errors are `{detail}`. HEAD is allowed wherever GET is, with GET's status and headers. " +
        'POST, PUT, PATCH and DELETE are not operations of this API: they answer 401 without a valid key, 403 with one.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: '/', description: 'The server this document is served from.' }],
    components: {
      schemas: Object.fromEntries(
        Object.entries(schemas).map(([id, { $id: _id, $schema: _schema, ...schema }]) => [id, schema]),
      ),
      securitySchemes: {
        apiKeyHeader: {
          type: 'apiKey',
          in: 'header',
          name: 'X-API-Key',
          description: keyHeaders.shape['x-api-key'].meta()?.description,
        },
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: keyHeaders.shape.authorization.meta()?.description,
        },
      },
    },
    paths,
  };
}

/** Header objects by name, as a response lists them (inline: `required` may not stand beside a $ref). */
const HEADERS: Record<string, { description?: string; schema: JsonSchema }> = Object.fromEntries(
  [
    ...Object.entries(rateLimitHeaders.shape),
    ['Retry-After', retryAfterHeader],
    ['WWW-Authenticate', wwwAuthenticateHeader],
  ].map(([name, schema]) => {
    const { description, ...headerSchema } = jsonSchemaOf(schema as z.ZodType);
    return [name, { description: description as string | undefined, schema: headerSchema }];
  }),
);

const header = (name: string, required: boolean) => ({ ...HEADERS[name], required });

/**
 * The headers of a response with `status` on `route`. The rate-limit headers come with every
 * answer of a rate-limited route that got as far as the key's bucket: always with a 200 or a
 * 429, with a later error when it came after the bucket (a bad parameter), never with a 401.
 */
function headers(route: Route, status: number): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  if (route.rateLimited && status !== 401) {
    for (const name of Object.keys(rateLimitHeaders.shape))
      out[name] = header(name, status === 200 || status === 429);
  }
  if (status === 429) out['Retry-After'] = header('Retry-After', true);
  if (status === 401) out['WWW-Authenticate'] = header('WWW-Authenticate', true);
  return Object.keys(out).length > 0 ? out : undefined;
}

function operation(route: Route): Record<string, unknown> {
  const responses: Record<string, unknown> = {
    '200': {
      description: 'OK',
      headers: headers(route, 200),
      content: { [route.contentType ?? 'application/json']: { schema: schemaOf(route.response) } },
    },
  };
  for (const status of [...new Set([400, ...route.errors])].sort()) {
    const description =
      status !== 400
        ? STATUS_MEANINGS[status]
        : route.errors.includes(400)
          ? `${STATUS_MEANINGS[400]} Or: ${MALFORMED}`
          : MALFORMED;
    responses[String(status)] = {
      description: description ?? String(status),
      headers: headers(route, status),
      content: { 'application/json': { schema: schemaOf(errorResponse) } },
    };
  }
  return {
    operationId: route.operationId,
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    parameters: [...parameters(route.pathParams, 'path'), ...parameters(route.query, 'query')],
    security: route.auth ? [{ apiKeyHeader: [] }, { bearer: [] }] : [],
    responses,
  };
}

/** One parameter per field: its schema as the handler receives the value, required when it has no default. */
function parameters(schema: z.ZodObject | undefined, location: 'path' | 'query'): unknown[] {
  if (!schema) return [];
  return Object.entries(schema.shape as Record<string, z.ZodType>).map(([name, field]) => {
    const { description, ...paramSchema } = jsonSchemaOf(field);
    return {
      name,
      in: location,
      required: location === 'path' || !field.safeParse(undefined).success,
      ...(description ? { description } : {}),
      schema: paramSchema,
    };
  });
}

/** A named component by reference, anything else inline. */
function schemaOf(schema: z.ZodType): unknown {
  const id = apiComponents.get(schema)?.id;
  return id ? { $ref: COMPONENT_URI(id) } : jsonSchemaOf(schema);
}
