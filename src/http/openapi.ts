/**
 * The OpenAPI 3.1 document, generated from the route table and its zod schemas: a route,
 * parameter or field the server does not have cannot appear here, and the reverse.
 */
import { z } from 'zod';
import type { Route } from './route.js';
import { apiComponents, errorResponse } from './schemas.js';

/** SPEC.md section 7. */
const STATUS_MEANINGS: Record<number, string> = {
  400: 'Unknown product_key, invalid parameter (the detail names it and its range), or no catalog mapping for a reference-source id.',
  401: 'Missing or invalid API key.',
  403: 'Valid key, write method used: the API is read-only.',
  422: 'Snapshot: missing or invalid date, or a date in the future.',
  429: 'Rate limit exceeded: see Retry-After and the RateLimit headers; back off exponentially.',
  500: 'Oracle computation failure.',
  502: 'Upstream data source failed, with no local fallback.',
  503: 'Database unreachable, or upstream data source not configured.',
};

const COMPONENT_URI = (id: string) => `#/components/schemas/${id}`;

/** Builds the document for `routes`; `version` is the package version. */
export function openApiDocument(routes: readonly Route[], version: string): Record<string, unknown> {
  const { schemas } = z.toJSONSchema(apiComponents, { uri: COMPONENT_URI, target: 'draft-2020-12' });
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
        'Every response is application/json; errors are `{detail}`. HEAD is allowed wherever GET is; ' +
        'POST, PUT, PATCH and DELETE answer 403 (401 without a valid key).',
    },
    components: {
      schemas: Object.fromEntries(Object.entries(schemas).map(([id, schema]) => [id, stripSchemaHeader(schema)])),
      securitySchemes: {
        apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        bearer: { type: 'http', scheme: 'bearer' },
      },
    },
    paths,
  };
}

function operation(route: Route): Record<string, unknown> {
  const responses: Record<string, unknown> = {
    '200': { description: 'OK', content: { [route.contentType ?? 'application/json']: { schema: schemaOf(route.response) } } },
  };
  for (const status of route.errors) {
    responses[String(status)] = {
      description: STATUS_MEANINGS[status] ?? String(status),
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
    const { description, ...paramSchema } = stripSchemaHeader(z.toJSONSchema(field, { io: 'output', target: 'draft-2020-12' })) as {
      description?: string;
    };
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
  return id ? { $ref: COMPONENT_URI(id) } : stripSchemaHeader(z.toJSONSchema(schema, { target: 'draft-2020-12' }));
}

function stripSchemaHeader(schema: object): object {
  const { $schema: _schema, $id: _id, ...rest } = schema as Record<string, unknown>;
  return rest;
}
