import { describe, expect, it } from 'vitest';
import { cleanFileName, FILE_NAME_MAX } from './fileName.js';

describe('cleanFileName', () => {
  it('keeps an ordinary name, in any script', () => {
    expect(cleanFileName('gel photo.png')).toBe('gel photo.png');
    expect(cleanFileName('실험 결과 2일차.pdf')).toBe('실험 결과 2일차.pdf');
  });

  it('removes NUL and other control characters, path separators and direction marks', () => {
    expect(cleanFileName('a\u0000b.png')).toBe('ab.png');
    expect(cleanFileName('line\r\nbreak\t.txt')).toBe('linebreak.txt');
    expect(cleanFileName('..\\..\\windows/system.png')).toBe('windowssystem.png');
    expect(cleanFileName('invoice\u202egnp.exe')).toBe('invoicegnp.exe');
    expect(cleanFileName('what?"<now>|:*.txt')).toBe('whatnow.txt');
  });

  it('drops leading dots and spaces, and names what is left empty `file`', () => {
    expect(cleanFileName('.hidden.png')).toBe('hidden.png');
    expect(cleanFileName('\u0000\u0001.png')).toBe('file.png');
    expect(cleanFileName('')).toBe('file');
  });

  it('repairs lone surrogates rather than storing them', () => {
    expect(cleanFileName('a\ud800b.png')).toBe('a\ufffdb.png');
  });

  it('limits the length and keeps the extension', () => {
    const long = cleanFileName(`${'x'.repeat(500)}.png`);
    expect(long).toHaveLength(FILE_NAME_MAX);
    expect(long.endsWith('x.png')).toBe(true);
    const emoji = cleanFileName(`${'😀'.repeat(300)}.png`);
    expect(Array.from(emoji)).toHaveLength(FILE_NAME_MAX);
    expect(emoji.endsWith('😀.png')).toBe(true);
  });
});
