/**
 * Long CPU work on the event loop in turns, so that no request stalls another (issue 24): one
 * piece of such work runs at a time, and the one running gives the event loop back every
 * SLICE_MS (`pause`), so the requests that arrived meanwhile (a liveness probe, another key's
 * bundle) are answered between two slices.
 *
 * One at a time matters as much as the slices: work that all paused together would all
 * resume in the same turn of the loop, and that turn would last as long as their slices added
 * up. A price history of a thousand points is such work (a bundle per point).
 *
 * Turns go round the owners (API keys) with work waiting, each owner's work in order of
 * arrival: a key that sends its whole allowance of histories at once delays another key's
 * history by the one running, not by all of its own.
 */
import type { ReadPause } from '../store/store.js';

/**
 * Longest the event loop runs one piece of work without answering anything else: a tenth of
 * the 100 ms in which /health must answer under any load, and short beside the few
 * milliseconds a bundle takes, so a history's slices cost it little.
 */
export const SLICE_MS = 10;

/**
 * Called between two steps of the work: resolves at once, or after giving the loop a turn once
 * SLICE_MS has passed. The store's ReadPause, which a series read awaits between statements.
 */
export type Pause = ReadPause;

/** The owner of work that names none (the CLI's, the watch loop's): one owner among the others. */
export const NO_OWNER = '';

export interface Turns {
  /** Runs `work` in `owner`'s next turn (owners in rotation, see above); its result. */
  run<T>(work: (pause: Pause) => Promise<T>, owner?: string): Promise<T>;
}

const nextLoopTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A piece of work waiting its turn; settles its caller's promise itself, never rejects. */
type Job = () => Promise<void>;

export function createTurns(): Turns {
  /** Owners with work waiting, in the order of their turns; the running owner is not among them. */
  const waiting = new Map<string, Job[]>();
  /** The owner whose work runs, and its work waiting after it. */
  let running: { owner: string; queue: Job[] } | null = null;

  function next(): void {
    // The owner that just ran goes to the back of the round, behind every owner waiting.
    if (running !== null && running.queue.length > 0) waiting.set(running.owner, running.queue);
    running = null;
    const first = waiting.entries().next();
    if (first.done === true) return;
    const [owner, queue] = first.value;
    waiting.delete(owner);
    running = { owner, queue };
    void queue.shift()!().then(next);
  }

  return {
    run(work, owner = NO_OWNER) {
      return new Promise((resolve, reject) => {
        const job: Job = async () => {
          // The previous work ended inside a slice of its own: this one starts on a turn of its own.
          await nextLoopTurn();
          let sliceStarted = performance.now();
          try {
            resolve(
              await work(async () => {
                if (performance.now() - sliceStarted < SLICE_MS) return;
                await nextLoopTurn();
                sliceStarted = performance.now();
              }),
            );
          } catch (error) {
            reject(error);
          }
        };
        if (running?.owner === owner) running.queue.push(job);
        else {
          const queue = waiting.get(owner);
          if (queue === undefined) waiting.set(owner, [job]);
          else queue.push(job);
        }
        if (running === null) next();
      });
    },
  };
}
