/**
 * Reads `--groups` (a path or an http(s) URL, gzip allowed) whole: it is a small list, parsed
 * at once, and read once per command however many set files it serves (one fetch of tcgcsv's
 * Groups.csv for a whole category).
 */
import { InputError } from '../../domain/errors.js';
import { MAX_GROUPS_FILE_CHARS, parseTcgcsvGroups, type TcgcsvGroups } from '../formats/tcgcsv-groups.js';
import { decodeUtf8 } from './decode-utf8.js';
import { openSource } from './open-source.js';

/**
 * The groups of `spec`; throws SourceUnreadableError when it cannot be opened and InputError
 * when it is not a groups file (or larger than MAX_GROUPS_FILE_CHARS).
 */
export async function readTcgcsvGroups(spec: string, stdin: NodeJS.ReadableStream): Promise<TcgcsvGroups> {
  const source = await openSource(spec, stdin);
  let text = '';
  try {
    for await (const chunk of decodeUtf8(source.chunks, source.name)) {
      text += chunk;
      if (text.length > MAX_GROUPS_FILE_CHARS) {
        throw new InputError(
          source.name,
          1,
          `a groups file is at most ${MAX_GROUPS_FILE_CHARS.toLocaleString('en-US')} characters: is this the groups file?`,
        );
      }
    }
    await source.verify();
  } finally {
    source.close();
  }
  return parseTcgcsvGroups(text, source.name);
}

/** `--groups` as the pipeline takes it: read on first use, then the same groups for every source. */
export interface TcgcsvGroupsSource {
  readonly spec: string;
  read(stdin: NodeJS.ReadableStream): Promise<TcgcsvGroups>;
}

/** The groups of `spec`, read at most once (a failure is not kept: the next source tries again). */
export function tcgcsvGroupsSource(spec: string): TcgcsvGroupsSource {
  let groups: Promise<TcgcsvGroups> | null = null;
  return {
    spec,
    read(stdin) {
      groups ??= readTcgcsvGroups(spec, stdin).catch((error: unknown) => {
        groups = null;
        throw error;
      });
      return groups;
    },
  };
}
