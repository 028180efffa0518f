/**
 * `oracle mcp`: the Model Context Protocol server (mcp/server.ts) over stdio, for an AI
 * assistant that starts it as a child process (docs/mcp.md). stdout carries the protocol's
 * messages alone; notes and errors go to stderr. It runs until the client closes stdin.
 * The SDK is loaded here, so no other command pays for it at start-up.
 */
import type { Readable, Writable } from 'node:stream';
import type { CommandContext } from '../context.js';
import { withService } from '../open-service.js';
import { VERSION } from '../version.js';

export async function run(_args: unknown[], ctx: CommandContext): Promise<number> {
  const [{ createMcpServer }, { StdioServerTransport }] = await Promise.all([
    import('../../mcp/server.js'),
    import('@modelcontextprotocol/server/stdio'),
  ]);
  await withService(ctx, async (oracle) => {
    // A server runs for hours: each call reads the clock, where a command reads it once.
    const server = createMcpServer({ oracle, now: Date.now, version: VERSION });
    const closed = new Promise<void>((resolve) => {
      server.server.onclose = resolve;
    });
    await server.connect(new StdioServerTransport(ctx.stdin as Readable, ctx.stdout as Writable));
    await closed;
  });
  return 0;
}
