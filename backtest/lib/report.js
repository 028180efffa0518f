// @ts-check
/**
 * Turns the scored rows into the results: metrics per segment (overall, ungraded / graded,
 * grades, BGS/CGC/SGC 10 without own sales, each scenario) in two views (instants where every
 * method prices; all instants), jump following, the invariants, and issue 9's targets with
 * their verdicts. Renders them as Markdown for docs/backtest.md and the console.
 */
import {
  absoluteError,
  coverage,
  FOLLOW_HORIZON_HOURS,
  intervalCoverage,
  relativeError,
  shareOffAfterJumps,
  summarizeErrors,
  summarizeFollow,
} from './metrics.js';
import { CELLS, SCENARIOS } from './model.js';
import { BASES, ENGINE, METHODS } from './score.js';

/** @typedef {import('./score.js').Scores} Scores */
/** @typedef {import('./market.js').Market} Market */
/** @typedef {import('./metrics.js').ErrorSummary} ErrorSummary */

/** Cells of BGS, CGC and SGC grade 10. */
const OTHER_GRADER_TENS = new Set(
  CELLS.filter((c) => c.grade === 10 && c.grader !== 'PSA').map((c) => c.index),
);

/**
 * @typedef {{ id: string, label: string, test: (cell: number, own: boolean) => boolean }} Segment
 * @type {readonly Segment[]}
 */
export const SEGMENTS = [
  { id: 'all', label: 'all cells', test: () => true },
  { id: 'ungraded', label: 'ungraded', test: (c) => c === 0 },
  { id: 'graded', label: 'graded', test: (c) => c > 0 },
  { id: 'graded_7_9', label: 'graded 7-9', test: (c) => c > 0 && CELLS[c]?.grade !== 10 },
  { id: 'graded_10', label: 'graded 10', test: (c) => CELLS[c]?.grade === 10 },
  {
    id: 'other10_without_own',
    label: 'BGS/CGC/SGC 10 without own sales',
    test: (c, own) => OTHER_GRADER_TENS.has(c) && !own,
  },
];

/**
 * @typedef {object} MethodResult
 * @property {string} id
 * @property {ErrorSummary} errors
 * @property {number | null} coverage % of the segment's scored pairs it priced (in the common view: the common share)
 * @property {number | null} interval % of the engine's intervals holding the truth; null without intervals (alternatives: null)
 * @property {number} intervals how many priced pairs carried an interval
 * @property {number | null} nextInterval % of the engine's intervals holding the cell's next sale (pairs with a next sale); null without
 */

/**
 * @typedef {object} SegmentResult
 * @property {string} id
 * @property {string} label
 * @property {number} scored
 * @property {{ common: MethodResult[], all: MethodResult[] }} views
 */

/**
 * Per row, computed once for every group: each method's signed error (NaN: not priced) and whether
 * every method priced it.
 * @typedef {{ errors: Float64Array[], common: Uint8Array }} RowErrors
 */

/**
 * @param {Scores} scores
 * @returns {RowErrors}
 */
function rowErrors(scores) {
  const { rows } = scores;
  const common = new Uint8Array(rows.length).fill(1);
  const errors = rows.price.map((prices) => {
    const out = new Float64Array(rows.length);
    for (let r = 0; r < rows.length; r++) {
      const p = /** @type {number} */ (prices[r]);
      out[r] = Number.isNaN(p) ? Number.NaN : relativeError(p, /** @type {number} */ (rows.truth[r]));
      if (Number.isNaN(p)) common[r] = 0;
    }
    return out;
  });
  return { errors, common };
}

/**
 * Metrics of one group of rows.
 * @param {Scores} scores
 * @param {RowErrors} perRow
 * @param {Int32Array} members row indices
 * @returns {{ common: MethodResult[], all: MethodResult[] }}
 */
