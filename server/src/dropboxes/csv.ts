import Papa from 'papaparse';
import { DROPBOX_CSV_HEADER, ERR, type DropboxCsvEncoding, type DropboxRow, type ErrorCode } from '@eln/shared';

export type CsvReading =
  { ok: true; encoding: Exclude<DropboxCsvEncoding, 'auto'>; rows: DropboxRow[]; lines: number[] } | { ok: false; code: ErrorCode };

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);
/** Control characters a text file does not hold (tab, CR and LF are fine). */
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

function decodeStrict(bytes: Uint8Array, label: 'utf-8' | 'euc-kr'): string | null {
  try {
    return new TextDecoder(label, { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/**
 * The file's text: UTF-8 with or without BOM, or the Korean Excel default CP949 (read as EUC-KR, which
 * Node's decoder extends to CP949). `auto` tries UTF-8 first, since CP949 bytes are rarely valid UTF-8.
 * A file that is neither, or holds control characters, is not a text file (a renamed binary).
 */
export function decodeCsv(bytes: Buffer, encoding: DropboxCsvEncoding): { text: string; encoding: 'utf-8' | 'euc-kr' } | null {
  const hasBom = bytes.subarray(0, 3).equals(UTF8_BOM);
  const body = hasBom ? bytes.subarray(3) : bytes;
  const attempts: Array<'utf-8' | 'euc-kr'> = encoding === 'auto' ? (hasBom ? ['utf-8'] : ['utf-8', 'euc-kr']) : [encoding];
  for (const label of attempts) {
    const text = decodeStrict(body, label);
    if (text !== null) return CONTROL.test(text) ? null : { text, encoding: label };
  }
  return null;
}

/**
 * Reads a dropbox CSV: the header `code,name` (any case, spaces around ignored), then one row per line;
 * blank lines are skipped. Rows keep their file line so the preview can point at them.
 */
export function readDropboxCsv(bytes: Buffer, encoding: DropboxCsvEncoding): CsvReading {
  const decoded = decodeCsv(bytes, encoding);
  if (!decoded) return { ok: false, code: ERR.dropboxNotCsv };
  const parsed = Papa.parse<string[]>(decoded.text, { skipEmptyLines: false });
  if (parsed.errors.some((e) => e.type === 'Quotes')) return { ok: false, code: ERR.dropboxNotCsv };
  const [header, ...records] = parsed.data;
  if (!header || header.map((cell) => cell.trim().toLowerCase()).join(',') !== DROPBOX_CSV_HEADER.join(',')) {
    return { ok: false, code: ERR.dropboxCsvHeader };
  }
  const rows: DropboxRow[] = [];
  const lines: number[] = [];
  records.forEach((cells, index) => {
    if (cells.every((cell) => cell.trim() === '')) return;
    // Columns past the second must be empty (Excel pads rows); otherwise the name takes them, and the
    // length rule then shows the row rather than losing what was typed there.
    const [code = '', name = '', ...rest] = cells;
    rows.push({ code, name: rest.some((cell) => cell.trim() !== '') ? [name, ...rest].join(',') : name });
    lines.push(index + 2);
  });
  return { ok: true, encoding: decoded.encoding, rows, lines };
}
