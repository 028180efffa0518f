// @ts-check
/**
 * Preloaded into `oracle serve` by the load benchmark (`node --import`): the CPU time the
 * server's event-loop thread spends in each turn of its loop, read from a timer due every
 * millisecond, from Linux's /proc/thread-self/schedstat (the thread's time on a CPU). CPU
 * time, not wall time: a machine busy with other processes does not lengthen it, so it is the
 * longest anything waits for the server's own work on a quiet machine.
 *
 * SIGUSR2 starts a measurement; the next SIGUSR2 ends it and writes
 * `{"turns", "p999", "max"}` (ms) to the file named by BENCH_LOOP_TURNS_FILE. Elsewhere than
 * Linux nothing is written.
 */
import { readFileSync, writeFileSync } from 'node:fs';

const SCHEDSTAT = '/proc/thread-self/schedstat';
const out = process.env.BENCH_LOOP_TURNS_FILE;

/** The thread's CPU time so far, ms; null where the kernel does not say. */
function threadCpuMs() {
  try {
    return Number(readFileSync(SCHEDSTAT, 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return null;
  }
}

if (out !== undefined && threadCpuMs() !== null) {
  /** @type {number[] | null} */
  let turns = null;
  let last = /** @type {number} */ (threadCpuMs());
  setInterval(() => {
    const now = /** @type {number} */ (threadCpuMs());
    turns?.push(now - last);
    last = now;
  }, 1).unref();
  process.on('SIGUSR2', () => {
    if (turns === null) {
      turns = [];
      return;
    }
    const sorted = turns.sort((a, b) => a - b);
    turns = null;
    const at = (/** @type {number} */ p) =>
      sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
    writeFileSync(out, JSON.stringify({ turns: sorted.length, p999: at(0.999), max: at(1) }));
  });
}
