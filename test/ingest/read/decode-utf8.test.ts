// @module-tag sqlite-only: reading a source: no store
import { describe, expect, it } from 'vitest';
import { decodeUtf8, firstInvalidUtf8 } from '../../../src/ingest/read/decode-utf8.js';

async function decode(chunks: Buffer[]): Promise<string> {
  async function* source() {
    yield* chunks;
  }
  let text = '';
  for await (const part of decodeUtf8(source(), 'in.csv')) text += part;
  return text;
}

describe('decodeUtf8', () => {
  it('strips a leading BOM', async () => {
    expect(await decode([Buffer.from('\uFEFFa,b\n', 'utf8')])).toBe('a,b\n');
  });

  it('joins a multi-byte character split across chunks', async () => {
    const bytes = Buffer.from('Pokémon 🃏\n', 'utf8');
    for (let cut = 1; cut < bytes.length; cut += 1) {
      expect(await decode([bytes.subarray(0, cut), bytes.subarray(cut)])).toBe('Pokémon 🃏\n');
    }
  });

  it('names the line of the first invalid byte, counting lines of earlier chunks', async () => {
    const first = Buffer.from('a\nb\n', 'utf8');
    const second = Buffer.concat([Buffer.from('c\nd', 'utf8'), Buffer.from([0xe9]), Buffer.from('x\n')]);
    await expect(decode([first, second])).rejects.toThrow(/^in\.csv:4: invalid UTF-8/);
  });

  it('rejects a file that ends inside a multi-byte character', async () => {
    await expect(decode([Buffer.from([0x61, 0x0a, 0xe2, 0x82])])).rejects.toThrow(
      /^in\.csv:2: invalid UTF-8/,
    );
  });

  it('finds overlong encodings and surrogates as invalid', () => {
    expect(firstInvalidUtf8(Buffer.from([0x61, 0xc0, 0xaf]))).toBe(1);
    expect(firstInvalidUtf8(Buffer.from([0xed, 0xa0, 0x80]))).toBe(0);
    expect(firstInvalidUtf8(Buffer.from('ok é', 'utf8'))).toBe(5);
  });
});
