// @ts-check
/**
 * The API benchmark's baseline: a bare node:http server answering every request with a fixed
 * JSON body of the given size, in its own process like `oracle serve`.
 *
 * Usage: node bare-server.js <body-bytes>
 */
import { createServer } from 'node:http';

const size = Number(process.argv[2] ?? 2048);
const body = Buffer.from(`{"pad":"${'x'.repeat(Math.max(0, size - 10))}"}`);
const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => {
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());
  process.stderr.write(`listening on http://127.0.0.1:${address.port}\n`);
});
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
