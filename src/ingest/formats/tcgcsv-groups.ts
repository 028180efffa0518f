/**
 * tcgcsv's list of the groups (sets) of one TCGplayer category, which a catalog built from
 * ProductsAndPrices.csv needs for each product's set name and release date:
 * `Groups.csv` (`groupId,name,abbreviation,isSupplemental,publishedOn,modifiedOn,categoryId`)
 * or the groups JSON (`{"success": true, "errors": [], "results": [{groupId, name, publishedOn, ...}]}`).
 * Columns and keys are looked up by name (docs/feeds.md, "tcgcsv groups").
 */
import { CsvParser } from '../../domain/csv.js';
import { InputError } from '../../domain/errors.js';
import { parseCalendarDate } from '../../domain/time.js';

/** One group as a catalog record needs it. */
export interface TcgcsvGroup {
  groupId: string;
  name: string;
  /** `publishedOn` as YYYY-MM-DD, or null when the file gives none. */
  releaseDate: string | null;
  /** Why `publishedOn` is no date (it does not exist, or is not a date): the group's products are rejected with it. */
  releaseProblem: string | null;
  categoryId: string | null;
}

/** Groups by groupId. */
export type TcgcsvGroups = ReadonlyMap<string, TcgcsvGroup>;

/** The largest groups file read (all groups of a category are a few hundred rows: about 50 KB). */
export const MAX_GROUPS_FILE_CHARS = 16 * 2 ** 20;

/**
 * Parses a groups file, CSV or JSON (told by its first character). Throws InputError naming
 * the file and line when it is neither, lacks `groupId`, `name` or `publishedOn` (column or
 * key), or has `productId` (a products file given as --groups).
 */
export function parseTcgcsvGroups(text: string, source: string): TcgcsvGroups {
  const body = text.replace(/^\uFEFF/, '');
  const first = body.trimStart()[0];
  const raw = first === '{' || first === '[' ? jsonGroups(body, source) : csvGroups(body, source);
  const groups = new Map<string, TcgcsvGroup>();
  const lines = new Map<string, number>();
  for (const { line, fields } of raw) {
    const groupId = fields.groupId ?? '';
    if (!/^\d+$/.test(groupId))
      throw new InputError(source, line, `groupId must be digits (got ${JSON.stringify(groupId)})`);
    const name = (fields.name ?? '').trim();
    if (name === '') throw new InputError(source, line, `group ${groupId} has an empty name`);
    const published = publishedDate(fields.publishedOn ?? '');
    const twin = groups.get(groupId);
    if (twin !== undefined) {
      // Which set its products belong to cannot be told; taking either would misname them for good.
      throw new InputError(
        source,
        line,
        `groupId ${groupId} is listed twice, as ${JSON.stringify(twin.name)} (line ${lines.get(groupId)}) and ${JSON.stringify(name)}: the groups file is refused`,
      );
    }
    lines.set(groupId, line);
    groups.set(groupId, {
      groupId,
      name,
      releaseDate: typeof published === 'string' ? published : null,
      releaseProblem: typeof published === 'object' && published !== null ? published.problem : null,
      categoryId: /^\d+$/.test(fields.categoryId ?? '') ? (fields.categoryId as string) : null,
    });
  }
  if (groups.size === 0) throw new InputError(source, 1, 'the groups file lists no group');
  return groups;
}

/** What every groups file has: a catalog takes each product's set name and release date from it. */
const REQUIRED_FIELDS = ['groupId', 'name', 'publishedOn'] as const;

/** Why a file of products (ProductsAndPrices.csv, a products JSON) given as `--groups` is refused. */
const NOT_GROUPS_BUT_PRODUCTS =
  'not a tcgcsv groups file: it has productId, so it lists products (ProductsAndPrices.csv or a products response); ' +
  "--groups takes the category's Groups.csv (https://tcgcsv.com/tcgplayer/<categoryId>/Groups.csv) or groups JSON";

type RawGroup = { line: number; fields: Record<string, string | undefined> };

function csvGroups(text: string, source: string): RawGroup[] {
  const rows: RawGroup[] = [];
  let header: string[] | null = null;
  const parser = new CsvParser(source, (fields, line) => {
    if (header === null) {
      header = fields.map((cell) => cell.trim());
      if (header.includes('productId')) throw new InputError(source, line, NOT_GROUPS_BUT_PRODUCTS);
      for (const column of REQUIRED_FIELDS) {
        if (!header.includes(column)) {
          throw new InputError(
            source,
            line,
            `not a tcgcsv groups file: the header lacks ${column} (expected groupId,name,abbreviation,isSupplemental,publishedOn,modifiedOn,categoryId)`,
          );
        }
      }
      return;
    }
    const record: Record<string, string> = {};
    header.forEach((name, i) => (record[name] = (fields[i] ?? '').trim()));
    rows.push({ line, fields: record });
  });
  parser.push(text);
  parser.end();
  return rows;
}

function jsonGroups(text: string, source: string): RawGroup[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InputError(source, 1, `the groups file is not valid JSON: ${(error as Error).message}`);
  }
  const results = Array.isArray(value) ? value : (value as { results?: unknown } | null)?.results;
  if (!Array.isArray(results))
    throw new InputError(source, 1, 'not a tcgcsv groups response: it has no "results" array');
  return results.map((group: unknown, i) => {
    const g = (typeof group === 'object' && group !== null ? group : {}) as Record<string, unknown>;
    if ('productId' in g) throw new InputError(source, i + 1, NOT_GROUPS_BUT_PRODUCTS);
    const lacking = REQUIRED_FIELDS.find((key) => !(key in g));
    if (lacking !== undefined)
      throw new InputError(
        source,
        i + 1,
        `not a tcgcsv groups response: result ${i + 1} has no ${lacking} key`,
      );
    const fields: Record<string, string | undefined> = {};
    for (const key of ['groupId', 'name', 'publishedOn', 'categoryId']) {
      const v = g[key];
      fields[key] = typeof v === 'string' || typeof v === 'number' ? String(v) : undefined;
    }
    return { line: i + 1, fields };
  });
}

/** `1999-01-09T00:00:00` -> `1999-01-09`; null when empty; `{problem}` when it is no real date. */
function publishedDate(text: string): string | null | { problem: string } {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const match = /^(\d{4}-\d{2}-\d{2})(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(trimmed);
  if (match === null) return { problem: `publishedOn ${JSON.stringify(text)} is not a date` };
  const day = parseCalendarDate(match[1] as string);
  if (typeof day === 'string') return { problem: `publishedOn ${JSON.stringify(text)}: ${day}` };
  return match[1] as string;
}
