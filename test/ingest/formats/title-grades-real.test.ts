// @module-tag sqlite-only: a format's parser: no store
/**
 * The title parser on real sold-listing titles (test/fixtures/README.md, "Title grades"):
 * a hand-labelled table of titles (eBay TAG slabs, alt.xyz's mirror of eBay PSA sales, the
 * sales quoted in issue 21), and the whole 350-title alt.xyz extract against its own
 * grading_company and grade columns, the accuracy figure of docs/feeds.md; and the played
 * conditions (LP, MP, HP, DMG, hit points that are no condition) on real eBay listing titles.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CsvParser } from '../../../src/domain/csv.js';
import { gradeFromTitle } from '../../../src/ingest/formats/title-grade.js';

const FIXTURES = new URL('../../fixtures/sold-listings/', import.meta.url);

function readCsv(name: string): string[][] {
  const rows: string[][] = [];
  const parser = new CsvParser(name, (fields) => rows.push(fields));
  parser.push(readFileSync(new URL(name, FIXTURES), 'utf8'));
  parser.end();
  return rows.slice(1);
}

/** What the parser makes of a title, in the fixture's words. */
function read(title: string): string {
  const result = gradeFromTitle(title);
  if (result.kind === 'graded') return `${result.grader} ${result.grade}`;
  if (result.kind === 'played') return `raw-${result.condition.toLowerCase()}`;
  return result.kind;
}

const LABELLED = readCsv('title-grades.csv').map(
  ([title, expected, source]) => [title as string, expected as string, source as string] as const,
);

describe('gradeFromTitle on real titles', () => {
  it('has a labelled row for every real title of the fixture', () => {
    expect(LABELLED.length).toBeGreaterThanOrEqual(50);
  });

  it.each(LABELLED)('reads %j as %s (%s)', (title, expected) => {
    expect(read(title)).toBe(expected);
  });

  it('reads 346 of the 350 alt.xyz titles as the grade their grading_company and grade columns give', () => {
    const rows = readCsv('samaygodika-pokemon-psa10-history.sales-2021-03.titles-from-url.csv');
    expect(rows).toHaveLength(350);
    const misread = rows.filter(
      ([, , , company, grade, , , title]) => read(title as string) !== `${company} ${Number(grade)}`,
    );
    // The four are the title's fault, never a grade invented: two titles state another grade
    // than the label (PSA 8, Psa 9), one none at all, one names PSA without a grade.
    expect(misread.map((row) => read(row[7] as string)).sort()).toEqual([
      'PSA 8',
      'PSA 9',
      'unclear',
      'ungraded',
    ]);
    expect(rows.length - misread.length).toBe(346);
  });

  it('never stores a titled slab of the TAG file as ungraded', () => {
    const slabs = LABELLED.filter(
      ([title, , source]) => source.startsWith('Veeeetzzzz') && /\bTAG\b(?!\s*team)|\bgraded\b/i.test(title),
    );
    expect(slabs.length).toBeGreaterThanOrEqual(15);
    for (const [title] of slabs) expect(read(title)).not.toBe('ungraded');
  });
});

/** Real eBay active-listing titles (test/fixtures/README.md, "Title grades"), labelled by hand. */
const CONDITIONS = readCsv('title-conditions-active-listings.csv').map(
  ([title, expected, note]) => [title as string, expected as string, note as string] as const,
);

describe('gradeFromTitle on the played conditions of real eBay listing titles', () => {
  it('has the titles of every condition, near-mint titles and hit-point traps', () => {
    const count = (label: string) => CONDITIONS.filter(([, expected]) => expected === label).length;
    expect(CONDITIONS).toHaveLength(98);
    expect([count('raw-lp'), count('raw-mp'), count('raw-hp'), count('raw-dmg'), count('ungraded')]).toEqual([
      19, 20, 17, 16, 25,
    ]);
    // Hit points, not heavily played: `80 HP`, `90 HP`, `120 HP`, `40HP`.
    expect(
      CONDITIONS.filter(([title, expected]) => /\bHP\b|\dHP\b/.test(title) && expected === 'ungraded'),
    ).toHaveLength(7);
  });

  it.each(CONDITIONS)('reads %j as %s', (title, expected) => {
    expect(read(title)).toBe(expected);
  });

  it('never prices a played title as near mint', () => {
    const played = CONDITIONS.filter(([, expected]) => expected.startsWith('raw-'));
    expect(played.filter(([title]) => read(title) === 'ungraded')).toEqual([]);
  });
});
