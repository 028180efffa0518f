/**
 * Delivering a watch event to its webhook (docs/alerts.md, "Delivery"): one POST of the stored
 * body, signed with HMAC-SHA256 over those exact bytes when ORACLE_WEBHOOK_SECRET is set, each
 * attempt bounded by a timeout, retried after each delay of the backoff (but a 4xx refusal). A
 * 2xx answer delivers the event; anything else leaves it pending for the next check.
 */
import { createHmac } from 'node:crypto';
import { redactUrlsIn } from '../domain/redact.js';

/** The signature header: `sha256=` and the hex HMAC-SHA256 of the raw body, as GitHub's X-Hub-Signature-256. */
export const SIGNATURE_HEADER = 'x-oracle-signature-256';
/** The event id again, so a receiver can deduplicate before it parses the body. */
export const EVENT_ID_HEADER = 'x-oracle-event-id';
/** Which attempt of this check's delivery the request is (1, 2, 3). */
export const ATTEMPT_HEADER = 'x-oracle-attempt';

/** How long one attempt waits for the receiver's answer. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** The waits before the second and third attempts of one check (then the event waits for the next check). */
export const WEBHOOK_RETRY_DELAYS_MS: readonly number[] = [1_000, 4_000];

export interface DeliveryOptions {
  /** ORACLE_WEBHOOK_SECRET; undefined: requests go unsigned. */
  secret?: string;
  timeoutMs?: number;
  retryDelaysMs?: readonly number[];
}

export interface DeliveryResult {
  attempts: number;
  /** Null when delivered; else why the last attempt failed (`HTTP 500`, `timed out after 10000 ms`, the network error). */
  error: string | null;
}

/** `sha256=<hex>`: the HMAC-SHA256 of `body` with `secret`. */
export function signature(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Answers a receiver gives when it read the request and refused it (a wrong secret, a body it
 * does not take): a retry seconds later gets the same answer, so the event waits for the next
 * check instead. 408 (timeout), 425 (too early) and 429 (too many requests) ask for a retry.
 */
const isRefusal = (status: number) =>
  status >= 400 && status < 500 && status !== 408 && status !== 425 && status !== 429;

/** One POST's outcome: `error` null when the receiver answered 2xx; `retry` when another attempt may fare better. */
async function attempt(
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<{ error: string | null; retry: boolean }> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      body,
      headers,
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'manual',
    });
    await response.body?.cancel();
    if (response.status >= 200 && response.status < 300) return { error: null, retry: false };
    return { error: `HTTP ${response.status}`, retry: !isRefusal(response.status) };
  } catch (error) {
    if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
      return { error: `timed out after ${timeoutMs} ms`, retry: true };
    const cause =
      error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
    // The error is printed, stored with the event and served by the API: a URL it quotes
    // (fetch quotes one holding credentials) keeps no user name, password or query value.
    return { error: `network: ${redactUrlsIn(cause)}`, retry: true };
  }
}

/** POSTs `body` (event `id`) to `url` until it is taken or the retries run out. */
export async function deliverEvent(
  url: string,
  id: string,
  body: string,
  options: DeliveryOptions = {},
): Promise<DeliveryResult> {
  const delays = options.retryDelaysMs ?? WEBHOOK_RETRY_DELAYS_MS;
  const timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const headers: Record<string, string> = { 'content-type': 'application/json', [EVENT_ID_HEADER]: id };
  if (options.secret !== undefined) headers[SIGNATURE_HEADER] = signature(options.secret, body);
  for (let n = 0; ; n += 1) {
    if (n > 0) await sleep(delays[n - 1]!);
    const outcome = await attempt(url, body, { ...headers, [ATTEMPT_HEADER]: String(n + 1) }, timeoutMs);
    if (outcome.error === null || !outcome.retry || n === delays.length)
      return { attempts: n + 1, error: outcome.error };
  }
}
