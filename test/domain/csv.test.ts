// @module-tag sqlite-only: a pure domain function: no store
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvField, csvLine, csvOutputLine, CsvParser } from '../../src/domain/csv.js';
import { InputError } from '../../src/domain/errors.js';

function parse(chunks: string[], max?: number): [string[], number][] {
  const rows: [string[], number][] = [];
  const parser = new CsvParser('t.csv', (fields, line) => rows.push([fields, line]), max);
  for (const chunk of chunks) parser.push(chunk);
  parser.end();
  return rows;
}

/** Every way of cutting `text` in two, plus one chunk per character. */
function splits(text: string): string[][] {
  const out = [[text], [...text]];
  for (let i = 1; i < text.length; i += 1) out.push([text.slice(0, i), text.slice(i)]);
  return out;
}

describe('CsvParser', () => {
  it.each([
    [
      'plain fields, LF',
      'a,b\n1,2\n',
      [
        [['a', 'b'], 1],
        [['1', '2'], 2],
      ],
    ],
    [
      'CRLF line ends',
      'a,b\r\n1,2\r\n',
      [
        [['a', 'b'], 1],
        [['1', '2'], 2],
      ],
    ],
    [
      'lone CR line ends',
      'a,b\r1,2',
      [
        [['a', 'b'], 1],
        [['1', '2'], 2],
      ],
    ],
    [
      'no final line break',
      'a,b\n1,2',
      [
        [['a', 'b'], 1],
        [['1', '2'], 2],
      ],
    ],
    ['quoted field with a comma', '"x,y",z\n', [[['x,y', 'z'], 1]]],
    ['doubled quotes inside quotes', '"say ""hi""",2\n', [[['say "hi"', '2'], 1]]],
    [
      'line breaks inside quotes keep the next record on its physical line',
      '"a\nb\r\nc",1\nnext,2\n',
      [
        [['a\nb\r\nc', '1'], 1],
        [['next', '2'], 4],
      ],
    ],
    [
      'empty fields and a trailing comma',
      ',,\n"",x,\n',
      [
        [['', '', ''], 1],
        [['', 'x', ''], 2],
      ],
    ],
    [
      'blank lines are skipped but counted',
      'a\n\n\r\nb\n',
      [
        [['a'], 1],
        [['b'], 4],
      ],
    ],
    ['a quote inside an unquoted field is kept', 'ab"c,d\n', [[['ab"c', 'd'], 1]]],
  ])('parses %s, whatever the chunk boundaries', (_name, text, expected) => {
    for (const chunks of splits(text)) expect(parse(chunks)).toEqual(expected);
  });

  it('returns the rows it was given for any records, quoting and chunking (property)', () => {
    const field = fc.oneof(fc.string(), fc.constantFrom('', ',', '"', '\n', '\r\n', 'a"b', ' x '));
    fc.assert(
      fc.property(
        fc.array(fc.array(field, { minLength: 2, maxLength: 5 }), { minLength: 1, maxLength: 8 }),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 6 }),
        (rows, crlf, cuts) => {
          const text = rows
            .map((row) => row.map((f) => `"${f.replaceAll('"', '""')}"`).join(','))
            .join(crlf ? '\r\n' : '\n');
          const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
          const chunks = [0, ...points].map((start, i) => text.slice(start, points[i] ?? text.length));
          expect(parse(chunks).map(([fields]) => fields)).toEqual(rows);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('names the line of an unterminated quoted field', () => {
    expect(() => parse(['a,b\n1,"open\nstill open\n'])).toThrow(/^t\.csv:2: unterminated quoted field/);
  });

  it('rejects text after a closing quote with its line', () => {
    expect(() => parse(['a\n"x"y,1\n'])).toThrow(/^t\.csv:2: unexpected character after a closing quote/);
  });

  it('stops with InputError on a record longer than the limit instead of buffering it', () => {
    const long = 'x'.repeat(500);
    expect(() => parse(['a\n', long.slice(0, 200), long.slice(200), '\n'], 100)).toThrow(InputError);
    expect(() => parse([`a\n${long}\n`], 100)).toThrow(/^t\.csv:2: record is longer than/);
  });
});

describe('CSV writing', () => {
  it.each([
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['cr\r', '"cr\r"'],
    ['', ''],
  ])('writes %j as %j', (value, written) => {
    expect(csvField(value)).toBe(written);
  });

  it('writes lines the parser reads back as the same fields', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.string(), { minLength: 2, maxLength: 5 }), { minLength: 1, maxLength: 5 }),
        (rows) => {
          const text = `${rows.map(csvLine).join('\r\n')}\r\n`;
          expect(parse([text]).map(([fields]) => fields)).toEqual(rows);
        },
      ),
    );
  });
});

describe('csvOutputLine', () => {
  it.each([
    ['=1+1', "'=1+1"],
    ['+cmd', "'+cmd"],
    ['-1+1', "'-1+1"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tx', "'\tx"],
    ['\r=1', `"'\r=1"`],
    ['a=1', 'a=1'],
    [-500, '-500'],
    [null, ''],
  ])('writes %j as %j', (cell, expected) => {
    expect(csvOutputLine([cell])).toBe(expected);
  });
});
