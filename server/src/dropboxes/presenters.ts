import type { DropboxSummary } from '@eln/shared';
import type { DropboxRecord } from './record.js';

export function summaryOf(dropbox: DropboxRecord, rows: number, updatedByName: string | null): DropboxSummary {
  return {
    dropboxNo: dropbox.dropboxNo,
    title: dropbox.title,
    status: dropbox.status,
    rowCount: rows,
    updatedAt: dropbox.updatedAt.toISOString(),
    updatedByName,
  };
}
