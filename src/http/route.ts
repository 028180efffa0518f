/**
 * What a route is: its path, whether it needs a key and a token, the schemas of its input and
 * of its 200 body, the statuses it documents, and one handler that calls the oracle once.
 * The server registers these and the OpenAPI document is generated from the same objects.
 */
import type { z } from 'zod';
import type { Oracle } from '../service/oracle.js';
import type { ServerCache } from './server-cache.js';

export interface RouteContext<P, Q> {
  params: P;
  query: Q;
  /** The request's clock reading, epoch ms. */
  now: number;
  oracle: Oracle;
  /** The server's caches (server-cache.ts): a route whose answers repeat goes through them. */
  cache: ServerCache;
  /** The id of the request's API key; null on a route without one. */
  keyId: string | null;
}

/** A 200 body the service has serialised already (a history, written in turns): sent as these bytes. */
export class JsonBytes {
  constructor(readonly bytes: Buffer) {}
}

export interface Route<
  PS extends z.ZodObject | undefined = z.ZodObject | undefined,
  QS extends z.ZodObject | undefined = z.ZodObject | undefined,
  RS extends z.ZodType = z.ZodType,
> {
  /** polka pattern: `/api/v1/developer/pricing/:product_key`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  /** Needs a valid API key (every route but health and the OpenAPI document). */
  auth: boolean;
  /** Takes a token from the key's bucket (the pricing, refsource and snapshot routes). */
  rateLimited: boolean;
  pathParams: PS;
  query: QS;
  response: RS;
  /** Error statuses this route can answer, for the OpenAPI document. */
  errors: readonly number[];
  /** The 200 body is this text type, sent as the string `handle` returns; absent: JSON. */
  contentType?: string;
  handle(
    ctx: RouteContext<
      PS extends z.ZodObject ? z.output<PS> : undefined,
      QS extends z.ZodObject ? z.output<QS> : undefined
    >,
  ): Promise<z.output<RS> | JsonBytes>;
}

/** Keeps a route's handler typed against its own schemas. */
export function defineRoute<
  PS extends z.ZodObject | undefined,
  QS extends z.ZodObject | undefined,
  RS extends z.ZodType,
>(route: Route<PS, QS, RS>): Route {
  return route as unknown as Route;
}

export const API_PREFIX = '/api/v1';
