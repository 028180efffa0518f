/**
 * `oracle serve`: the HTTP API of SPEC.md until SIGTERM or SIGINT, then a graceful stop
 * (in-flight requests finish, pending key last-used times are written, the store closes).
 */
import { VERSION } from '../version.js';
import { createServer } from '../../http/create-server.js';
import { createApiService } from '../../service/api-service.js';
import {
  createOfflineResolver,
  createUnconfiguredResolver,
  createUpstreamResolver,
  type RefsourceResolver,
} from '../../service/refsource-resolver.js';
import { createRefsourceClient } from '../../upstream/refsource-client.js';
import type { CommandContext } from '../context.js';
import { parseServeConfig, type ServeConfig } from '../serve-config.js';

export async function run(_args: unknown[], ctx: CommandContext): Promise<number> {
  const config = parseServeConfig(ctx.options, ctx.env);
  const service = createApiService({ dbPath: ctx.dbPath, resolver: resolverFor(config), envKeys: config.apiKeys });
  const server = createServer(
    { service, accessLog: (line) => ctx.stdout.write(line), errorLog: (line) => ctx.stderr.write(line) },
    { rateLimitPerMinute: config.rateLimitPerMinute, version: VERSION },
  );
  let address;
  try {
    address = await server.listen(config.port, config.host);
  } catch (error) {
    await service.close();
    throw error;
  }
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  ctx.stderr.write(`listening on http://${host}:${address.port}\n`);

  await new Promise<void>((resolve) => {
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
  });
  await server.close();
  await service.close();
  return 0;
}

/** CONTRACT.md decision 3: offline beats an upstream; neither means refsource routes answer 503. */
function resolverFor(config: ServeConfig): RefsourceResolver {
  if (config.offline) return createOfflineResolver();
  if (!config.refsourceUrl) return createUnconfiguredResolver();
  return createUpstreamResolver(createRefsourceClient({ urlTemplate: config.refsourceUrl, token: config.refsourceToken }));
}
