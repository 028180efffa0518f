/**
 * Choosing how to read a source: the container (CSV, NDJSON, JSON array) from --format,
 * else the file extension, else the first characters; the record kind from the CSV header
 * or the first JSON record's keys, unless --kind says it.
 */
import { canonicalCsv, columnName } from './canonical-csv.js';
import {
  FEED_FORMATS,
  findFeedFormat,
  findJsonFeedFormat,
  isContainerFormat,
  type ContainerFormat,
} from './index.js';
import type { RecordKind, RowFormat } from './types.js';

/** The container of a source. `head` is its first text (at least one non-blank character). */
export function chooseContainer(format: string | undefined, path: string, head: string): ContainerFormat {
  const first = head.trimStart()[0];
  if (findJsonFeedFormat(format) !== undefined) return first === '[' ? 'json' : 'ndjson'; // JSON feeds: an array, else NDJSON
  if (format !== undefined) return isContainerFormat(format) ? format : 'csv'; // the other feed formats are CSV
  const extension = /\.([a-z0-9]+)$/i.exec(path.replace(/\.gz$/i, ''))?.[1]?.toLowerCase();
  if (extension === 'csv') return 'csv';
  if (extension === 'ndjson' || extension === 'jsonl') return 'ndjson';
  if (extension === 'json') return first === '[' ? 'json' : 'ndjson';
  if (first === '[') return 'json';
  if (first === '{') return 'ndjson';
  return 'csv';
}

/**
 * The kind named by record field names: catalog records have product_name and no
 * observed_at; observations have observed_at, source or a price. null when neither.
 */
export function kindOfFields(names: readonly string[]): RecordKind | null {
  if (names.includes('product_name') && !names.includes('observed_at')) return 'catalog';
  if (['observed_at', 'source', 'price', 'price_minor'].some((name) => names.includes(name)))
    return 'observations';
  return null;
}

/** The row format of a CSV source from its header; throws with a message naming the problem. */
export function chooseCsvFormat(
  header: readonly string[],
  format: string | undefined,
  kind: RecordKind | undefined,
): RowFormat {
  const feed = format === undefined ? undefined : findFeedFormat(format);
  if (feed) return checkKind(feed, kind);
  const detected = kindOfFields(header.map(columnName));
  if (detected !== null) {
    if (kind !== undefined && kind !== detected) {
      throw new Error(`the header has ${detected} columns but --kind is ${kind}`);
    }
    return canonicalCsv(detected);
  }
  if (format === undefined) {
    const recognised = FEED_FORMATS.find((candidate) => candidate.detect?.(header));
    if (recognised) return checkKind(recognised, kind);
  }
  if (kind !== undefined) return canonicalCsv(kind);
  throw new Error(
    'cannot tell the record kind from the header: observations need source, observed_at and price or price_minor; ' +
      'catalog records need product_key and product_name (or use --kind / --format)',
  );
}

function checkKind(format: RowFormat, kind: RecordKind | undefined): RowFormat {
  if (kind !== undefined && !format.kinds.includes(kind)) {
    throw new Error(`--format ${format.name} makes ${format.kinds.join(' and ')} records, not ${kind}`);
  }
  return format;
}
