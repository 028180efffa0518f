/**
 * The canonical CSV of CONTRACT.md: a header of record field names (any case), one record
 * per row. Column positions are resolved once per file and rows become plain records with
 * no further lookups: this is the hot path of a large ingest.
 */
import { CATALOG_FIELDS } from '../validate/catalog.js';
import { observationColumns, type ObservationColumns } from '../validate/observation-fast.js';
import { OBSERVATION_FIELDS } from '../validate/observation.js';
import type { CanonicalRecord } from '../validate/record.js';
import { RowRejection, type RecordKind, type RecordSink, type RowFormat, type RowMapper } from './types.js';

/** The sink of canonical rows, whose records are already normalised (trimmed, empty cells left out). */
export interface NormalizedRecordSink extends RecordSink {
  observation(record: CanonicalRecord, normalized?: boolean): void;
  product(record: CanonicalRecord, normalized?: boolean): void;
  /** An observation row as its cells: checked without building a record (the hot path). */
  observationCells(fields: readonly string[], columns: ObservationColumns): void;
}

const REQUIRED: Record<RecordKind, readonly (readonly string[])[]> = {
  observations: [
    ['product_key', 'refsource_id', 'tcgplayer_id'],
    ['source'],
    ['observed_at'],
    ['price_minor', 'price'],
  ],
  catalog: [['product_key'], ['product_name']],
};

const FIELDS: Record<RecordKind, readonly string[]> = {
  observations: OBSERVATION_FIELDS,
  catalog: CATALOG_FIELDS,
};

/** A header cell as a field name: trimmed, lower case. */
export function columnName(cell: string): string {
  return cell.trim().toLowerCase();
}

/** The canonical CSV format of one kind. */
export function canonicalCsv(kind: RecordKind): RowFormat {
  return {
    name: 'csv',
    kinds: [kind],
    open(header) {
      const names = header.map(columnName);
      checkColumns(kind, names);
      return createMapper(kind, names);
    },
  };
}

function checkColumns(kind: RecordKind, names: readonly string[]): void {
  const allowed = FIELDS[kind];
  const unknown = names.filter((name) => !allowed.includes(name));
  if (unknown.length > 0) {
    const list = unknown
      .map((name) => JSON.stringify(name.length > 40 ? `${name.slice(0, 40)}…` : name))
      .join(', ');
    throw new Error(
      `unknown column${unknown.length > 1 ? 's' : ''} ${list} in the ${kind} header (allowed: ${allowed.join(', ')})`,
    );
  }
  const repeated = names.find((name, i) => names.indexOf(name) !== i);
  if (repeated !== undefined)
    throw new Error(`column ${JSON.stringify(repeated)} appears twice in the header`);
  for (const anyOf of REQUIRED[kind]) {
    if (!anyOf.some((name) => names.includes(name))) {
      throw new Error(
        `the ${kind} header lacks ${anyOf.length > 1 ? `one of ${anyOf.join(', ')}` : `column ${anyOf[0]}`}`,
      );
    }
  }
}

function createMapper(kind: RecordKind, names: readonly string[]): RowMapper {
  const width = names.length;
  if (kind === 'observations') {
    const columns = observationColumns(names);
    return (row, out) => {
      if (row.fields.length !== width)
        throw new RowRejection(`expected ${width} fields as in the header, found ${row.fields.length}`);
      (out as NormalizedRecordSink).observationCells(row.fields, columns);
    };
  }
  return (row, out) => {
    const fields = row.fields;
    if (fields.length !== width)
      throw new RowRejection(`expected ${width} fields as in the header, found ${fields.length}`);
    const record: CanonicalRecord = {};
    for (let i = 0; i < width; i += 1) {
      const value = (fields[i] as string).trim();
      if (value !== '') record[names[i] as string] = value;
    }
    (out as NormalizedRecordSink).product(record, true);
  };
}
