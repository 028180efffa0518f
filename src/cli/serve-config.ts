/**
 * `oracle serve`'s options, each declared once with its environment variable, default and
 * parser (options.ts), and the configuration the command reads from them. A bad value is a
 * usage error naming the option and its variable.
 */
import { Option } from 'commander';
import { parseIntInRange, parseWholeNumber } from '../domain/params.js';
import { UsageError } from './exit-codes.js';
import { configOption } from './options.js';

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

const ON_OFF: Record<string, boolean> = { '1': true, true: true, yes: true, on: true, '0': false, false: false, no: false, off: false };

/** `*`, or an origin as a browser sends it: scheme, host, optional port; no path. */
const ORIGIN = /^(\*|https?:\/\/[^/\s:]+(:\d{1,5})?)$/;

/** A comma-separated list: items trimmed, empty ones dropped. */
const list = (raw: string) => raw.split(',').map((item) => item.trim()).filter((item) => item !== '');

const text = (_name: string, raw: string) => raw;

function refsourceUrl(name: string, raw: string): string {
  const url = URL.canParse(raw) ? new URL(raw) : null;
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new UsageError(`${name} must be an http(s) URL (got ${JSON.stringify(raw)})`);
  }
  if (!raw.includes('{id}')) throw new UsageError(`${name} must contain {id} where the product id goes (got ${JSON.stringify(raw)})`);
  return raw;
}

function redisUrl(name: string, raw: string): string {
  const url = URL.canParse(raw) ? new URL(raw) : null;
  if (url === null || url.protocol !== 'redis:') {
    throw new UsageError(`${name} must be a redis:// URL: redis://[user:password@]host:port[/db] (got ${JSON.stringify(raw)})`);
  }
  if (!/^\/?(\d+)?$/.test(url.pathname)) throw new UsageError(`${name} must name the database by its number, e.g. redis://host:6379/0`);
  return raw;
}

function onOff(name: string, raw: string): boolean {
  const value = ON_OFF[raw.trim().toLowerCase()];
  if (value === undefined) throw new UsageError(`${name} must be 1 or 0 (true/false, yes/no, on/off) (got ${JSON.stringify(raw)})`);
  return value;
}

function corsOrigins(name: string, raw: string): string[] {
  const origins = list(raw).map((origin) => origin.replace(/\/$/, ''));
  const bad = origins.find((origin) => !ORIGIN.test(origin));
  if (bad !== undefined) {
    throw new UsageError(
      `${name} must be * or origins like https://dashboard.example.com (scheme, host and optional port, comma-separated; got ${JSON.stringify(bad)})`,
    );
  }
  return origins;
}

/** The options of `oracle serve`, in the order its --help lists them. */
export function serveOptions(): Option[] {
  return [
    configOption('--host <addr>', 'address to listen on', { env: 'ORACLE_HOST', default: SERVE_DEFAULTS.host, parse: text }),
    configOption('--port <n>', 'port, 0 for any free one', {
      env: 'ORACLE_PORT',
      default: SERVE_DEFAULTS.port,
      parse: (name, raw) => parseIntInRange(name, raw, { min: 0, max: 65535, default: SERVE_DEFAULTS.port }),
    }),
    configOption('--rate-limit <n>', 'requests per minute per key on pricing routes', {
      env: 'ORACLE_RATE_LIMIT',
      default: SERVE_DEFAULTS.rateLimitPerMinute,
      parse: (name, raw) => parseWholeNumber(name, raw, { min: 1, unit: 'requests per minute' }),
    }),
    configOption('--refsource-url <template>', 'upstream URL template containing {id}', { env: 'ORACLE_REFSOURCE_URL', parse: refsourceUrl }),
    configOption('--refsource-token <token>', 'bearer token sent to the upstream (prefer the variable: a flag shows in ps)', {
      env: 'ORACLE_REFSOURCE_TOKEN',
      parse: text,
    }),
    new Option('--offline', 'resolve reference-source ids from the local catalog only'),
    configOption('--api-keys <keys>', 'comma-separated keys accepted besides those of oracle keys (prefer the variable: a flag shows in ps)', {
      env: 'ORACLE_API_KEYS',
      default: [],
      defaultText: 'none',
      parse: (_name, raw) => list(raw),
    }),
    configOption('--redis <url>', 'keep the rate limit in Redis, shared by every replica: redis://host:port[/db]', {
      env: 'ORACLE_REDIS_URL',
      parse: redisUrl,
    }),
    configOption('--metrics [1|0]', 'serve Prometheus metrics at GET /metrics', { env: 'ORACLE_METRICS', default: false, defaultText: 'off', parse: onOff }).preset('1'),
    configOption('--cors <origins>', 'let browsers on this origin (or comma-separated origins, or *) call the API', {
      env: 'ORACLE_CORS_ORIGIN',
      default: [],
      defaultText: 'off',
      parse: corsOrigins,
    }),
  ];
}

/** The configuration from `oracle serve`'s parsed options. */
export function serveConfig(options: Record<string, unknown>): ServeConfig {
  return {
    host: options.host as string,
    port: options.port as number,
    rateLimitPerMinute: options.rateLimit as number,
    refsourceUrl: options.refsourceUrl as string | undefined,
    refsourceToken: options.refsourceToken as string | undefined,
    offline: options.offline === true,
    apiKeys: options.apiKeys as string[],
    redisUrl: options.redis as string | undefined,
    metrics: options.metrics === true,
    corsOrigins: options.cors as string[],
  };
}
