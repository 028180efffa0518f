/**
 * The upstream reference source, asked whether it knows a product id. Only the status
 * matters (CONTRACT.md decision 3): 200 = known, 404/410 = unknown or deprecated, anything
 * else (5xx, other statuses, timeouts, network errors) = the upstream failed.
 *
 * undici is imported on the first lookup, not at start-up (~230 ms of `oracle serve`'s
 * start, paid for nothing when no refsource request comes).
 */
import type { Agent } from 'undici';

export type UpstreamAnswer =
  | { status: 'found' }
  | { status: 'gone' }
  /** `reason` is safe to show a client: it never holds the URL or the token. */
  | { status: 'failed'; reason: string };

export interface RefsourceClientOptions {
  /** URL with `{id}` where the (percent-encoded) product id goes. */
  urlTemplate: string;
  /** Sent as `Authorization: Bearer <token>` when set. */
  token?: string | undefined;
  /** Longest wait for the TCP/TLS connection. */
  connectTimeoutMs?: number;
  /** Longest wait for the response headers, and then between body chunks. */
  responseTimeoutMs?: number;
}

export const UPSTREAM_TIMEOUT_DEFAULTS = { connectTimeoutMs: 2_000, responseTimeoutMs: 5_000 } as const;

export interface RefsourceClient {
  lookup(id: string): Promise<UpstreamAnswer>;
  /** Closes pooled keep-alive connections. */
  close(): Promise<void>;
}

export function createRefsourceClient(options: RefsourceClientOptions): RefsourceClient {
  const responseTimeout = options.responseTimeoutMs ?? UPSTREAM_TIMEOUT_DEFAULTS.responseTimeoutMs;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let undici: Promise<{ agent: Agent; request: typeof import('undici').request }> | undefined;
  const load = () =>
    (undici ??= import('undici').then(({ Agent, request }) => ({
      agent: new Agent({
        connect: { timeout: options.connectTimeoutMs ?? UPSTREAM_TIMEOUT_DEFAULTS.connectTimeoutMs },
        headersTimeout: responseTimeout,
        bodyTimeout: responseTimeout,
      }),
      request,
    })));

  return {
    async lookup(id) {
      const url = options.urlTemplate.replaceAll('{id}', encodeURIComponent(id));
      try {
        const { agent, request } = await load();
        const { statusCode, body } = await request(url, { method: 'GET', headers, dispatcher: agent });
        // Drain the body so the connection goes back to the pool.
        await body.dump();
        if (statusCode === 200) return { status: 'found' };
        if (statusCode === 404 || statusCode === 410) return { status: 'gone' };
        return { status: 'failed', reason: `upstream answered HTTP ${statusCode}` };
      } catch (error) {
        return { status: 'failed', reason: describeNetworkError(error) };
      }
    },
    // Nothing to close when no lookup ever loaded undici (or it failed to load).
    close: async () => {
      await undici?.then(
        ({ agent }) => agent.close(),
        () => {},
      );
    },
  };
}

/** A short, secret-free name for what went wrong on the wire. */
function describeNetworkError(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'UND_ERR_CONNECT_TIMEOUT') return 'upstream connection timed out';
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') return 'upstream response timed out';
  return typeof code === 'string' ? `upstream unreachable (${code})` : 'upstream unreachable';
}
