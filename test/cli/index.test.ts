/**
 * `oracle index add | list | show` in process (test/_cli.ts) over a database of two cards, one
 * steady and one that jumps 20 % half-way: the index follows the jump by at most the member
 * cap, names the card that moved as its top contributor, and refuses bad definitions.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { runOracle as oracle } from '../_cli.js';
import { indexMarketDatabase, NOW } from '../_index-market.js';
import { INDEX_BASE_VALUE, INDEX_MEMBER_CAP } from '../../src/engine/methodology.js';

describe('oracle index', () => {
  let db: string;
  const run = (...args: string[]) => oracle(['--db', db, ...args], { now: NOW });

  beforeAll(async () => {
    db = await indexMarketDatabase();
  });

  it('adds and lists definitions', async () => {
    const added = await run('index', 'add', 'test-set', '--set', 'test set', '--base-date', '2026-10-01');
    expect(added.stderr).toBe('');
    expect(added.code).toBe(0);
    expect(added.stdout).toContain('added index test-set');
    const list = await run('index', 'list', '--json');
    expect(JSON.parse(list.stdout)).toEqual([
      expect.objectContaining({
        name: 'test-set',
        selector: 'set',
        selector_value: 'test set',
        slot: 'ungraded',
        base_date: '2026-10-01',
        base_value: INDEX_BASE_VALUE,
      }),
    ]);
    expect((await run('index', 'list')).stdout).toMatch(/test-set\s+set test set\s+ungraded\s+2026-10-01/);
  });

  it("follows a member's jump by at most the cap and names it the top contributor", async () => {
    const shown = await run('index', 'show', 'test-set', '--from', '2026-10-01', '--json');
    expect(shown.stderr).toBe('');
    const body = JSON.parse(shown.stdout);
    expect(body.members).toBe(2);
    expect(body.points[0]).toMatchObject({ at: '2026-10-01T00:00:00Z', value: INDEX_BASE_VALUE });
    expect(body.points).toHaveLength(31);
    const last = body.points.at(-1);
    expect(last.priced).toBe(2);
    expect(last.value).toBeGreaterThan(INDEX_BASE_VALUE);
    // ln(1.2)/2 is more than the cap, but the price moves to the new level over several days: the cap bounds each step.
    expect(last.value).toBeLessThanOrEqual(INDEX_BASE_VALUE * Math.exp(Math.log(1.2) / 2) + 0.01);
    const beforeJump = body.points.find((p: { at: string }) => p.at === '2026-10-14T00:00:00Z');
    expect(beforeJump.value).toBe(INDEX_BASE_VALUE);
    for (let i = 1; i < body.points.length; i++)
      expect(Math.log(body.points[i].value / body.points[i - 1].value)).toBeLessThanOrEqual(
        INDEX_MEMBER_CAP + 1e-4,
      );
    expect(last.low).toBeLessThan(last.value);
    expect(last.high).toBeGreaterThan(last.value);
    expect(body.top_contributors[0].product_key).toBe('jumping-card');
    expect(body.top_contributors.map((c: { product_key: string }) => c.product_key)).not.toContain(
      'steady-card',
    );

    const csv = await run('index', 'show', 'test-set', '--from', '2026-10-01', '--csv');
    const rows = csv.stdout.trim().split('\n');
    expect(rows[0]).toBe('at,value,low,high,priced,linked,version');
    expect(rows).toHaveLength(32);
    const text = await run('index', 'show', 'test-set', '--from', '2026-10-01');
    expect(text.stdout).toContain('2 members');
    expect(text.stdout).toContain('jumping-card');
    const narrow = await oracle(['--db', db, 'index', 'show', 'test-set', '--from', '2026-10-01'], {
      now: NOW,
      env: { COLUMNS: '60' },
    });
    for (const line of narrow.stdout.split('\n')) expect(line.length, line).toBeLessThanOrEqual(60);
    expect(narrow.stdout).toContain('test-set');
  });

  it('refuses bad definitions and unknown indexes with a usage error', async () => {
    await run('index', 'add', 'dup', '--era', 'vintage', '--base-date', '2026-10-01');
    const cases: [string[], RegExp][] = [
      [['index', 'add', 'dup', '--era', 'vintage', '--base-date', '2026-10-01'], /exists already/],
      [
        ['index', 'add', 'two', '--era', 'vintage', '--set', 'x', '--base-date', '2026-10-01'],
        /exactly one of/,
      ],
      [['index', 'add', 'Bad Name', '--era', 'vintage', '--base-date', '2026-10-01'], /index name/],
      [['index', 'add', 'e', '--era', 'future', '--base-date', '2026-10-01'], /era must be one of/],
      [
        ['index', 'add', 's', '--era', 'vintage', '--slot', 'psa3', '--base-date', '2026-10-01'],
        /slot must be/,
      ],
      [['index', 'add', 'd', '--era', 'vintage', '--base-date', '2026-13-01'], /base_date must be a date/],
      [
        ['index', 'add', 'p', '--products', 'steady-card,no-such-card', '--base-date', '2026-10-01'],
        /unknown product_key "no-such-card"/,
      ],
      [
        ['index', 'add', 'm', '--era', 'vintage', '--method', 'median', '--base-date', '2026-10-01'],
        /method must be one of chained-jevons, chained-laspeyres; got "median"/,
      ],
      [['index', 'show', 'nope'], /no index named "nope" \(defined: dup, test-set\)/],
      [['index', 'show', 'dup', '--to', '2026-09-01'], /before the index's base date/],
    ];
    for (const [args, message] of cases) {
      const result = await run(...args);
      expect(result.stderr, args.join(' ')).toMatch(message);
      expect(result.code, args.join(' ')).not.toBe(0);
    }
    expect(
      JSON.parse((await run('index', 'list', '--json')).stdout).map((i: { name: string }) => i.name),
    ).toEqual(['dup', 'test-set']);
  });

  it("computes a chained Laspeyres definition: the basket's value ratio, its weights equal below 1 / cap", async () => {
    const added = await run(
      'index',
      'add',
      'test-set-laspeyres',
      '--set',
      'test set',
      '--method',
      'chained-laspeyres',
      '--base-date',
      '2026-10-01',
    );
    expect(added.stdout).toContain('chained-laspeyres');
    const show = async (name: string) =>
      JSON.parse((await run('index', 'show', name, '--from', '2026-10-01', '--json')).stdout);
    const [laspeyres, jevons] = [await show('test-set-laspeyres'), await show('test-set')];
    expect(laspeyres.method).toBe('chained-laspeyres');
    const last = laspeyres.points.at(-1);
    // Two members weigh half each (the cap cannot hold): +20 % on one is +10 % on the index,
    // uncapped per step, so above the chained Jevons of the same members.
    expect(last.value).toBeGreaterThan(jevons.points.at(-1).value);
    expect(last.value).toBeLessThanOrEqual(INDEX_BASE_VALUE * 1.1 + 0.5);
    expect(last.value).toBeGreaterThan(INDEX_BASE_VALUE * 1.08);
    expect(last.priced).toBe(2);
    expect(laspeyres.top_contributors[0].product_key).toBe('jumping-card');
  });

  it('watches an index: a move rule fires on its value, listed, with the index named', async () => {
    const up = await run('watch', 'add', '--index', 'test-set', '--move', '+2%', '--over', '20d', '--json');
    expect(up.stderr).toBe('');
    expect(JSON.parse(up.stdout)).toMatchObject({ product_key: 'test-set', slot: 'index', kind: 'move' });
    await run('watch', 'add', '--index', 'test-set', '--move', '-2%', '--over', '20d');
    const check = await run('watch', 'check', '--json');
    expect(check.code).toBe(0);
    const report = JSON.parse(check.stdout);
    expect(report.problems).toEqual([]);
    expect(report.fired).toHaveLength(1);
    const [event] = report.fired;
    // The index 20 days back (before the jump) was at its base; now it has followed the jump.
    const shown = JSON.parse(
      (await run('index', 'show', 'test-set', '--from', '2026-10-01', '--json')).stdout,
    );
    const [then, now] = [shown.points.at(-21).value, shown.points.at(-1).value];
    expect(event.value).toBeCloseTo(((now - then) / then) * 100, 1);
    expect(event.value).toBeGreaterThanOrEqual(2);
    expect(event.links.price).toMatch(/^\/api\/v1\/developer\/indexes\/test-set\?to=/);
    expect(event.text).toContain('index test-set index moves 2% up over 20d');
    const list = await run('watch', 'list');
    expect(list.stdout).toMatch(/test-set\s+index moves 2% up over 20d\s+yes/);

    const cases: [string[], RegExp][] = [
      [['watch', 'add', '--index', 'test-set', '--above', '10'], /--index takes --move, not --above/],
      [['watch', 'add', 'steady-card', '--index', 'test-set', '--move', '5%'], /one of them \(got both\)/],
      [['watch', 'add', '--move', '5%'], /one of them \(got neither\)/],
      [['watch', 'add', '--index', 'nope', '--move', '5%'], /no index named "nope"/],
    ];
    for (const [args, message] of cases) {
      const result = await run(...args);
      expect(result.stderr, args.join(' ')).toMatch(message);
      expect(result.code, args.join(' ')).not.toBe(0);
    }
  });
});
