// @module-tag sqlite-only: the queue alone: no store
/** Long work in turns (src/service/turns.ts): one piece at a time, round the owners, the loop given back between slices. */
import { describe, expect, it } from 'vitest';
import { createTurns, NO_OWNER, SLICE_MS } from '../../src/service/turns.js';

/** Keeps the thread busy for `ms`, as a bundle computation does. */
function spin(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

/** The long work of the second test, in 2 ms steps. */
const WORK_MS = 300;

describe('createTurns', () => {
  it('runs one piece of work at a time, in order of arrival, a failed one not stopping the next', async () => {
    const turns = createTurns();
    const events: string[] = [];
    const piece = (name: string, fail = false) =>
      turns.run(async (pause) => {
        events.push(`${name} start`);
        for (let i = 0; i < 3; i++) {
          spin(SLICE_MS / 2);
          await pause();
        }
        events.push(`${name} end`);
        if (fail) throw new Error(name);
        return name;
      });
    const results = await Promise.allSettled([piece('a', true), piece('b'), piece('c')]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
    expect(events).toEqual(['a start', 'a end', 'b start', 'b end', 'c start', 'c end']);
  });

  it("goes round the owners with work waiting: another owner waits for the piece running, not for all of one owner's", async () => {
    const turns = createTurns();
    const order: string[] = [];
    const piece = (name: string, owner: string) =>
      turns.run(async (pause) => {
        spin(1);
        await pause();
        order.push(name);
      }, owner);
    // Key a sends three at once, then b two and c one, while a's first runs.
    await Promise.all([
      piece('a1', 'a'),
      piece('a2', 'a'),
      piece('a3', 'a'),
      piece('b1', 'b'),
      piece('b2', 'b'),
      piece('c1', 'c'),
      piece('x1', NO_OWNER),
    ]);
    expect(order).toEqual(['a1', 'b1', 'c1', 'x1', 'a2', 'b2', 'a3']);
  });

  it('answers what arrives meanwhile between slices, long before the work ends', async () => {
    const turns = createTurns();
    let stepsDone = 0;
    const work = turns.run(async (pause) => {
      for (let i = 0; i < WORK_MS / 2; i++) {
        spin(2);
        stepsDone++;
        await pause();
      }
    });
    // A timer due now stands for a request that arrived: it runs between two slices. Each is
    // answered while the work is still running, with only a few steps between one and the next
    // (a loop never given back would answer none of them before its last step).
    const seenAt: number[] = [];
    const probe = async () => {
      for (let i = 0; i < 5; i++) {
        await new Promise((resolve) => setTimeout(resolve, 0));
        seenAt.push(stepsDone);
      }
    };
    await Promise.all([work, probe()]);
    expect(seenAt).toHaveLength(5);
    expect(seenAt[4]).toBeLessThan(WORK_MS / 2);
    // A step spins 2 ms at least, so a slice holds at most SLICE_MS / 2 of them, however busy the machine.
    const gaps = seenAt.slice(1).map((steps, i) => steps - seenAt[i]!);
    for (const gap of gaps) expect(gap).toBeLessThanOrEqual(Math.ceil(SLICE_MS / 2) + 1);
  });
});
