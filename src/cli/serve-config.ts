/**
 * `oracle serve`'s options, each declared once with its environment variable, default and
 * schema (options.ts), and the configuration the command reads from them. A bad value is a
 * usage error naming the option and its variable. These are the server's configuration, read
 * by the CLI alone (the API takes none of them), so their schemas live here.
 */
import { Option } from 'commander';
import * as z from 'zod/mini';
import { checkedText, deferred, integerInRange, wholeNumber } from '../domain/input.js';
import { DEADLINE_DEFAULTS, type DatabaseDeadlines } from '../store/store.js';
import type { serveOptionValues } from './command-options.js';
import { configOption, viaSchema } from './options.js';
import { webhookOption } from './watch-options.js';

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
  /** The web pages open to anyone who reaches the server, without signing in (docs/web.md). */
  publicPages: boolean;
  /** How long a call on a PostgreSQL database may take before the request is a 503. */
  deadlines: DatabaseDeadlines;
  /** Check the watch rules when the data changes (docs/alerts.md). */
  watch: boolean;
  /** Where events of rules without a URL of their own go (ORACLE_WEBHOOK_URL). */
  webhook?: string;
}

export const SERVE_DEFAULTS = { host: '127.0.0.1', port: 8080, rateLimitPerMinute: 120 } as const;

const ON_OFF: Record<string, boolean> = {
  '1': true,
  true: true,
  yes: true,
  on: true,
  '0': false,
  false: false,
  no: false,
  off: false,
};

/** `*`, or an origin as a browser sends it: scheme, host, optional port; no path. */
const ORIGIN = /^(\*|https?:\/\/[^/\s:]+(:\d{1,5})?)$/;

/** A comma-separated list: items trimmed, empty ones dropped. */
const list = (raw: string) =>
  raw
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');

const text = (_name: string, raw: string) => raw;

/** `--port` (ORACLE_PORT): 0 asks the system for a free port. */
const port = integerInRange({ min: 0, max: 65535 });

/** `--rate-limit` (ORACLE_RATE_LIMIT): each key's bucket, in requests a minute. */
const rateLimit = wholeNumber({ min: 1, unit: 'requests per minute' });

/** `--db-connect-timeout`, `--db-statement-timeout`: a PostgreSQL deadline, in ms. */
const deadline = wholeNumber({ min: 1, unit: 'milliseconds' });

/** `--refsource-url` (ORACLE_REFSOURCE_URL): the upstream's URL template. */
const refsourceUrl = checkedText((raw = '') => {
  const url = URL.canParse(raw) ? new URL(raw) : null;
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    return `must be an http(s) URL (got ${JSON.stringify(raw)})`;
  return raw.includes('{id}')
    ? null
    : `must contain {id} where the product id goes (got ${JSON.stringify(raw)})`;
});

/** `--redis` (ORACLE_REDIS_URL): the Redis holding the rate limit's buckets. */
const redisUrl = checkedText((raw = '') => {
  const url = URL.canParse(raw) ? new URL(raw) : null;
  if (url === null || url.protocol !== 'redis:')
    return `must be a redis:// URL: redis://[user:password@]host:port[/db] (got ${JSON.stringify(raw)})`;
  return /^\/?(\d+)?$/.test(url.pathname)
    ? null
    : 'must name the database by its number, e.g. redis://host:6379/0';
});

/** `--metrics` (ORACLE_METRICS): on or off, in the words a unit file or compose file uses. */
const onOff = deferred(() =>
  z.pipe(
    checkedText((raw = '') =>
      ON_OFF[raw.trim().toLowerCase()] === undefined
        ? `must be 1 or 0 (true/false, yes/no, on/off) (got ${JSON.stringify(raw)})`
        : null,
    ),
    z.transform((raw) => ON_OFF[raw.trim().toLowerCase()] as boolean),
  ),
);

const origins = (raw: string) => list(raw).map((origin) => origin.replace(/\/$/, ''));

/** `--cors` (ORACLE_CORS_ORIGIN): the origins a browser may call the API from. */
const corsOrigins = deferred(() =>
  z.pipe(
    checkedText((raw = '') => {
      const bad = origins(raw).find((origin) => !ORIGIN.test(origin));
      return bad === undefined
        ? null
        : `must be * or origins like https://dashboard.example.com (scheme, host and optional port, comma-separated; got ${JSON.stringify(bad)})`;
    }),
    z.transform(origins),
  ),
);

