// @module-tag sqlite-only: reading a source: no store
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { openSource } from '../../../src/ingest/read/open-source.js';

/**
 * A server that asks its clients to keep each connection for ten minutes: a socket that closes
 * soon after the source closes was closed by the source, not by a keep-alive timeout.
 */
async function keepAliveServer(status: number): Promise<{ url: string; sockets: Socket[]; server: Server }> {
  const sockets: Socket[] = [];
  const server = createServer((_req, res) => {
    res.writeHead(status, { 'content-type': 'text/csv', 'keep-alive': 'timeout=600' });
    res.end('product_key,source\n');
  });
  server.keepAliveTimeout = 600_000;
  server.on('connection', (socket) => sockets.push(socket));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/prices.csv`, sockets, server };
}

let server: Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
});

describe('a URL source', () => {
  it('closes its connection when the source is closed, however long the server would keep it', async () => {
    const served = await keepAliveServer(200);
    server = served.server;
    const source = await openSource(served.url, Readable.from([]));
    let text = '';
    for await (const chunk of source.chunks) text += chunk.toString();
    expect(text).toBe('product_key,source\n');
    expect(served.sockets).toHaveLength(1);
    const closed = once(served.sockets[0]!, 'close');
    source.close();
    await closed; // the test's timeout, far below the server's ten minutes, is the bound
  });

  it('closes its connection when the server answers with an error status', async () => {
    const served = await keepAliveServer(404);
    server = served.server;
    await expect(openSource(served.url, Readable.from([]))).rejects.toThrow(/HTTP 404/);
    await once(served.sockets[0]!, 'close');
  });
});
