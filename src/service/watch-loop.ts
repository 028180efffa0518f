/**
 * `oracle serve --watch` (docs/alerts.md): checks the watch rules whenever the data version the
 * server already follows moves (an ingest, a calibration, in any process), and at least every
 * WATCH_RECHECK_MS, since staleness grows with time alone and pending events wait for a check.
 * One check at a time; the check's own writes (rule states, events) are not news.
 */

/** How often the data version is compared with the one the last check saw. */
export const WATCH_POLL_MS = 500;
/** The longest time between two checks, whatever the data does. */
export const WATCH_RECHECK_MS = 60_000;

export interface WatchLoopDeps {
  /** The data version the server follows (Oracle.dataVersion of its store). */
  dataVersion: () => number;
  /** One check; a failure is logged and the next tick tries again. */
  check: () => Promise<void>;
  /** A line (with its newline) for the operator: a check that failed. */
  log: (line: string) => void;
  pollMs?: number;
  recheckMs?: number;
}

export interface WatchLoop {
  /** Stops checking; resolves when a check under way has finished. */
  stop(): Promise<void>;
}

export function startWatchLoop(deps: WatchLoopDeps): WatchLoop {
  const recheckMs = deps.recheckMs ?? WATCH_RECHECK_MS;
  let seen: number | undefined;
  let lastCheck = Number.NEGATIVE_INFINITY;
  let running: Promise<void> | undefined;
  let stopped = false;

  function tick(): void {
    if (running !== undefined || stopped) return;
    if (deps.dataVersion() === seen && performance.now() - lastCheck < recheckMs) return;
    running = (async () => {
      try {
        await deps.check();
      } catch (error) {
        deps.log(`watch: check failed: ${error instanceof Error ? error.message : String(error)}\n`);
      }
      lastCheck = performance.now();
      // Read after the check: its own commits moved the version, and they are no new data.
      seen = deps.dataVersion();
    })().finally(() => (running = undefined));
  }

  const timer = setInterval(tick, deps.pollMs ?? WATCH_POLL_MS);
  tick();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
