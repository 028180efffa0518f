/**
 * Answers for requests that never reach a route: Node's HTTP parser rejected them (a NUL
 * in a header, headers over 16 KiB, a method it does not know), or they ask for a tunnel
 * (CONNECT). Node's own answers are an empty 400 / 431, and no answer at all for CONNECT;
 * these are JSON `{detail}` like every other response, and the connection is then closed.
 */
import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { AccessLogEntry } from './access-log.js';

export const JSON_TYPE = 'application/json; charset=utf-8';

/** The raw bytes of a complete JSON error response that closes the connection. */
function rawResponse(status: number, detail: string, headers: Record<string, string> = {}): string {
  const body = JSON.stringify({ detail });
  const lines = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    `content-type: ${JSON_TYPE}`,
    `content-length: ${Buffer.byteLength(body)}`,
    'connection: close',
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}

/** Status and detail for a parser error code (llhttp's HPE_* codes, Node's timeouts). */
function describe(error: NodeJS.ErrnoException & { reason?: string }): { status: number; detail: string } {
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    return { status: 431, detail: 'request headers too large: at most 16 KiB of headers' };
  }
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, detail: 'request timed out' };
  const reason = (error.reason ?? error.message).replace(/^Parse Error: /, '');
  return { status: 400, detail: `malformed HTTP request: ${reason}` };
}

export function handleMalformedRequests(server: Server, log: (entry: AccessLogEntry) => void): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // As Node's default handler: nothing to answer on a reset or closed socket, or in the
    // middle of a response already being written on it.
    const busy = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
    if (error.code === 'ECONNRESET' || !socket.writable || busy) {
      socket.destroy();
      return;
    }
    const { status, detail } = describe(error);
    socket.end(rawResponse(status, detail));
    log({ method: '-', route: null, status, ms: 0, keyId: null });
  });

  server.on('connect', (req: IncomingMessage, socket: Duplex) => {
    const detail = 'CONNECT is not supported: this is not a proxy (the API answers GET and HEAD)';
    socket.on('error', () => socket.destroy());
    socket.end(rawResponse(405, detail, { allow: 'GET, HEAD' }));
    log({ method: req.method ?? 'CONNECT', route: null, status: 405, ms: 0, keyId: null });
  });
}

/** HTTP/1.1 requires a Host header (RFC 9112 3.2); checked here so the 400 is JSON too. */
export function missingHost(req: IncomingMessage): boolean {
  return req.headers.host === undefined && req.httpVersionMajor === 1 && req.httpVersionMinor === 1;
}
