/**
 * `oracle serve`: the HTTP API of SPEC.md until SIGTERM or SIGINT, then a graceful stop
 * (in-flight requests finish, pending key last-used times are written, the store closes).
 */
import { VERSION } from '../version.js';
import { createServer } from '../../http/create-server.js';
import { createBundleCache } from '../../http/bundle-cache.js';
import type { RedisRateLimiter } from '../../http/redis-rate-limit.js';
import { createOracle, type Oracle } from '../../service/oracle.js';
import {
  createOfflineResolver,
  createUnconfiguredResolver,
  type RefsourceResolver,
} from '../../service/refsource-resolver.js';
import { createUpstreamResolver } from '../../service/upstream-resolver.js';
import { startWatchLoop, type WatchLoop } from '../../service/watch-loop.js';
import { createWatchedStore } from '../../store/watched-store.js';
import { createRefsourceClient } from '../../upstream/refsource-client.js';
import { optionsOf, serveOptionValues } from '../command-options.js';
import type { CommandContext } from '../context.js';
import { serveConfig, type ServeConfig } from '../serve-config.js';
import { startupLines } from '../serve-startup.js';
import { noteTo, withService } from '../open-service.js';

export async function run(_args: unknown[], ctx: CommandContext): Promise<number> {
  const config = serveConfig(optionsOf(ctx, serveOptionValues));
  // Listened for from the start: a stop asked for while starting waits for the start to finish.
  // Removed however the run ends: a start-up that throws leaves no listener behind (a run in
  // process, as the tests make, goes on).
  let stop = () => {};
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  try {
    return await serve(config, ctx, stopped);
  } finally {
    process.off('SIGTERM', stop);
    process.off('SIGINT', stop);
  }
}

/** Serves until `stopped`, then stops gracefully. */
async function serve(config: ServeConfig, ctx: CommandContext, stopped: Promise<void>): Promise<number> {
  // The store reopens by itself (a replaced or restored file, a database server back up).
  const store = createWatchedStore(ctx.dbPath, { deadlines: config.deadlines, notice: noteTo(ctx) });
  const oracle = createOracle({ store, resolver: resolverFor(config), envKeys: config.apiKeys });
  const rateLimiter = config.redisUrl ? await sharedRateLimiter(config.redisUrl, config, ctx) : undefined;
  const bundles = createBundleCache();
  // prom-client is loaded only when metrics are asked for.
  const metrics = config.metrics
    ? (await import('../../http/metrics.js')).createMetrics(oracle, bundles)
    : undefined;
  const server = createServer(
    {
      oracle,
      bundles,
      metrics,
      rateLimiter,
      accessLog: (line) => ctx.stdout.write(line),
      errorLog: (line) => ctx.stderr.write(line),
    },
    {
      rateLimitPerMinute: config.rateLimitPerMinute,
      version: VERSION,
      corsOrigins: config.corsOrigins,
      pageAccess: config.publicPages ? 'public' : 'signed-in',
    },
  );
  let address;
  try {
    for (const line of await startupLines(oracle, config, ctx.dbPath)) ctx.stderr.write(`${line}\n`);
    address = await server.listen(config.port, config.host);
  } catch (error) {
    await rateLimiter?.close();
    await oracle.close();
    throw error;
  }
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  ctx.stderr.write(`listening on http://${host}:${address.port}\n`);
  const watch = config.watch ? watchRules(oracle, config, ctx) : undefined;

  await stopped;
  await watch?.stop();
  await server.close();
  await rateLimiter?.close();
  await oracle.close();
  return 0;
}

/**
 * `--watch`: checks the rules when the data version the server follows moves. A check writes
 * (rule states, events), so it runs on a read-write store of its own, opened per check; its
 * lines go to stderr (stdout is the access log).
 */
function watchRules(oracle: Oracle, config: ServeConfig, ctx: CommandContext): WatchLoop {
  const secret = ctx.env.ORACLE_WEBHOOK_SECRET || undefined;
  ctx.stderr.write(
    `watch: checking watch rules when the data changes${config.webhook ? `, events to ${new URL(config.webhook).origin}` : ''}\n`,
  );
  return startWatchLoop({
    dataVersion: () => oracle.dataVersion(),
    log: (line) => ctx.stderr.write(line),
    async check() {
      const now = ctx.clock();
      const report = await withService(
        ctx,
        (service) => service.checkWatches({ at: now, now, webhook: config.webhook, delivery: { secret } }),
        { write: true },
      );
      for (const event of report.fired) ctx.stderr.write(`watch: ${event.text} (${event.id})\n`);
      for (const d of report.deliveries)
        if (!d.delivered)
          ctx.stderr.write(`watch: ${d.event_id} not delivered to ${d.receiver}: ${d.error}\n`);
    },
  });
}

/**
 * The buckets in Redis (README "Rate limit"). Redis unreachable at start-up is no reason to
 * refuse: the server starts, limits per process, says so, and shares the limit once Redis answers.
 */
async function sharedRateLimiter(
  url: string,
  config: ServeConfig,
  ctx: CommandContext,
): Promise<RedisRateLimiter> {
  const { createRedisRateLimiter, redisLocation } = await import('../../http/redis-rate-limit.js');
  const limiter = createRedisRateLimiter({
    url,
    limitPerMinute: config.rateLimitPerMinute,
    log: (line) => ctx.stderr.write(line),
  });
  if (await limiter.connect())
    ctx.stderr.write(
      `rate limit: ${config.rateLimitPerMinute}/min per key, shared through Redis at ${redisLocation(url)}\n`,
    );
  return limiter;
}

/** CONTRACT.md decision 3: offline beats an upstream; neither means refsource routes answer 503. */
function resolverFor(config: ServeConfig): RefsourceResolver {
  if (config.offline) return createOfflineResolver();
  if (!config.refsourceUrl) return createUnconfiguredResolver();
  return createUpstreamResolver(
    createRefsourceClient({ urlTemplate: config.refsourceUrl, token: config.refsourceToken }),
  );
}
