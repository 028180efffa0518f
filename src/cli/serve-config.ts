/**
 * `oracle serve`'s configuration, parsed once: a flag beats its environment variable, which
 * beats the default (CONTRACT.md). A bad value is a usage error naming the option.
 */
import { z } from 'zod';
import { UsageError } from './exit-codes.js';

export interface ServeConfig {
  host: string;
  port: number;
  rateLimitPerMinute: number;
  /** Upstream URL template with `{id}`; undefined when none is configured. */
  refsourceUrl?: string;
  /** Bearer token for the upstream (ORACLE_REFSOURCE_TOKEN). */
  refsourceToken?: string;
  offline: boolean;
  /** Keys from ORACLE_API_KEYS, accepted besides the stored ones. */
  apiKeys: string[];
  /** Redis holding the rate limit's buckets, shared by every replica; undefined: the buckets live in this process. */
  redisUrl?: string;
  /** Serve Prometheus metrics at GET /metrics. */
  metrics: boolean;
  /** Origins a browser may call the API from (CORS); `*` for any; empty: CORS off. */
  corsOrigins: string[];
}

export const SERVE_DEFAULTS = { host: '127.0.0.1', port: 8080, rateLimitPerMinute: 120 } as const;

const nonEmpty = (value: unknown) => (value === '' ? undefined : value);

const ON_OFF: Record<string, boolean> = { '1': true, true: true, yes: true, on: true, '0': false, false: false, no: false, off: false };

/** `*`, or an origin as a browser sends it: scheme, host, optional port; no path. */
const ORIGIN = /^(\*|https?:\/\/[^/\s:]+(:\d{1,5})?)$/;

const schema = z.object({
  host: z.string().min(1, 'must not be empty').default(SERVE_DEFAULTS.host),
  port: z.coerce
    .number({ error: 'must be an integer from 0 to 65535' })
    .int('must be an integer from 0 to 65535')
    .min(0, 'must be an integer from 0 to 65535')
    .max(65535, 'must be an integer from 0 to 65535')
    .default(SERVE_DEFAULTS.port),
  rateLimitPerMinute: z.coerce
    .number({ error: 'must be a positive integer (requests per minute)' })
    .int('must be a positive integer (requests per minute)')
    .min(1, 'must be a positive integer (requests per minute)')
    .default(SERVE_DEFAULTS.rateLimitPerMinute),
  refsourceUrl: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
    .refine((url) => url.includes('{id}'), 'must contain {id} where the product id goes')
    .optional(),
  refsourceToken: z.string().optional(),
  offline: z.boolean().default(false),
  apiKeys: z
    .string()
    .optional()
    .transform((list) => (list ?? '').split(',').map((key) => key.trim()).filter((key) => key !== '')),
  redisUrl: z
    .url({ protocol: /^redis$/, error: 'must be a redis:// URL: redis://[user:password@]host:port[/db]' })
    .refine((url) => !URL.canParse(url) || /^\/?(\d+)?$/.test(new URL(url).pathname), 'must name the database by its number, e.g. redis://host:6379/0')
    .optional(),
  metrics: z
    .union([z.boolean(), z.string().transform((value) => ON_OFF[value.trim().toLowerCase()])])
    .pipe(z.boolean({ error: 'must be 1 or 0 (true/false, yes/no, on/off)' }))
    .default(false),
  corsOrigins: z
    .string()
    .optional()
    .transform((list) => (list ?? '').split(',').map((origin) => origin.trim().replace(/\/$/, '')).filter((origin) => origin !== ''))
    .refine(
      (origins) => origins.every((origin) => ORIGIN.test(origin)),
      'must be * or origins like https://dashboard.example.com (scheme, host and optional port, comma-separated)',
    ),
});

/** Names of the options as the user typed them, for error messages. */
const OPTION_NAMES: Record<string, string> = {
  host: '--host (ORACLE_HOST)',
  port: '--port (ORACLE_PORT)',
  rateLimitPerMinute: '--rate-limit (ORACLE_RATE_LIMIT)',
  refsourceUrl: '--refsource-url (ORACLE_REFSOURCE_URL)',
  refsourceToken: 'ORACLE_REFSOURCE_TOKEN',
  offline: '--offline',
  apiKeys: 'ORACLE_API_KEYS',
  redisUrl: '--redis (ORACLE_REDIS_URL)',
  metrics: '--metrics (ORACLE_METRICS)',
  corsOrigins: '--cors (ORACLE_CORS_ORIGIN)',
};

export function parseServeConfig(options: Record<string, unknown>, env: NodeJS.ProcessEnv): ServeConfig {
  const result = schema.safeParse({
    host: nonEmpty(options.host ?? env.ORACLE_HOST),
    port: nonEmpty(options.port ?? env.ORACLE_PORT),
    rateLimitPerMinute: nonEmpty(options.rateLimit ?? env.ORACLE_RATE_LIMIT),
    refsourceUrl: nonEmpty(options.refsourceUrl ?? env.ORACLE_REFSOURCE_URL),
    refsourceToken: nonEmpty(env.ORACLE_REFSOURCE_TOKEN),
    offline: options.offline === true,
    apiKeys: env.ORACLE_API_KEYS,
    redisUrl: nonEmpty(options.redis ?? env.ORACLE_REDIS_URL),
    metrics: options.metrics === true ? true : nonEmpty(env.ORACLE_METRICS),
    corsOrigins: nonEmpty(options.cors ?? env.ORACLE_CORS_ORIGIN),
  });
  if (!result.success) {
    const issue = result.error.issues[0];
    const field = String(issue?.path[0] ?? '');
    throw new UsageError(`${OPTION_NAMES[field] ?? field} ${issue?.message ?? 'is invalid'}`, { cause: result.error });
  }
  return result.data;
}
