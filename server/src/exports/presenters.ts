import { createReadStream } from 'node:fs';
import type { FastifyReply } from 'fastify';
import { EXPORT_MEDIA_TYPES, type ExportJob } from '@eln/shared';
import type { AuthUser } from '../auth/authUser.js';
import type { ExportJobRow } from './jobs.js';
import { timestampInfoOf, type StoredStamp } from '../timestamps/queue.js';
import { canDownload } from './policy.js';

/** A job as the list reads it: the row, the names it refers to, and its file's time-stamp (null: none asked). */
export type JobListRow = {
  job: ExportJobRow;
  projectTitle: string | null;
  labNoteNumber: string | null;
  userId: string;
  name: string;
  stamp: Pick<StoredStamp, 'status' | 'genTime' | 'authority' | 'token'> | null;
};

/** A job as the caller sees it: whether they may fetch its file is the policy's answer. */
export const toJob = (user: AuthUser, { job, projectTitle, labNoteNumber, userId, name, stamp }: JobListRow): ExportJob => ({
  jobId: job.jobId,
  format: job.format,
  status: job.status,
  progress: job.progress,
  projectNo: job.projectNo,
  projectTitle,
  startDate: job.startDate,
  endDate: job.endDate,
  pdfA: job.pdfA,
  changes: job.changes,
  comments: job.comments,
  noteNo: job.noteNo,
  labNoteNumber,
  version: job.version,
  requestedBy: { userId, name },
  createdAt: job.createdAt.toISOString(),
  finishedAt: job.finishedAt?.toISOString() ?? null,
  fileName: job.fileName,
  size: job.size,
  sha256: job.sha256,
  errorCode: job.errorCode,
  downloadable: canDownload(user, job) === 'allowed',
  timestamp: stamp ? timestampInfoOf(stamp) : null,
});

/** A finished export's file on disk, as the download sends it. */
export interface ExportFile {
  job: ExportJobRow;
  filePath: string;
  fileName: string;
}

/** Sends the file itself (not the envelope), streamed, with its type, name, size and checksum in the headers. */
export function sendExportFile(reply: FastifyReply, { job, filePath, fileName }: ExportFile): FastifyReply {
  return reply
    .header('content-type', EXPORT_MEDIA_TYPES[job.format])
    .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(fileName)}`)
    .header('content-length', String(job.size ?? ''))
    .header('x-content-sha256', job.sha256 ?? '')
    .send(createReadStream(filePath));
}
