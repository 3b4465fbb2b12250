import type { CellRef } from '@eln/shared/editor';

/** Spreadsheet-style address of a grid slot: column letters and a row number from 1 (A1, AB12). */
export function cellAddress(ref: CellRef): string {
  let n = ref.col + 1;
  let letters = '';
  while (n > 0) {
    const rest = (n - 1) % 26;
    letters = String.fromCharCode(65 + rest) + letters;
    n = Math.floor((n - 1) / 26);
  }
  return `${letters}${ref.row + 1}`;
}
