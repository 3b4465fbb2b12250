import { LIMITS } from '../limits.js';

/**
 * A table cell's dropbox (spec §5: one per cell, never in a header cell): which code list the cell offers
 * and the row chosen from it. The chosen row's code and name are copies, so renaming a row in the
 * dropbox later does not change what a (signed) note says.
 */
export interface CellDropbox {
  /** The dropbox the cell offers; null only for a cell named before dropboxes were a catalogue. */
  dropboxNo: number | null;
  /** The dropbox's title when it was attached. */
  title: string;
  /** The chosen row, or null before a choice. */
  code: string | null;
  name: string | null;
  /** The server's seal over the fields above (`/v1/dropbox/cell`): a copy nobody could have made up. */
  seal: string;
}

import { isRecordNo, isSeal } from './catalogueCopies.js';

const within = (value: unknown, max: number): value is string => typeof value === 'string' && value.length <= max;

/**
 * The cell attribute `dropbox` read as a CellDropbox: null when the cell has none, `invalid` when the
 * attribute is anything else than a dropbox reference (the content rule `dropboxValue`). A plain string is
 * the older form (a dropbox named by title, nothing chosen), still valid so older notes stay editable.
 */
export function readCellDropbox(value: unknown): CellDropbox | null | 'invalid' {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value === 'string')
    return within(value, LIMITS.dropboxName) ? { dropboxNo: null, title: value, code: null, name: null, seal: '' } : 'invalid';
  if (typeof value !== 'object' || Array.isArray(value)) return 'invalid';
  const { dropboxNo, title, code, name, seal, ...rest } = value as Record<string, unknown>;
  if (Object.keys(rest).length > 0 || !isRecordNo(dropboxNo) || !within(title, LIMITS.dropboxName) || title.trim() === '' || !isSeal(seal))
    return 'invalid';
  const nothingChosen = code === null && name === null;
  const chosen = within(code, LIMITS.dropboxCode) && within(name, LIMITS.dropboxRowName);
  return nothingChosen || chosen ? { dropboxNo, title, code, name, seal } : 'invalid';
}

/** The cell's dropbox, or null when it has none or an invalid one. */
export function cellDropboxOf(value: unknown): CellDropbox | null {
  const read = readCellDropbox(value);
  return read === 'invalid' ? null : read;
}