function segmentViews(scores, perRow, members) {
  const { rows } = scores;
  let commonCount = 0;
  for (const r of members) commonCount += /** @type {number} */ (perRow.common[r]);
  /** @param {number} m @param {boolean} onlyCommon */
  const result = (m, onlyCommon) => {
    const errorOf = /** @type {Float64Array} */ (perRow.errors[m]);
    const errors = new Float64Array(members.length);
    let n = 0;
    /** @type {{ low: number, high: number, truth: number }[]} */
    const intervals = [];
    /** @type {{ low: number, high: number, truth: number }[]} */
    const nextSales = [];
    for (const r of members) {
      const e = /** @type {number} */ (errorOf[r]);
      if (Number.isNaN(e) || (onlyCommon && perRow.common[r] === 0)) continue;
      errors[n++] = e;
      const low = /** @type {number} */ (rows.low[r]);
      if (m !== ENGINE || Number.isNaN(low)) continue;
      const high = /** @type {number} */ (rows.high[r]);
      intervals.push({ low, high, truth: /** @type {number} */ (rows.truth[r]) });
      const next = /** @type {number} */ (rows.next[r]);
      if (!Number.isNaN(next)) nextSales.push({ low, high, truth: next });
    }
    return {
      id: /** @type {(typeof METHODS)[number]} */ (METHODS[m]).id,
      errors: summarizeErrors(errors.subarray(0, n)),
      coverage: coverage(onlyCommon ? commonCount : n, members.length),
      interval: intervalCoverage(intervals),
      intervals: intervals.length,
      nextInterval: intervalCoverage(nextSales),
    };
  };
  return {
    common: METHODS.map((_, m) => result(m, true)),
    all: METHODS.map((_, m) => result(m, false)),
  };
}

/** The cell groups each basis is reported for. */
const BASIS_GROUPS = [
  { label: 'all cells', test: (/** @type {number} */ _c) => true },
  { label: 'ungraded', test: (/** @type {number} */ c) => c === 0 },
  { label: 'graded', test: (/** @type {number} */ c) => c > 0 },
];

/**
 * @param {Market} market
 * @param {Scores} scores
 * @returns {{ segments: SegmentResult[], scenarios: SegmentResult[], scenarioCells: SegmentResult[], bases: SegmentResult[], scenarioBases: SegmentResult[] }}
 */
export function aggregate(market, scores) {
  const { rows } = scores;
  const perRow = rowErrors(scores);
  const scenarioOf = market.products.map((p) => p.plan.scenario);
  /** @param {(r: number) => boolean} test */
  const select = (test) => {
    const out = new Int32Array(rows.length);
    let n = 0;
    for (let r = 0; r < rows.length; r++) if (test(r)) out[n++] = r;
    return out.slice(0, n);
  };
  const segments = SEGMENTS.map((s) => {
    const members = select((r) => s.test(/** @type {number} */ (rows.cell[r]), rows.own[r] === 1));
    return { id: s.id, label: s.label, scored: members.length, views: segmentViews(scores, perRow, members) };
  });
  const present = SCENARIOS.filter((s) => scenarioOf.includes(s.name));
  const inScenario = (/** @type {string} */ name, /** @type {(cell: number) => boolean} */ cells) =>
    select(
      (r) =>
        scenarioOf[/** @type {number} */ (rows.product[r])] === name &&
        cells(/** @type {number} */ (rows.cell[r])),
    );
  /** @param {string} id @param {Int32Array} members @returns {SegmentResult} */
  const result = (id, members) => ({
    id,
    label: id,
    scored: members.length,
    views: segmentViews(scores, perRow, members),
  });
  const scenarios = present.map((s) =>
    result(
      s.name,
      inScenario(s.name, () => true),
    ),
  );
  // Each scenario's ungraded and graded cells apart (results.json only: the tables would be long).
  const scenarioCells = present.flatMap((s) => [
    result(
      `${s.name} ungraded`,
      inScenario(s.name, (c) => c === 0),
    ),
    result(
      `${s.name} graded`,
      inScenario(s.name, (c) => c > 0),
    ),
  ]);
  // Our priced pairs by basis (slot meta `basis`, score.js basisOf): overall per cell group, and per scenario.
  const bases = BASES.flatMap((basis, b) =>
    BASIS_GROUPS.map((g) =>
      result(
        `${basis}, ${g.label}`,
        select((r) => rows.basis[r] === b && g.test(/** @type {number} */ (rows.cell[r]))),
      ),
    ),
  );
  const scenarioBases = present.flatMap((s) =>
    BASES.map((basis, b) =>
      result(
        `${s.name} ${basis}`,
        select((r) => scenarioOf[/** @type {number} */ (rows.product[r])] === s.name && rows.basis[r] === b),
      ),
    ),
  );
  return { segments, scenarios, scenarioCells, bases, scenarioBases };
}

