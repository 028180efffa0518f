/**
 * Long CPU work on the event loop in turns, so that no request stalls another (issue 24): one
 * piece of such work runs at a time, the others wait their turn in order of arrival, and the
 * one running gives the event loop back every SLICE_MS (`pause`), so the requests that arrived
 * meanwhile (a liveness probe, another key's bundle) are answered between two slices.
 *
 * One at a time matters as much as the slices: work that all paused together would all
 * resume in the same turn of the loop, and that turn would last as long as their slices added
 * up. A price history of a thousand points is such work (a bundle per point).
 */

/**
 * Longest the event loop runs one piece of work without answering anything else: a tenth of
 * the 100 ms in which /health must answer under any load, and short beside the few
 * milliseconds a bundle takes, so a history's slices cost it little.
 */
export const SLICE_MS = 10;

/** Called between two steps of the work: resolves at once, or after giving the loop a turn once SLICE_MS has passed. */
export type Pause = () => Promise<void>;

export interface Turns {
  /** Runs `work` once the work before it has finished (failed or not); its result. */
  run<T>(work: (pause: Pause) => Promise<T>): Promise<T>;
}

const nextLoopTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export function createTurns(): Turns {
  let last: Promise<unknown> = Promise.resolve();
  return {
    run(work) {
      const mine = last.then(async () => {
        // The previous work ended inside a slice of its own: this one starts on a turn of its own.
        await nextLoopTurn();
        let sliceStarted = performance.now();
        return work(async () => {
          if (performance.now() - sliceStarted < SLICE_MS) return;
          await nextLoopTurn();
          sliceStarted = performance.now();
        });
      });
      last = mine.catch(() => undefined);
      return mine;
    },
  };
}
