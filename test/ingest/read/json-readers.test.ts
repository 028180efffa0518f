// @module-tag sqlite-only: reading a source: no store
import { describe, expect, it } from 'vitest';
import { JsonArrayReader } from '../../../src/ingest/read/json-array.js';
import type { JsonRecordHandler } from '../../../src/ingest/read/json-records.js';
import { NdjsonReader } from '../../../src/ingest/read/ndjson.js';

type Event = ['value', unknown, number] | ['invalid', number];

function read(kind: 'json' | 'ndjson', chunks: string[]): Event[] {
  const events: Event[] = [];
  const handler: JsonRecordHandler = {
    value: (value, line) => events.push(['value', value, line]),
    invalid: (line) => events.push(['invalid', line]),
  };
  const reader =
    kind === 'json' ? new JsonArrayReader('r.json', handler) : new NdjsonReader('r.json', handler);
  for (const chunk of chunks) reader.push(chunk);
  reader.end();
  return events;
}

function everyCut(text: string): string[][] {
  return [
    [text],
    ...Array.from({ length: text.length - 1 }, (_, i) => [text.slice(0, i + 1), text.slice(i + 1)]),
  ];
}

describe('JsonArrayReader', () => {
  const text = '[\n {"a": "x]}\\"{", "b": [1, {"c": 2}]},\n\n {"a": "multi\\nline"}\n]\n';

  it('parses element by element with their starting lines, whatever the chunk boundaries', () => {
    for (const chunks of everyCut(text)) {
      expect(read('json', chunks)).toEqual([
        ['value', { a: 'x]}"{', b: [1, { c: 2 }] }, 2],
        ['value', { a: 'multi\nline' }, 4],
      ]);
    }
  });

  it('reports an element that is not JSON as invalid and goes on', () => {
    expect(read('json', ['[{"a": 1}, {a: 2}, {"b": 3}]'])).toEqual([
      ['value', { a: 1 }, 1],
      ['invalid', 1],
      ['value', { b: 3 }, 1],
    ]);
  });

  it.each([
    ['a truncated array', '[{"a": 1},\n{"b"', /^r\.json:2: the JSON array is not closed/],
    [
      'text after the closing bracket',
      '[{"a": 1}]\n{"b": 2}',
      /^r\.json:2: unexpected text after the closing \]/,
    ],
    ['something other than an array', '{"a": 1}', /^r\.json:1: expected a JSON array/],
    [
      'a comma before the closing bracket',
      '[{"a": 1},\n{"b": 2},\n]',
      /^r\.json:3: a comma before the closing \] is not JSON/,
    ],
    ['a comma alone', '[,]', /^r\.json:1: a comma before the closing \] is not JSON/],
  ])('stops with the line on %s', (_name, input, message) => {
    expect(() => read('json', [input])).toThrow(message);
  });

  it('hands on every element before a comma before the closing bracket, and reads empty arrays', () => {
    const events: unknown[] = [];
    const reader = new JsonArrayReader('r.json', {
      value: (value) => events.push(value),
      invalid: () => events.push('invalid'),
    });
    expect(() => {
      reader.push('[{"a": 1},\n{"b": 2},\n]');
      reader.end();
    }).toThrow(/not JSON/);
    expect(events).toEqual([{ a: 1 }, { b: 2 }]);
    for (const empty of ['[]', '[ ]', '[\n]\n']) expect(read('json', [empty])).toEqual([]);
  });
});

describe('NdjsonReader', () => {
  it('reads one value per line with CRLF and blank lines, invalid lines reported', () => {
    for (const chunks of everyCut('{"a":1}\r\n\n{"b":2}\nnot json\n{"c":3}')) {
      expect(read('ndjson', chunks)).toEqual([
        ['value', { a: 1 }, 1],
        ['value', { b: 2 }, 3],
        ['invalid', 4],
        ['value', { c: 3 }, 5],
      ]);
    }
  });
});
