import { describe, expect, it } from 'vitest';
import type { ExtraFileType } from '@eln/shared';
import { contentCheckFor } from './magic.js';

const CSV: ExtraFileType = { extension: 'csv', mimeType: 'text/csv', check: 'text', signatures: [] };

/** Whether `content` passes as CSV when it streams in as the chunks cut at `cuts`. */
function passesInChunks(content: Buffer, cuts: number[]): boolean {
  const check = contentCheckFor('csv', [CSV]);
  if (!check) throw new Error('csv has no check');
  let from = 0;
  for (const cut of [...cuts, content.length]) {
    check.update(content.subarray(from, cut));
    from = cut;
  }
  return check.passes();
}

describe('the text check', () => {
  const utf8 = Buffer.from('시료,흡광도\n観察,µL\n');
  const cp949 = Buffer.from([0xbd, 0xc3, 0xb7, 0xe1, 0x2c, 0xc8, 0xed, 0xb1, 0xa4, 0xb5, 0xb5, 0x0a]);

  it('passes UTF-8 and CP949 text however the stream cuts it, even inside a character', () => {
    for (const text of [utf8, cp949]) {
      for (let cut = 0; cut <= text.length; cut += 1) expect(passesInChunks(text, [cut]), `cut at ${cut}`).toBe(true);
    }
  });

  it('refuses text ending inside a character, NUL and control bytes, and bytes of neither encoding', () => {
    expect(passesInChunks(utf8.subarray(0, 2), [])).toBe(false);
    expect(passesInChunks(Buffer.concat([utf8, Buffer.from([0x00])]), [5])).toBe(false);
    expect(passesInChunks(Buffer.from('a,b\x07\n'), [])).toBe(false);
    expect(passesInChunks(Buffer.from([0x61, 0xff, 0xff, 0x0a]), [])).toBe(false);
    // Tab, line and page breaks, SUB and escape are text.
    expect(passesInChunks(Buffer.from('a\tb\r\n\f\x1a\x1b[0m\n'), [3])).toBe(true);
  });

  it('has no check for an extension neither the spec nor an administrator allows', () => {
    expect(contentCheckFor('csv')).toBeNull();
    expect(contentCheckFor('exe', [CSV])).toBeNull();
  });
});