/**
 * Quotes as evidence (issue 22): in each scenario of `salesOnly`, our engine and the plain 24 h
 * median with the price-guide quotes (the main run) and from the same market's sales alone (the
 * second run), on every instant each prices; all cells and ungraded cells apart.
 * @param {Market} market the main run's
 * @param {Scores} scores the main run's
 * @param {Market} salesOnly the second run's products (quotes taken out)
 * @param {Scores} salesScores
 */
export function quoteEvidence(market, scores, salesOnly, salesScores) {
  const median = METHODS.findIndex((m) => m.id === 'median24');
  const scenarios = [...new Set(salesOnly.products.map((p) => p.plan.scenario))];
  /** @param {Market} m @param {Scores} sc @param {string} scenario @param {(c: number) => boolean} cells */
  const members = (m, sc, scenario, cells) => {
    /** @type {number[]} */
    const out = [];
    for (let r = 0; r < sc.rows.length; r++) {
      if (
        m.products[/** @type {number} */ (sc.rows.product[r])]?.plan.scenario === scenario &&
        cells(/** @type {number} */ (sc.rows.cell[r]))
      )
        out.push(r);
    }
    return out;
  };
  /** The rows of `rs` that the plain 24 h median prices (in the same run). @param {Scores} sc @param {number[]} rs */
  const medianPriced = (sc, rs) =>
    rs.filter(
      (r) => !Number.isNaN(/** @type {number} */ (/** @type {Float64Array} */ (sc.rows.price[median])[r])),
    );
  /** @param {Scores} sc @param {number[]} rs @param {number} method */
  const summary = (sc, rs, method) => {
    const prices = /** @type {Float64Array} */ (sc.rows.price[method]);
    /** @type {number[]} */
    const errors = [];
    /** @type {{ low: number, high: number, truth: number }[]} */
    const intervals = [];
    for (const r of rs) {
      const p = /** @type {number} */ (prices[r]);
      if (Number.isNaN(p)) continue;
      const truth = /** @type {number} */ (sc.rows.truth[r]);
      errors.push(relativeError(p, truth));
      const low = /** @type {number} */ (sc.rows.low[r]);
      if (method === ENGINE && !Number.isNaN(low))
        intervals.push({ low, high: /** @type {number} */ (sc.rows.high[r]), truth });
    }
    return {
      errors: summarizeErrors(errors),
      coverage: coverage(errors.length, rs.length),
      interval: method === ENGINE ? intervalCoverage(intervals) : null,
    };
  };
  return scenarios.flatMap((scenario) =>
    [BASIS_GROUPS[0], BASIS_GROUPS[1]].map((g) => {
      const group = /** @type {(typeof BASIS_GROUPS)[number]} */ (g);
      const withQuotes = members(market, scores, scenario, group.test);
      const alone = members(salesOnly, salesScores, scenario, group.test);
      return {
        scenario,
        cells: group.label,
        methods: [
          { id: 'engine', label: 'ours, with the quotes', ...summary(scores, withQuotes, ENGINE) },
          {
            id: 'engine_sales_only',
            label: 'ours, from sales alone',
            ...summary(salesScores, alone, ENGINE),
          },
          { id: 'median24', label: 'median 24 h, quotes as points', ...summary(scores, withQuotes, median) },
          {
            id: 'median24_sales_only',
            label: 'median 24 h, sales alone',
            ...summary(salesScores, alone, median),
          },
          {
            id: 'engine_where_median',
            label: 'ours, with the quotes, where the median 24 h (quotes as points) prices',
            ...summary(scores, medianPriced(scores, withQuotes), ENGINE),
          },
          {
            id: 'median24_where_median',
            label: 'median 24 h (quotes as points) on those pairs',
            ...summary(scores, medianPriced(scores, withQuotes), median),
          },
        ],
      };
    }),
  );
}

