/**
 * A collection file for `oracle value`: a CSV with a header naming `product_key` and/or
 * `refsource_id`, `condition`, `quantity` and optionally what the line's units cost in total,
 * as `cost_basis` in dollars (`$12.50`, `12.50`, `1,250`) or `cost_basis_minor` in cents (a
 * record gives one of them). Each record is checked on its own: a bad one is named with
 * its line number and the rest are still valued. Unusable files (no header, unknown or
 * missing columns, broken CSV) are an InputError (exit 2).
 */
import { CsvParser } from './csv.js';
import { InputError } from './errors.js';
import { CONDITION_HELP, parseCondition } from './conditions.js';
import { integerInRange, readInput } from './input.js';
import { parseDollars } from './money.js';

export interface CollectionRow {
  /** Physical line of the record in the file (the header is line 1). */
  line: number;
  productKey: string | null;
  refsourceId: string | null;
  /** A slot of the bundle: `ungraded`, `psa10`, `bgs9` ... */
  condition: string;
  quantity: number;
  /** Total cost of the line's units, in cents; null when not given. */
  costBasisMinor: number | null;
}

export interface RowProblem {
  line: number;
  reason: string;
}

const COLUMNS = [
  'product_key',
  'refsource_id',
  'condition',
  'quantity',
  'cost_basis',
  'cost_basis_minor',
] as const;
/** Units on one line, at most (a typo guard, far above any real holding). */
export const MAX_QUANTITY = 1_000_000;
/**
 * What one line may have cost, at most, in cents ($10 billion): far above any real holding,
 * and low enough that the cost of 900,000 such lines still sums exactly in a double.
 */
export const MAX_COST_BASIS_MINOR = 1_000_000_000_000;
const QUANTITY = integerInRange({ min: 1, max: MAX_QUANTITY });
const COST_BASIS_MINOR = integerInRange({ min: 0, max: MAX_COST_BASIS_MINOR });
export function parseCollectionCsv(
  text: string,
  source: string,
): { rows: CollectionRow[]; problems: RowProblem[] } {
  const rows: CollectionRow[] = [];
  const problems: RowProblem[] = [];
  let header: string[] | null = null;
  const parser = new CsvParser(source, (fields, line) => {
    if (header === null) {
      header = fields.map((f) => f.trim().toLowerCase());
      const unknown = header.filter((h) => !(COLUMNS as readonly string[]).includes(h));
      if (unknown.length > 0)
        throw new InputError(
          source,
          line,
          `unknown column ${unknown.map((u) => JSON.stringify(u)).join(', ')}: the columns are ${COLUMNS.join(', ')}`,
        );
      const missing = ['condition', 'quantity'].filter((c) => !header!.includes(c));
      if (!header.includes('product_key') && !header.includes('refsource_id'))
        missing.unshift('product_key or refsource_id');
      if (missing.length > 0) throw new InputError(source, line, `missing column ${missing.join(', ')}`);
      return;
    }
    const cell = (name: string) => {
      const i = header!.indexOf(name);
      const value = i < 0 ? '' : (fields[i] ?? '').trim();
      return value === '' ? null : value;
    };
    try {
      rows.push(collectionRow(line, cell));
    } catch (error) {
      problems.push({ line, reason: (error as Error).message });
    }
  });
  parser.push(text.startsWith('\uFEFF') ? text.slice(1) : text);
  parser.end();
  if (header === null)
    throw new InputError(
      source,
      1,
      'empty file: expected a header such as product_key,condition,quantity,cost_basis_minor',
    );
  return { rows, problems };
}

function collectionRow(line: number, cell: (name: string) => string | null): CollectionRow {
  const productKey = cell('product_key');
  const refsourceId = cell('refsource_id');
  if (productKey === null && refsourceId === null) throw new Error('product_key or refsource_id is required');
  const condition = parseCondition(cell('condition') ?? '');
  if (condition === null)
    throw new Error(`condition must be ${CONDITION_HELP} (got ${JSON.stringify(cell('condition') ?? '')})`);
  if (condition.startsWith('raw-'))
    throw new Error(
      `condition ${JSON.stringify(cell('condition'))} is a played raw card, which is kept as evidence and never priced: value it as ungraded or leave it out`,
    );
  const quantity = readInput(QUANTITY, cell('quantity') ?? '', 'quantity');
  const dollars = cell('cost_basis');
  const cents = cell('cost_basis_minor');
  if (dollars !== null && cents !== null)
    throw new Error('give cost_basis (dollars) or cost_basis_minor (cents), not both');
  const costBasisMinor =
    dollars !== null
      ? costInDollars(dollars)
      : cents === null
        ? null
        : readInput(COST_BASIS_MINOR, cents, 'cost_basis_minor');
  return { line, productKey, refsourceId, condition, quantity, costBasisMinor };
}

/** `cost_basis`: the line's total cost in dollars, at most MAX_COST_BASIS_MINOR cents. */
function costInDollars(text: string): number {
  const cents = parseDollars(text);
  if (cents === null || cents > MAX_COST_BASIS_MINOR) {
    throw new Error(
      `cost_basis must be dollars from 0 to $${(MAX_COST_BASIS_MINOR / 100).toLocaleString('en-US')}, with at most 2 decimals ($12.50, 12.50, 1,250; got ${JSON.stringify(text)})`,
    );
  }
  return cents;
}