/** The options of `oracle serve`, in the order its --help lists them. */
export function serveOptions(): Option[] {
  return [
    configOption('--host <addr>', 'address to listen on', {
      env: 'ORACLE_HOST',
      default: SERVE_DEFAULTS.host,
      parse: text,
    }),
    configOption('--port <n>', 'port, 0 for any free one', {
      env: 'ORACLE_PORT',
      default: SERVE_DEFAULTS.port,
      parse: viaSchema(port),
    }),
    configOption('--rate-limit <n>', 'requests per minute per key on pricing routes', {
      env: 'ORACLE_RATE_LIMIT',
      default: SERVE_DEFAULTS.rateLimitPerMinute,
      parse: viaSchema(rateLimit),
    }),
    configOption('--refsource-url <template>', 'upstream URL template containing {id}', {
      env: 'ORACLE_REFSOURCE_URL',
      parse: viaSchema(refsourceUrl),
    }),
    configOption(
      '--refsource-token <token>',
      'bearer token sent to the upstream (prefer the variable: a flag shows in ps)',
      {
        env: 'ORACLE_REFSOURCE_TOKEN',
        parse: text,
      },
    ),
    new Option('--offline', 'resolve reference-source ids from the local catalog only'),
    configOption(
      '--api-keys <keys>',
      'comma-separated keys accepted besides those of oracle keys (prefer the variable: a flag shows in ps)',
      {
        env: 'ORACLE_API_KEYS',
        default: [],
        defaultText: 'none',
        parse: (_name, raw) => list(raw),
      },
    ),
    configOption(
      '--redis <url>',
      'keep the rate limit in Redis, shared by every replica: redis://host:port[/db]',
      {
        env: 'ORACLE_REDIS_URL',
        parse: viaSchema(redisUrl),
      },
    ),
    configOption('--metrics [1|0]', 'serve Prometheus metrics at GET /metrics', {
      env: 'ORACLE_METRICS',
      default: false,
      defaultText: 'off',
      parse: viaSchema(onOff),
    }).preset('1'),
    configOption('--db-connect-timeout <ms>', 'PostgreSQL: longest wait for a connection, then 503', {
      env: 'ORACLE_DB_CONNECT_TIMEOUT',
      default: DEADLINE_DEFAULTS.serve.connectMs,
      parse: viaSchema(deadline),
    }),
    configOption('--db-statement-timeout <ms>', 'PostgreSQL: longest a statement may run, then 503', {
      env: 'ORACLE_DB_STATEMENT_TIMEOUT',
      default: DEADLINE_DEFAULTS.serve.statementMs,
      parse: viaSchema(deadline),
    }),
    configOption(
      '--cors <origins>',
      'let browsers on this origin (or comma-separated origins, or *) call the API',
      {
        env: 'ORACLE_CORS_ORIGIN',
        default: [],
        defaultText: 'off',
        parse: viaSchema(corsOrigins),
      },
    ),
    new Option(
      '--public',
      'open the web pages (GET /) to anyone who reaches the server, without a key: for a trusted network only (docs/web.md); the API still needs one',
    ),
    new Option(
      '--watch',
      'check the watch rules whenever the data changes (and every minute), and POST their events (docs/alerts.md)',
    ),
    webhookOption(
      'with --watch: POST events of rules without a URL of their own here (signed when ORACLE_WEBHOOK_SECRET is set)',
    ),
  ];
}

/** The configuration from `oracle serve`'s parsed options. */
export function serveConfig(options: z.output<typeof serveOptionValues>): ServeConfig {
  return {
    host: options.host,
    port: options.port,
    rateLimitPerMinute: options.rateLimit,
    refsourceUrl: options.refsourceUrl,
    refsourceToken: options.refsourceToken,
    offline: options.offline === true,
    apiKeys: options.apiKeys,
    redisUrl: options.redis,
    metrics: options.metrics,
    corsOrigins: options.cors,
    publicPages: options.public === true,
    deadlines: { connectMs: options.dbConnectTimeout, statementMs: options.dbStatementTimeout },
    watch: options.watch === true,
    webhook: options.webhook,
  };
}
