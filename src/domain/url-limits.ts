/** The bounds of a URL ingest source, apart from the reader so the CLI's options name them without loading it. */
/**
 * How long a URL source may take and how slowly it may send (issue 35.3), as curl's --max-time
 * and --speed-limit/--speed-time bound a download: a source that drips a row every 20 s, or a
 * huge Content-Length sent slowly, otherwise ran for ever.
 */
export interface UrlLimits {
  /** The whole read, from the request to the last byte (`--url-deadline`). */
  deadlineMs: number;
  /** Fewer bytes a second than this over `rateWindowMs` stops the read (`--url-min-rate`). */
  minBytesPerSecond: number;
  /** The span the rate is measured over (`--url-min-rate-time`). */
  rateWindowMs: number;
}

/** One hour for the whole download; at least 1 KiB/s over any 30 s (curl's --speed-time default). */
export const DEFAULT_URL_LIMITS: UrlLimits = {
  deadlineMs: 3_600_000,
  minBytesPerSecond: 1_024,
  rateWindowMs: 30_000,
};
