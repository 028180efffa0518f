/**
 * The upstream reference source, asked whether it knows a product id. Only the status
 * matters (CONTRACT.md decision 3): 200 = known, 404/410 = unknown or deprecated, anything
 * else (5xx, other statuses, timeouts, network errors) = the upstream failed.
 *
 * undici is imported on the first lookup, not at start-up: loading it is a large share of
 * `oracle serve`'s start (bench/findings.md), paid for nothing when no refsource request comes.
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
  /**
   * Longest time one lookup may take in all: waiting for a free connection, connecting,
   * the headers and the whole body. An upstream that sends its answer a byte at a time
   * fails at the deadline like one that never answers.
   */
  deadlineMs?: number;
  /** Most connections open to the upstream at once; further lookups queue, within their deadline. */
  maxConnections?: number;
}

export const UPSTREAM_DEFAULTS = { connectTimeoutMs: 2_000, deadlineMs: 5_000, maxConnections: 8 } as const;

/** An answer's body is read (so the connection can be reused) up to this size, then dropped. */
const MAX_BODY_BYTES = 64 * 1024;

export interface RefsourceClient {
  lookup(id: string): Promise<UpstreamAnswer>;
  /** Closes pooled keep-alive connections. */
  close(): Promise<void>;
}

export function createRefsourceClient(options: RefsourceClientOptions): RefsourceClient {
  const deadlineMs = options.deadlineMs ?? UPSTREAM_DEFAULTS.deadlineMs;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let undici: Promise<{ agent: Agent; request: typeof import('undici').request }> | undefined;
  const load = () =>
    (undici ??= import('undici').then(({ Agent, request }) => ({
      agent: new Agent({
        connect: { timeout: options.connectTimeoutMs ?? UPSTREAM_DEFAULTS.connectTimeoutMs },
        connections: options.maxConnections ?? UPSTREAM_DEFAULTS.maxConnections,
      }),
      request,
    })));

  return {
    async lookup(id) {
      const url = options.urlTemplate.replaceAll('{id}', encodeURIComponent(id));
      const signal = AbortSignal.timeout(deadlineMs);
      try {
        const { agent, request } = await load();
        const { statusCode, body } = await request(url, {
          method: 'GET',
          headers,
          dispatcher: agent,
          signal,
        });
        // The whole answer, within the same deadline: the connection then goes back to the pool.
        await body.dump({ limit: MAX_BODY_BYTES, signal });
        if (statusCode === 200) return { status: 'found' };
        if (statusCode === 404 || statusCode === 410) return { status: 'gone' };
        return { status: 'failed', reason: `upstream answered HTTP ${statusCode}` };
      } catch (error) {
        if (signal.aborted)
          return {
            status: 'failed',
            reason: `upstream timed out (no complete answer within ${deadlineMs} ms)`,
          };
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
  return typeof code === 'string' ? `upstream unreachable (${code})` : 'upstream unreachable';
}
