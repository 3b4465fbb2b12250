import { ERR, type CheckedDropboxRow } from '@eln/shared';
import { isApiError } from '../../api/errors';
import type { ImportPreview } from './DropboxImport';

/**
 * When the server refuses rows (4503) it answers every row with its problems: the preview shows those,
 * so what is marked is what the server found, not a guess of the screen's.
 */
export function withRowsFromRefusal(preview: ImportPreview | null, error: unknown): ImportPreview | null {
  if (!preview || !isApiError(error) || error.status !== ERR.dropboxRows) return preview;
  const data = error.data as { rows?: CheckedDropboxRow[] } | null;
  if (!Array.isArray(data?.rows)) return preview;
  return { ...preview, answer: { ...preview.answer, rows: data.rows, ok: false } };
}
