import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { dropboxCsv, fileAsBase64 } from './csvFile';

describe('dropbox CSV files', () => {
  it('exports rows with the import header and a BOM, quoting what needs quoting, so they read back the same', () => {
    const rows = [
      { code: 'EtOH', name: 'Ethanol, absolute' },
      { code: 'q"1', name: '밀리그램' },
      { code: '', name: 'no code' },
    ];
    const text = dropboxCsv(rows);
    expect(text.startsWith('\uFEFFcode,name\r\n')).toBe(true);
    const parsed = Papa.parse<string[]>(text.slice(1), { skipEmptyLines: true });
    expect(parsed.data.slice(1).map(([code, name]) => ({ code, name }))).toEqual(rows);
  });

  it('reads a file as base64', async () => {
    const bytes = new Uint8Array([0xb9, 0xd0, 0x2c, 0x0a, 0xff]);
    expect(Buffer.from(await fileAsBase64(new Blob([bytes])), 'base64')).toEqual(Buffer.from(bytes));
  });
});
