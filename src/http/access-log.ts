/**
 * One JSON line per request: what was asked, the answer, how long it took, and by which key
 * id (never the key). Lines are written in batches, at most FLUSH_MS after the first one or
 * once FLUSH_BYTES are pending: under load a write per request is a large share of the
 * request path's CPU (bench/findings.md).
 */

/** Exported for tests, which wait this long to read what was logged. */
export const FLUSH_MS = 100;
const FLUSH_BYTES = 64 * 1024;

export interface AccessLogEntry {
  method: string;
  /** The route pattern (`/api/v1/developer/pricing/:product_key`), or null when no route matched. */
  route: string | null;
  status: number;
  ms: number;
  keyId: string | null;
}

export interface AccessLog {
  (entry: AccessLogEntry): void;
  /** Writes what is pending now (before the process exits). */
  flush(): void;
}

export function createAccessLog(write: (text: string) => void): AccessLog {
  let pending = '';
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (pending === '') return;
    const text = pending;
    pending = '';
    write(text);
  };
  // Many requests share a millisecond under load: the timestamp is formatted once per millisecond.
  let stampMs = Number.NaN;
  let stamp = '';
  const log = (entry: AccessLogEntry) => {
    const nowMs = Date.now();
    if (nowMs !== stampMs) {
      stampMs = nowMs;
      stamp = new Date(nowMs).toISOString();
    }
    // The line JSON.stringify would write for these fields in this order, without building an object for it.
    pending += `{"time":"${stamp}","method":${JSON.stringify(entry.method)},"route":${JSON.stringify(entry.route)},"status":${entry.status},"ms":${Math.round(entry.ms * 100) / 100},"key_id":${JSON.stringify(entry.keyId)}}\n`;
    if (pending.length >= FLUSH_BYTES) flush();
    else timer ??= setTimeout(flush, FLUSH_MS).unref();
  };
  return Object.assign(log, { flush });
}
