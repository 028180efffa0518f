/**
 * UTF-8 decoding that refuses invalid bytes (a Latin-1 export would otherwise be stored as
 * U+FFFD garbage) and names the line of the first bad byte. A leading BOM is dropped.
 */
import { InputError } from '../../domain/errors.js';

const LF = 0x0a;

/** Decodes byte chunks to text chunks; throws InputError at the first invalid UTF-8 sequence. */
export async function* decodeUtf8(chunks: AsyncIterable<Buffer>, source: string): AsyncGenerator<string> {
  // fatal: throw instead of substituting U+FFFD; the BOM is stripped by default (ignoreBOM: false).
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let line = 1; // line at the start of the current chunk
  let tail: Buffer = Buffer.alloc(0); // an incomplete sequence the previous chunk ended with
  for await (const chunk of chunks) {
    let text: string;
    try {
      text = decoder.decode(chunk, { stream: true });
    } catch (error) {
      const joined = tail.length === 0 ? chunk : Buffer.concat([tail, chunk]);
      const invalidAt = firstInvalidUtf8(joined);
      // Hand on the valid text before the bad byte, so the records before its line are kept.
      if (invalidAt > 0) yield joined.toString('utf8', 0, invalidAt);
      const offset = Math.max(0, invalidAt - tail.length);
      throw new InputError(
        source,
        line + countNewlines(chunk, offset),
        'invalid UTF-8 (the file must be UTF-8 encoded)',
        {
          cause: error,
        },
      );
    }
    line += countNewlines(chunk, chunk.length);
    tail = chunk.subarray(chunk.length - incompleteTailLength(chunk));
    if (text !== '') yield text;
  }
  try {
    const rest = decoder.decode();
    if (rest !== '') yield rest;
  } catch (error) {
    throw new InputError(source, line, 'invalid UTF-8: the file ends inside a multi-byte character', {
      cause: error,
    });
  }
}

function countNewlines(buf: Buffer, end: number): number {
  let count = 0;
  let i = buf.indexOf(LF);
  while (i !== -1 && i < end) {
    count += 1;
    i = buf.indexOf(LF, i + 1);
  }
  return count;
}

/** Bytes at the end of `buf` that start a multi-byte sequence not yet complete. */
function incompleteTailLength(buf: Buffer): number {
  for (let back = 1; back <= Math.min(3, buf.length); back += 1) {
    const byte = buf[buf.length - back] as number;
    if ((byte & 0xc0) !== 0x80) {
      const need = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
      return need > back ? back : 0;
    }
  }
  return 0;
}

/**
 * Offset of the first byte of the first invalid sequence (RFC 3629: no overlongs, no
 * surrogates, nothing above U+10FFFF); buf.length when there is none.
 */
export function firstInvalidUtf8(buf: Uint8Array): number {
  const n = buf.length;
  let i = 0;
  while (i < n) {
    const b = buf[i] as number;
    if (b < 0x80) {
      i += 1;
      continue;
    }
    let need: number;
    let min: number;
    let cp: number;
    if (b >= 0xc2 && b <= 0xdf) [need, min, cp] = [1, 0x80, b & 0x1f];
    else if (b >= 0xe0 && b <= 0xef) [need, min, cp] = [2, 0x800, b & 0x0f];
    else if (b >= 0xf0 && b <= 0xf4) [need, min, cp] = [3, 0x10000, b & 0x07];
    else return i;
    for (let k = 1; k <= need; k += 1) {
      if (i + k >= n) return n; // truncated at the end: the next chunk may complete it
      const c = buf[i + k] as number;
      if ((c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return n;
}
