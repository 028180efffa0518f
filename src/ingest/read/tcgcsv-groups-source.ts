/** Reads `--groups` (a path or an http(s) URL, gzip allowed) whole: it is a small list, parsed at once. */
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
        throw new InputError(source.name, 1, `a groups file is at most ${MAX_GROUPS_FILE_CHARS.toLocaleString('en-US')} characters: is this the groups file?`);
      }
    }
    await source.verify();
  } finally {
    source.close();
  }
  return parseTcgcsvGroups(text, source.name);
}
