/**
 * GET /api/v1/developer/value and /value/history: a collection's value now (or `at`) and over
 * time, the bodies of `oracle value --json` and `oracle value --history --json`, for a
 * collection given in the query. GET, as every route of the API: nothing is stored. One token
 * of the shared bucket each.
 */
import { parseCollectionCsv, type CollectionRow, type RowProblem } from '../../domain/collection.js';
import { InputError, InvalidParameterError } from '../../domain/errors.js';
import { parseHistoryRequest } from '../../domain/history.js';
import { defineRoute, API_PREFIX } from '../route.js';
import { pricingQueryOf } from '../schemas.js';
import {
  VALUE_MAX_LINES,
  valueHistoryQuery,
  valueHistoryResponse,
  valueQuery,
  valueResponse,
} from '../value-schemas.js';

/** The records of `csv`; an unusable text (no header, unknown columns, broken CSV) or too many lines is a 400. */
export function collectionOf(csv: string): { rows: CollectionRow[]; problems: RowProblem[] } {
  let parsed: { rows: CollectionRow[]; problems: RowProblem[] };
  try {
    parsed = parseCollectionCsv(csv, 'csv');
  } catch (error) {
    if (error instanceof InputError) throw new InvalidParameterError('csv', error.message, { cause: error });
    throw error;
  }
  const lines = parsed.rows.length + parsed.problems.length;
  if (lines > VALUE_MAX_LINES)
    throw new InvalidParameterError(
      'csv',
      `csv holds ${lines} records, at most ${VALUE_MAX_LINES} a request: value the rest in another, or use oracle value`,
    );
  return parsed;
}

export const valueRoute = defineRoute({
  path: `${API_PREFIX}/developer/value`,
  operationId: 'getCollectionValue',
  summary: "A collection's value, line by line, with its interval and gain",
  description: `Each line's unit price and 80 % interval from its product's bundle as of now (or \`at\`), times its quantity; the total, its interval (the sums of the lines' lows and highs) and the gain against cost basis: the body of \`oracle value --json\`. Records that cannot be valued are \`problems\`, the rest are still valued. At most ${VALUE_MAX_LINES} records; nothing is stored. Not in SPEC.md.`,
  auth: true,
  rateLimited: true,
  pathParams: undefined,
  query: valueQuery,
  response: valueResponse,
  errors: [400, 401, 429, 500, 503],
  handle: ({ query, now, oracle }) => {
    const { rows, problems } = collectionOf(query.csv);
    const { asOf, ...params } = pricingQueryOf(query, now);
    return oracle.value({ rows, problems, params: { ...params, asOf: asOf ?? now } });
  },
});

export const valueHistoryRoute = defineRoute({
  path: `${API_PREFIX}/developer/value/history`,
  operationId: 'getCollectionValueHistory',
  summary: "A collection's value over time",
  description: `The sum of the lines' prices at each instant from \`from\` to \`to\` every \`every\` (the history route's instants), the change over the span and the gain at its end: the body of \`oracle value --history --json\`. At most ${VALUE_MAX_LINES} records; nothing is stored. Not in SPEC.md.`,
  auth: true,
  rateLimited: true,
  pathParams: undefined,
  query: valueHistoryQuery,
  response: valueHistoryResponse,
  errors: [400, 401, 429, 500, 503],
  handle: ({ query, now, oracle }) => {
    const { rows, problems } = collectionOf(query.csv);
    return oracle.valueHistory({
      rows,
      problems,
      params: { windowHours: query.window_hours, outlierStddevs: query.outlier_stddevs },
      request: parseHistoryRequest(query, now),
    });
  },
});
