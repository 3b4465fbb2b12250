import Papa from 'papaparse';
import { DROPBOX_CSV_HEADER, type DropboxRow } from '@eln/shared';

/** A file's bytes as base64, for the import call's JSON body. */
export async function fileAsBase64(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk) binary += String.fromCharCode(...bytes.subarray(i, i + chunk));
  return btoa(binary);
}

/**
 * The rows as CSV with the import's own header, in UTF-8 with a BOM so that Excel (which otherwise reads
 * CP949 on Korean Windows) shows the names right; importing the file again gives the same rows.
 */
export function dropboxCsv(rows: readonly DropboxRow[]): string {
  return `\uFEFF${Papa.unparse({ fields: [...DROPBOX_CSV_HEADER], data: rows.map((r) => [r.code, r.name]) }, { newline: '\r\n' })}\r\n`;
}

/** Saves text as a file through the browser's download. */
export function downloadText(text: string, fileName: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