/**
 * Jump following per method: all events, and per scenario.
 * @param {Scores} scores
 */
export function jumpResults(scores) {
  /** @param {import('./score.js').JumpEvent[]} events */
  const per = (events) =>
    METHODS.map((method, m) => ({
      id: method.id,
      ...summarizeFollow(events.map((e) => e.hours[m] ?? null)),
      off25First24h: shareOffAfterJumps(events.map((e) => e.first24h[m] ?? { priced: 0, off: 0 })),
    }));
  const scenarios = [...new Set(scores.jumps.map((e) => e.scenario))];
  return {
    all: per(scores.jumps),
    groups: [
      { id: 'ungraded cells', methods: per(scores.jumps.filter((e) => e.cell === 'ungraded')) },
      { id: 'graded cells', methods: per(scores.jumps.filter((e) => e.cell !== 'ungraded')) },
      ...scenarios.map((s) => ({ id: s, methods: per(scores.jumps.filter((e) => e.scenario === s)) })),
    ],
  };
}

/**
 * @typedef {{ target: string, value: string, pass: boolean | null }} Verdict pass null: not measurable yet
 */

/**
 * Issue 9's targets for the engine, judged on this run.
 * @param {{ segments: SegmentResult[], scenarios: SegmentResult[], bases: SegmentResult[] }} results
 * @param {Scores} scores
 * @returns {Verdict[]}
 */
