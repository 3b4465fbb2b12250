import { z } from 'zod';
import { dateFilter, recordNo, text } from '../validation.js';

/**
 * Exports leave the notebook as background jobs: a project's notes as PDF or as a signed .eln archive
 * (RO-Crate), and the audit trail as CSV. Each job is listed with its progress; its file is fetched with a
 * signed, short-lived token only the requester can use.
 */
export const EXPORT_FORMATS = ['pdf', 'eln', 'auditCsv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Formats that export projects (the audit CSV exports the trail). */
export const PROJECT_EXPORT_FORMATS = ['pdf', 'eln'] as const satisfies readonly ExportFormat[];
export const isProjectFormat = (format: ExportFormat): format is (typeof PROJECT_EXPORT_FORMATS)[number] => format !== 'auditCsv';

/** Whether the runtime knows the IANA zone (`Asia/Seoul`). */
export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

export const EXPORT_STATUS = { queued: 'queued', running: 'running', done: 'done', failed: 'failed' } as const;
export type ExportStatus = (typeof EXPORT_STATUS)[keyof typeof EXPORT_STATUS];

export const EXPORT_LIMITS = {
  /** Projects one request may export (one job each). */
  projectsPerRequest: 20,
  /** Jobs one user may have waiting or running at a time. */
  openJobsPerUser: 10,
  /** Seconds a download token stays valid. */
  linkSeconds: 300,
  /** Jobs the list shows. */
  listSize: 50,
  /** Days a finished export's file is kept. */
  keepDays: 7,
  /** Length of a download token. */
  tokenMax: 400,
} as const;

export const EXPORT_MEDIA_TYPES: Record<ExportFormat, string> = {
  pdf: 'application/pdf',
  eln: 'application/vnd.eln+zip',
  auditCsv: 'text/csv; charset=utf-8',
};

export const exportCreateRequest = z
  .strictObject({
    format: z.enum(EXPORT_FORMATS),
    /** The projects to export (pdf and eln); none for the audit CSV. */
    projectNos: z.array(recordNo).max(EXPORT_LIMITS.projectsPerRequest).optional().default([]),
    /** Notes changed (pdf, eln) or records made (auditCsv) within these calendar days, both included. */
    startDate: dateFilter,
    endDate: dateFilter,
    /** One note's saved version as PDF instead of whole projects (format pdf, no projectNos). */
    noteNo: recordNo.optional(),
    /** The version of that note; its latest saved version when absent. */
    version: recordNo.optional(),
    /** A PDF made PDF/A-2b for long-term archiving (needs Ghostscript on the server). */
    pdfA: z.boolean().optional().default(false),
    /** The requester's zone (IANA): the days are read in it and the files show times in it. */
    timeZone: text().max(64).refine(isTimeZone, { error: 'invalidValue' }).optional(),
  })
  .refine((p) => !p.startDate || !p.endDate || p.startDate <= p.endDate, { error: 'dateOrder', path: ['endDate'] })
  .refine((p) => p.format === 'auditCsv' || p.noteNo !== undefined || p.projectNos.length > 0, { error: 'required', path: ['projectNos'] })
  .refine((p) => p.noteNo === undefined || (p.format === 'pdf' && p.projectNos.length === 0), { error: 'invalidValue', path: ['noteNo'] })
  .refine((p) => p.version === undefined || p.noteNo !== undefined, { error: 'invalidValue', path: ['version'] })
  .refine((p) => p.format !== 'auditCsv' || p.projectNos.length === 0, { error: 'invalidValue', path: ['projectNos'] })
  .refine((p) => p.format === 'pdf' || !p.pdfA, { error: 'invalidValue', path: ['pdfA'] });
export type ExportCreateRequest = z.input<typeof exportCreateRequest>;

export const exportListRequest = z.strictObject({
  /** Only this project's jobs (the project screen's export panel). */
  projectNo: recordNo.optional(),
});

export const exportPublicKeyRequest = z.strictObject({});

/** Where a .eln archive is uploaded for import (multipart, one file part). */
export const ELN_IMPORT_PATH = '/v1/export/import';

export const exportJobRequest = z.strictObject({ jobId: z.string().uuid() });
export const exportDownloadRequest = z.strictObject({ token: text().min(1).max(EXPORT_LIMITS.tokenMax) });

export interface ExportJob {
  jobId: string;
  format: ExportFormat;
  status: ExportStatus;
  /** 0-100. */
  progress: number;
  projectNo: number | null;
  projectTitle: string | null;
  startDate: string | null;
  endDate: string | null;
  pdfA: boolean;
  /** A single note's export: the note, its number and the version printed. */
  noteNo: number | null;
  labNoteNumber: string | null;
  version: number | null;
  requestedBy: { userId: string; name: string };
  createdAt: string;
  finishedAt: string | null;
  fileName: string | null;
  size: number | null;
  sha256: string | null;
  /** Why a failed job failed (an error code of the catalogue). */
  errorCode: string | null;
  /** The caller may fetch its file (the requester, once done). */
  downloadable: boolean;
}

export interface ExportCreateAnswer {
  list: ExportJob[];
}

export interface ExportLinkAnswer {
  token: string;
  expiresAt: string;
}

export interface ExportPublicKey {
  keyId: string;
  /** The key in minisign's .pub format. */
  minisignPub: string;
}

export interface ElnImportAnswer {
  projectNo: number;
  title: string;
  noteCount: number;
  /** Whose key signed the archive: this notebook's, another one's, or none. */
  signed: 'thisServer' | 'otherKey' | 'unsigned';
}
