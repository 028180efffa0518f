/**
 * Requests Node's HTTP parser rejects, and CONNECT, sent as raw bytes over node:net to the
 * real server: each gets a JSON `{detail}` answer with the right status, then the connection closes.
 */
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { useSeededServer } from './_helpers.js';

const seeded = useSeededServer(Date.now());

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Writes `request` on a fresh connection and reads until the server closes it. */
function send(request: string): Promise<RawAnswer> {
  const { port } = new URL(seeded.server.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(request));
    let raw = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (raw += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = ''] = raw.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => [
          line.slice(0, line.indexOf(':')).toLowerCase(),
          line.slice(line.indexOf(':') + 1).trim(),
        ]),
      );
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
    });
  });
}

function expectJsonError(answer: RawAnswer, status: number, detail: RegExp): void {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  expect(answer.headers.connection).toBe('close');
  expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.body));
  expect(JSON.parse(answer.body)).toEqual({ detail: expect.stringMatching(detail) });
}

describe('requests the HTTP parser rejects', () => {
  it('answers 400 JSON for HTTP/1.1 without a Host header', async () => {
    expectJsonError(await send('GET /api/v1/health HTTP/1.1\r\n\r\n'), 400, /missing Host header/);
  });

  it('still serves HTTP/1.0 without a Host header (it needs none)', async () => {
    const answer = await send('GET /api/v1/health HTTP/1.0\r\n\r\n');
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ status: 'ok' });
  });

  it('answers 400 JSON for a NUL byte in a header value', async () => {
    expectJsonError(
      await send('GET /api/v1/health HTTP/1.1\r\nHost: x\r\nX-API-Key: ab\0cd\r\n\r\n'),
      400,
      /^malformed HTTP request: /,
    );
  });

  it('answers 431 JSON for 20 KB of headers', async () => {
    const answer = await send(
      `GET /api/v1/health HTTP/1.1\r\nHost: x\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expectJsonError(answer, 431, /request headers too large/);
  });

  it('answers 400 JSON for a method the parser does not know', async () => {
    expectJsonError(
      await send('BREW /api/v1/health HTTP/1.1\r\nHost: x\r\n\r\n'),
      400,
      /^malformed HTTP request: /,
    );
  });
});

describe('CONNECT', () => {
  it('answers 405 JSON with Allow: GET, HEAD (this is not a proxy), key or no key', async () => {
    for (const key of ['', 'X-API-Key: ork_whatever\r\n']) {
      const answer = await send(`CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n${key}\r\n`);
      expectJsonError(answer, 405, /CONNECT is not supported/);
      expect(answer.headers.allow).toBe('GET, HEAD');
    }
  });

  it('keeps serving other connections afterwards', async () => {
    expect((await fetch(`${seeded.server.url}/api/v1/health`)).status).toBe(200);
  });
});