export function judgeTargets(results, scores) {
  const segment = (/** @type {string} */ id) =>
    /** @type {SegmentResult} */ (results.segments.find((s) => s.id === id));
  const all = segment('all');
  const engineOf = (/** @type {MethodResult[]} */ view) => /** @type {MethodResult} */ (view[ENGINE]);
  const alternatives = all.views.common.slice(1);
  const best = (/** @type {'mdape' | 'p99'} */ key) =>
    alternatives.reduce((a, b) => ((b.errors[key] ?? Infinity) < (a.errors[key] ?? Infinity) ? b : a));
  const ours = engineOf(all.views.common).errors;
  const bestMd = best('mdape');
  const bestP99 = best('p99');
  /** @param {number | null} v */
  const pct = (v) => (v === null ? 'n/a' : `${v.toFixed(1)} %`);
  /** @param {number | null} v @param {(v: number) => boolean} ok */
  const judge = (v, ok) => (v === null ? null : ok(v));
  const label = (/** @type {string} */ id) => METHODS.find((m) => m.id === id)?.label ?? id;
  const interval = engineOf(all.views.all).interval;
  const scenarioIntervals = results.scenarios.map((s) => ({
    id: s.id,
    value: engineOf(s.views.all).interval,
  }));
  const worst = scenarioIntervals.reduce((a, b) => ((b.value ?? Infinity) < (a.value ?? Infinity) ? b : a), {
    id: '',
    value: /** @type {number | null} */ (null),
  });
  const worstNext = results.scenarios
    .map((sc) => ({ id: sc.id, value: engineOf(sc.views.all).nextInterval }))
    .reduce((a, b) => ((b.value ?? Infinity) < (a.value ?? Infinity) ? b : a), {
      id: '',
      value: /** @type {number | null} */ (null),
    });
  const graded = engineOf(segment('graded').views.all).errors.mdape;
  const others = engineOf(segment('other10_without_own').views.all).errors.mdape;
  const over25 = engineOf(all.views.all).errors.over25;
  const basisIntervals = results.bases
    .filter((s) => s.label.endsWith('all cells'))
    .map((s) => ({
      id: s.label.split(',')[0],
      value: engineOf(s.views.all).interval,
      n: engineOf(s.views.all).intervals,
    }))
    .filter((s) => s.n > 0);
  const worstBasis = basisIntervals.reduce(
    (a, b) => ((b.value ?? Infinity) < (a.value ?? Infinity) ? b : a),
    { id: '', value: /** @type {number | null} */ (null), n: 0 },
  );
  return [
    {
      target: "common instants: median error <= 0.9x the best alternative's",
      value: `${pct(ours.mdape)} vs 0.9 x ${pct(bestMd.errors.mdape)} (${label(bestMd.id)})`,
      pass:
        ours.mdape === null || bestMd.errors.mdape === null ? null : ours.mdape <= 0.9 * bestMd.errors.mdape,
    },
    {
      target: "common instants: P99 <= the best alternative's",
      value: `${pct(ours.p99)} vs ${pct(bestP99.errors.p99)} (${label(bestP99.id)})`,
      pass: ours.p99 === null || bestP99.errors.p99 === null ? null : ours.p99 <= bestP99.errors.p99,
    },
    {
      target: 'all instants: > 25 % off in at most 5 % (post-jump hours included)',
      value: pct(over25),
      pass: judge(over25, (v) => v <= 5),
    },
    {
      target: 'all instants: graded median error <= 12 %',
      value: pct(graded),
      pass: judge(graded, (v) => v <= 12),
    },
    {
      target: 'all instants: BGS/CGC/SGC 10 without own sales, median error <= 20 %',
      value: pct(others),
      pass: judge(others, (v) => v <= 20),
    },
    {
      target: 'interval coverage 72-88 % overall',
      value: pct(interval),
      pass: judge(interval, (v) => v >= 72 && v <= 88),
    },
    {
      target: 'interval coverage >= 65 % in every scenario',
      value: worst.value === null ? 'n/a' : `lowest ${pct(worst.value)} (${worst.id})`,
      pass: scenarioIntervals.some((s) => s.value === null)
        ? null
        : scenarioIntervals.every((s) => /** @type {number} */ (s.value) >= 65),
    },
    {
      target: 'interval coverage of the next sale, overall and lowest scenario (reported, not judged)',
      value: `${pct(engineOf(all.views.all).nextInterval)}; lowest ${pct(worstNext.value)} (${worstNext.id})`,
      pass: null,
    },
    {
      target: 'interval coverage >= 65 % for each basis (own, estimated)',
      value: worstBasis.value === null ? 'n/a' : `lowest ${pct(worstBasis.value)} (${worstBasis.id})`,
      pass: basisIntervals.length === 0 ? null : basisIntervals.every((s) => (s.value ?? 0) >= 65),
    },
    {
      target: 'invariant: booster boxes get no graded price',
      value: `${scores.sealedGraded.priced} of ${scores.sealedGraded.slots} graded slots priced`,
      pass: scores.sealedGraded.slots === 0 ? null : scores.sealedGraded.priced === 0,
    },
  ];
}

/**
 * The pairs our engine prices worst (all instants), every method's price beside the truth:
 * where to look first.
 * @param {Market} market
 * @param {Scores} scores
 * @param {number} count
 */
export function worstPairs(market, scores, count) {
  const { rows } = scores;
  const ours = /** @type {Float64Array} */ (rows.price[ENGINE]);
  /** @type {{ r: number, error: number }[]} */
  let worst = [];
  for (let r = 0; r < rows.length; r++) {
    const p = /** @type {number} */ (ours[r]);
    if (Number.isNaN(p)) continue;
    worst.push({ r, error: absoluteError(p, /** @type {number} */ (rows.truth[r])) });
    if (worst.length >= 4 * count) worst = worst.sort((a, b) => b.error - a.error).slice(0, count);
  }
  return worst
    .sort((a, b) => b.error - a.error)
    .slice(0, count)
    .map(({ r, error }) => {
      const product = /** @type {import('./market.js').ProductMarket} */ (
        market.products[/** @type {number} */ (rows.product[r])]
      );
      /** @type {Record<string, string | number | null>} */
      const entry = {
        product: product.plan.key,
        scenario: product.plan.scenario,
        cell: /** @type {import('./model.js').Cell} */ (CELLS[/** @type {number} */ (rows.cell[r])]).key,
        at: new Date(
          /** @type {number} */ (scores.instants[/** @type {number} */ (rows.instant[r])]),
        ).toISOString(),
        own_in_window: /** @type {number} */ (rows.own[r]),
        truth_minor: Math.round(/** @type {number} */ (rows.truth[r])),
        error_pct: Math.round(error * 1000) / 10,
      };
      METHODS.forEach((m, i) => {
        const p = /** @type {number} */ (/** @type {Float64Array} */ (rows.price[i])[r]);
        entry[`${m.id}_minor`] = Number.isNaN(p) ? null : Math.round(p);
      });
      return entry;
    });
}

