import { describe, expect, it } from 'vitest';
import { exportHeadOf, readExportHead } from './exportHead';

const hash = 'ab'.repeat(32);

describe('the head an audit export names', () => {
  it('is read from the last line, and nowhere else', () => {
    expect(exportHeadOf(`seq,at\r\n1,x\r\n# audit chain head: seq=42 hash=${hash}\r\n`)).toEqual({ seq: 42, hash });
    expect(exportHeadOf(`# audit chain head: seq=42 hash=${hash}\r\n1,x\r\n`)).toBeNull();
    expect(exportHeadOf('seq,at\r\n1,x\r\n')).toBeNull();
    expect(exportHeadOf(`# audit chain head: seq=0 hash=${hash}`)).toBeNull();
    expect(exportHeadOf(`# audit chain head: seq=4 hash=${hash.slice(2)}`)).toBeNull();
  });

  it('is found at the end of a large file', async () => {
    const body = `${'9,'.repeat(100_000)}\r\n# audit chain head: seq=7 hash=${hash}\r\n`;
    expect(await readExportHead(new Blob([`\uFEFF${body}`]))).toEqual({ seq: 7, hash });
  });
});