// ---------------------------------------------------------------------------------------------
// Markdown

/** @type {readonly ('common' | 'all')[]} */
const VIEWS = ['common', 'all'];
const VIEW_TITLES = { common: 'instants where every method prices', all: 'all instants' };

/** @param {number | null} v a percentage */
function pctText(v) {
  if (v === null) return 'n/a';
  return v >= 100 ? v.toFixed(0) : v.toFixed(1);
}

/** @param {MethodResult} r */
function cellText(r) {
  const e = r.errors;
  if (e.n === 0) return '—';
  return `${pctText(e.mdape)} / ${pctText(e.p99)} / ${pctText(e.over25)}`;
}

/** @param {string[]} header @param {string[][]} body */
function table(header, body) {
  return [
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...body.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');
}

/** @param {SegmentResult} s @param {'common' | 'all'} view */
function methodTable(s, view) {
  return table(
    [
      'method',
      'MdAPE %',
      'P90 %',
      'P99 %',
      '> 25 % off',
      'median signed error %',
      'coverage %',
      'interval coverage %',
      'n',
    ],
    s.views[view].map((r, m) => [
      /** @type {(typeof METHODS)[number]} */ (METHODS[m]).label,
      pctText(r.errors.mdape),
      pctText(r.errors.p90),
      pctText(r.errors.p99),
      pctText(r.errors.over25),
      r.errors.bias === null ? 'n/a' : `${r.errors.bias > 0 ? '+' : ''}${r.errors.bias.toFixed(1)}`,
      pctText(r.coverage),
      m === ENGINE ? pctText(r.interval) : '',
      String(r.errors.n),
    ]),
  );
}

/** @param {SegmentResult[]} list @param {'common' | 'all'} view */
function segmentTable(list, view) {
  return table(
    [
      '',
      ...METHODS.map((m) => m.label),
      view === 'common' ? 'common share %' : 'coverage % (ours / alternatives)',
      'ours: interval %',
    ],
    list.map((s) => {
      const results = s.views[view];
      const engine = /** @type {MethodResult} */ (results[ENGINE]);
      const share =
        view === 'common' ? pctText(engine.coverage) : results.map((r) => pctText(r.coverage)).join(' / ');
      return [s.label, ...results.map(cellText), share, pctText(engine.interval)];
    }),
  );
}

/**
 * @param {ReturnType<typeof jumpResults>} jumps
 */
function jumpTable(jumps) {
  const row = (/** @type {string} */ label, /** @type {ReturnType<typeof jumpResults>['all']} */ methods) => [
    label,
    ...methods.map((f) => {
      if (f.events === 0) return '—';
      const beyond = `> ${FOLLOW_HORIZON_HOURS}`;
      return `${f.medianHours ?? beyond} h / ${f.p90Hours ?? beyond} h / ${pctText(f.within24h)} % / ${pctText(f.off25First24h)} %`;
    }),
  ];
  const events = jumps.all[0]?.events ?? 0;
  return [
    `${events} (jump, traded cell) events; per method: median hours to follow / P90 hours / share followed within 24 h / share of its prices > 25 % off in the first 24 h.`,
    '',
    table(
      ['', ...METHODS.map((m) => m.label)],
      [row('all jumps and crashes', jumps.all), ...jumps.groups.map((s) => row(s.id, s.methods))],
    ),
  ].join('\n');
}

/** @param {ErrorSummary} e @param {number | null} interval */
function oursText(e, interval) {
  return e.n === 0
    ? '—'
    : `${e.n} / ${pctText(e.mdape)} / ${pctText(e.p99)} / ${pctText(e.over25)} / ${pctText(interval)}`;
}

/**
 * Our prices by basis: per cell group, then per scenario.
 * @param {{ bases: SegmentResult[], scenarioBases: SegmentResult[] }} results
 * @param {{ meta: number, derived: number }} basisFrom
 */
function basisTables(results, basisFrom) {
  const ours = (/** @type {SegmentResult} */ s) => /** @type {MethodResult} */ (s.views.all[ENGINE]);
  const priced = results.bases
    .filter((s) => s.id.endsWith('all cells'))
    .reduce((n, s) => n + ours(s).errors.n, 0);
  const source =
    basisFrom.derived === 0
      ? 'as the engine gives it in slot `meta.basis`'
      : basisFrom.meta === 0
        ? 'derived, as the engine gives no `meta.basis`: `own` when the slot used observations of its own and no fallback tier'
        : `from \`meta.basis\` for ${basisFrom.meta} priced slots, derived for ${basisFrom.derived}`;
  const scenarios = [...new Set(results.scenarioBases.map((s) => s.id.slice(0, s.id.lastIndexOf(' '))))];
  return [
    `Our priced pairs by what the price rests on: \`own\` (the cell's own observations) or \`estimated\` (other cells: pooling, carry, ratios); the basis is ${source}.`,
    '',
    table(
      [
        'basis, cells',
        'pairs',
        'share of our priced pairs %',
        'MdAPE %',
        'P90 %',
        'P99 %',
        '> 25 % off',
        'median signed error %',
        'interval coverage %',
      ],
      results.bases.map((s) => {
        const r = ours(s);
        const e = r.errors;
        return [
          s.label,
          String(e.n),
          pctText(priced === 0 ? null : (100 * e.n) / priced),
          pctText(e.mdape),
          pctText(e.p90),
          pctText(e.p99),
          pctText(e.over25),
          e.bias === null ? 'n/a' : `${e.bias > 0 ? '+' : ''}${e.bias.toFixed(1)}`,
          pctText(r.interval),
        ];
      }),
    ),
    '',
    'By scenario, each basis: pairs / MdAPE % / P99 % / share > 25 % off % / interval coverage %.',
    '',
    table(
      ['', ...BASES],
      scenarios.map((name) => [
        name,
        ...BASES.map((basis) => {
          const s = results.scenarioBases.find((x) => x.id === `${name} ${basis}`);
          return s === undefined ? '—' : oursText(ours(s).errors, ours(s).interval);
        }),
      ]),
    ),
  ].join('\n');
}

/**
 * @param {ReturnType<typeof quoteEvidence>} evidence
 */
function quoteTable(evidence) {
  return [
    'The same products priced twice: with their price-guide quotes (the run above), and on a second database holding the same market without their quotes (sales alone; every other product whole). All instants; each method on the pairs it prices.',
    '',
    table(
      [
        'scenario',
        'cells',
        'method',
        'MdAPE %',
        'P90 %',
        'P99 %',
        '> 25 % off',
        'coverage %',
        'interval coverage %',
      ],
      evidence.flatMap((g) =>
        g.methods.map((m) => [
          g.scenario,
          g.cells,
          m.label,
          pctText(m.errors.mdape),
          pctText(m.errors.p90),
          pctText(m.errors.p99),
          pctText(m.errors.over25),
          pctText(m.coverage),
          m.interval === null ? '' : pctText(m.interval),
        ]),
      ),
    ),
  ].join('\n');
}

/**
 * The results section of docs/backtest.md.
 * @param {object} run
 * @param {string} run.seed
 * @param {string} run.scale
 * @param {ReturnType<typeof import('./market.js').marketCounts>} run.counts
 * @param {number} run.instants
 * @param {number} run.bundles
 * @param {Verdict[]} run.targets
 * @param {{ segments: SegmentResult[], scenarios: SegmentResult[], bases: SegmentResult[], scenarioBases: SegmentResult[] }} run.results
 * @param {{ meta: number, derived: number }} run.basisFrom
 * @param {ReturnType<typeof quoteEvidence>} run.quotes empty when the run has no quote-evidence scenario
 * @param {ReturnType<typeof jumpResults>} run.jumps
 * @param {string[]} run.prepared what prepareStore ran
 * @param {Record<string, number>} run.seconds
 */
export function renderMarkdown(run) {
  const all = /** @type {SegmentResult} */ (run.results.segments[0]);
  const n = (/** @type {number} */ x) => x.toLocaleString('en-US');
  const verdict = (/** @type {boolean | null} */ p) => (p === null ? 'n/a' : p ? 'PASS' : 'FAIL');
  const seconds = Object.entries(run.seconds)
    .map(([k, v]) => `${k} ${v.toFixed(1)} s`)
    .join(', ');
  return [
    `Seed ${run.seed}, scale ${run.scale}: ${n(run.counts.products)} products, ${n(run.counts.sales)} sales, ${n(run.counts.quotes)} price-guide quotes; ` +
      `${run.instants} scored instants, ${n(all.scored)} scored (instant, cell) pairs, ${n(run.bundles)} engine bundles. ` +
      `Calibration before scoring: ${run.prepared.length === 0 ? 'none' : run.prepared.join('; ')}. Run time: ${seconds}.`,
    '',
    '### Scenarios of this run',
    '',
    table(
      ['scenario', 'what changes from the defaults', 'products', 'sales', 'quotes'],
      SCENARIOS.filter((s) => run.counts.scenarios[s.name]).map((s) => {
        const c = /** @type {{ products: number, sales: number, quotes: number }} */ (
          run.counts.scenarios[s.name]
        );
        return [s.name, s.description, n(c.products), n(c.sales), n(c.quotes)];
      }),
    ),
    '',
    '### Targets (issue 9)',
    '',
    table(
      ['target', 'ours', 'verdict'],
      run.targets.map((t) => [t.target, t.value, verdict(t.pass)]),
    ),
    '',
    ...VIEWS.flatMap((view) => [`### Overall, ${VIEW_TITLES[view]}`, '', methodTable(all, view), '']),
    ...[
      ['By cell group', run.results.segments],
      ['By scenario', run.results.scenarios],
    ].flatMap(([title, list]) =>
      VIEWS.flatMap((view) => [
        `### ${title}, ${VIEW_TITLES[view]}`,
        '',
        'Each method: MdAPE / P99 / share > 25 % off, in %.',
        '',
        segmentTable(/** @type {SegmentResult[]} */ (list), view),
        '',
      ]),
    ),
    '### By basis (ours), all instants',
    '',
    basisTables(run.results, run.basisFrom),
    '',
    ...(run.quotes.length === 0 ? [] : ['### Quotes as evidence', '', quoteTable(run.quotes), '']),
    '### Following jumps and crashes',
    '',
    jumpTable(run.jumps),
    '',
  ].join('\n');
}

/** The markers around the generated section of docs/backtest.md. */
export const RESULTS_START = '<!-- backtest:results:start -->';
export const RESULTS_END = '<!-- backtest:results:end -->';

/**
 * `doc` with the text between the markers replaced by `section`.
 * @param {string} doc
 * @param {string} section
 */
export function replaceResults(doc, section) {
  const start = doc.indexOf(RESULTS_START);
  const end = doc.indexOf(RESULTS_END);
  if (start < 0 || end < start)
    throw new Error(`docs/backtest.md lacks the markers ${RESULTS_START} ... ${RESULTS_END}`);
  return `${doc.slice(0, start + RESULTS_START.length)}\n${section}\n${doc.slice(end)}`;
}
