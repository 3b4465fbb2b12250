import { z } from 'zod';
import { ERR } from '../errors.js';
import { SIGNING_KEY_LIMITS } from '../limits.js';
import { dateFilter, optionalText, recordNo, requiredText, text, timeZoneField } from '../validation.js';
import { defineCall, fileAnswer, noAnswer } from './call.js';
import { emptyRequest } from './identity.js';
import { listAnswer } from './paging.js';
import { timestampInfo } from './timestamps.js';

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
    /** A PDF with, after each note's content, what changed since the version before it (the shared diff). */
    changes: z.boolean().optional().default(false),
    /** A PDF with each note's comment threads as an appendix, marked as not part of the signed content. */
    comments: z.boolean().optional().default(false),
    /** The requester's zone (IANA): the days are read in it and the files show times in it. */
    timeZone: timeZoneField.optional(),
  })
  .refine((p) => !p.startDate || !p.endDate || p.startDate <= p.endDate, { error: 'dateOrder', path: ['endDate'] })
  .refine((p) => p.format === 'auditCsv' || p.noteNo !== undefined || p.projectNos.length > 0, { error: 'required', path: ['projectNos'] })
  .refine((p) => p.noteNo === undefined || (p.format === 'pdf' && p.projectNos.length === 0), { error: 'invalidValue', path: ['noteNo'] })
  .refine((p) => p.version === undefined || p.noteNo !== undefined, { error: 'invalidValue', path: ['version'] })
  .refine((p) => p.format !== 'auditCsv' || p.projectNos.length === 0, { error: 'invalidValue', path: ['projectNos'] })
  .refine((p) => p.format === 'pdf' || !p.pdfA, { error: 'invalidValue', path: ['pdfA'] })
  .refine((p) => p.format === 'pdf' || !p.changes, { error: 'invalidValue', path: ['changes'] })
  .refine((p) => p.format === 'pdf' || !p.comments, { error: 'invalidValue', path: ['comments'] });
export type ExportCreateRequest = z.input<typeof exportCreateRequest>;

export const exportListRequest = z.strictObject({
  /** Only this project's jobs (the project screen's export panel). */
  projectNo: recordNo.optional(),
});

export const exportPublicKeyRequest = z.strictObject({});
export const exportSupportRequest = z.strictObject({});

export const exportJobRequest = z.strictObject({ jobId: z.string().uuid() });
export const exportDownloadRequest = z.strictObject({ token: text().min(1).max(EXPORT_LIMITS.tokenMax) });
/** The .eln import's form carries the archive alone (one file part), no text fields. */
export const elnImportRequest = z.strictObject({});

export const exportJob = z.strictObject({
  jobId: z.string(),
  format: z.enum(EXPORT_FORMATS),
  status: z.enum(EXPORT_STATUS),
  /** 0-100. */
  progress: z.number(),
  projectNo: z.number().nullable(),
  projectTitle: z.string().nullable(),
  startDate: z.string().nullable(),
  endDate: z.string().nullable(),
  pdfA: z.boolean(),
  /** A PDF with each note's changes since the version before it. */
  changes: z.boolean(),
  /** A PDF with each note's comment threads as an appendix. */
  comments: z.boolean(),
  /** A single note's export: the note, its number and the version printed. */
  noteNo: z.number().nullable(),
  labNoteNumber: z.string().nullable(),
  version: z.number().nullable(),
  requestedBy: z.strictObject({ userId: z.string(), name: z.string() }),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  fileName: z.string().nullable(),
  size: z.number().nullable(),
  sha256: z.string().nullable(),
  /** Why a failed job failed (an error code of the catalogue). */
  errorCode: z.string().nullable(),
  /** The caller may fetch its file (the requester, once done). */
  downloadable: z.boolean(),
  /** The RFC 3161 time-stamp of the file made (its SHA-256); null when none was asked (not done, or no authority). */
  timestamp: timestampInfo.nullable(),
});
export type ExportJob = z.infer<typeof exportJob>;

export const exportCreateAnswer = z.strictObject({ list: z.array(exportJob) });
export type ExportCreateAnswer = z.infer<typeof exportCreateAnswer>;

export const exportLinkAnswer = z.strictObject({ token: z.string(), expiresAt: z.string() });
export type ExportLinkAnswer = z.infer<typeof exportLinkAnswer>;

export const exportPublicKey = z.strictObject({
  keyId: z.string(),
  /** The key in minisign's .pub format. */
  minisignPub: z.string(),
});
export type ExportPublicKey = z.infer<typeof exportPublicKey>;

/**
 * A minisign key this notebook knows: its own export key, one an administrator added by hand, or one that
 * signed an imported archive (the key the archive shipped, which verified it, or one known only by the id
 * its signature names).
 */
export const knownSigningKey = z.strictObject({
  /** The key id as minisign prints it. */
  keyId: z.string(),
  source: z.enum(['thisServer', 'addedKey', 'otherKey', 'unknownKey']),
  /** SHA-256 of the Ed25519 public key (hex); null for a key known only by its id. */
  fingerprint: z.string().nullable(),
  /** When it was made (this server's), added (by hand) or first seen in an import. */
  addedAt: z.string(),
  /** Archives imported that it signed. */
  imports: z.number(),
  /** A key added by hand: its number, name, organisation and who added it; null for the others. */
  added: z
    .strictObject({ keyNo: z.number(), name: z.string(), organisation: z.string(), addedBy: z.string(), minisignPub: z.string() })
    .nullable(),
  abilities: z.strictObject({ remove: z.boolean() }),
});
export type KnownSigningKey = z.infer<typeof knownSigningKey>;
export const knownSigningKeys = z.strictObject({
  list: z.array(knownSigningKey),
  abilities: z.strictObject({ add: z.boolean() }),
});
export type KnownSigningKeys = z.infer<typeof knownSigningKeys>;

export const signingKeyAddRequest = z.strictObject({
  /** The key in minisign's .pub format (its comment line and its key line). */
  publicKey: requiredText(SIGNING_KEY_LIMITS.publicKey),
  /** What the key is called here (a notebook, a person). */
  name: requiredText(SIGNING_KEY_LIMITS.name),
  /** The organisation it belongs to. */
  organisation: optionalText(SIGNING_KEY_LIMITS.organisation),
});
export type SigningKeyAddRequest = z.input<typeof signingKeyAddRequest>;
export const signingKeyAddAnswer = z.strictObject({
  keyNo: z.number(),
  keyId: z.string(),
  /** Imports that waited for this key and whose signature it verified, or did not. */
  verified: z.number(),
  mismatched: z.number(),
});
export type SigningKeyAddAnswer = z.infer<typeof signingKeyAddAnswer>;
export const signingKeyRemoveRequest = z.strictObject({ keyNo: recordNo });

/**
 * An imported archive's signature as it stands: signed by this notebook, by the key it shipped, by a key
 * added here (at import or since, with its name), not matching the added key of its id, by a key unknown
 * here (waiting for it), or unsigned.
 */
export const ELN_IMPORT_SIGNATURES = ['thisServer', 'otherKey', 'addedKey', 'mismatch', 'unknownKey', 'unsigned'] as const;
export type ElnImportSignature = (typeof ELN_IMPORT_SIGNATURES)[number];
export const elnImportRecord = z.strictObject({
  importNo: z.number(),
  projectNo: z.number(),
  projectTitle: z.string(),
  archiveName: z.string(),
  importedBy: z.string(),
  importedAt: z.string(),
  signature: z.enum(ELN_IMPORT_SIGNATURES),
  keyId: z.string().nullable(),
  /** The added key's name (addedKey, mismatch). */
  keyName: z.string().nullable(),
  keyOrganisation: z.string().nullable(),
  /** When the signature was last checked against an added key. */
  checkedAt: z.string().nullable(),
  abilities: z.strictObject({ verify: z.boolean() }),
});
export type ElnImportRecord = z.infer<typeof elnImportRecord>;
export const elnImportRecords = z.strictObject({ list: z.array(elnImportRecord) });
export const elnImportVerifyRequest = z.strictObject({ importNo: recordNo });

/** What the server can export now, found on its disk (server/src/exports/pdf/support.ts). */
export const exportSupport = z.strictObject({
  /** PDFs can be printed (chromium is installed); without it a .eln archive is made without its PDF copies. */
  pdf: z.boolean(),
  /** PDF/A-2b copies can be made (Ghostscript is installed). */
  pdfA: z.boolean(),
  /** The Debian packages the server lacks for PDF export (chromium, fonts, ghostscript), for `apt-get install`. */
  missingPackages: z.array(z.string()),
});
export type ExportSupport = z.infer<typeof exportSupport>;

export const elnImportAnswer = z.strictObject({
  projectNo: z.number(),
  title: z.string(),
  noteCount: z.number(),
  /**
   * Whose key signed the archive: this notebook's, another one's (shipped with it), one an administrator
   * added here (`keyName`), one unknown here (the signature is kept with its key id, verifiable once the
   * key is added), or none.
   */
  signed: z.enum(['thisServer', 'otherKey', 'addedKey', 'unknownKey', 'unsigned']),
  /** The added key's name when `addedKey`. */
  keyName: z.string().nullable(),
  /** The files the archive lists without a SHA-256 (optional in the format): imported, not hash-checked. */
  uncheckedFiles: z.array(z.string()),
});
export type ElnImportAnswer = z.infer<typeof elnImportAnswer>;

/** Why a download is refused, by the link (expired, someone else's) or by the job (hidden, not ready, failed, removed). */
const DOWNLOAD_ERRORS = [ERR.notFound, ERR.forbidden, ERR.exportNotReady, ERR.exportFailed, ERR.exportGone] as const;

/** The export calls (server/src/exports). */
export const exportCalls = {
  create: defineCall({
    path: '/v1/export/create',
    auth: 'user',
    kind: 'command',
    summary:
      "Queues exports: projects as PDF or .eln (one job each), one note's saved version as PDF, or the audit trail as CSV (administrators).",
    request: exportCreateRequest,
    answer: exportCreateAnswer,
    errors: [ERR.forbidden, ERR.notFound, ERR.exportNoVersion, ERR.exportQueueFull],
  }),
  list: defineCall({
    path: '/v1/export/list',
    auth: 'user',
    kind: 'query',
    summary: "The caller's export jobs (an administrator's: everyone's), newest first, optionally of one project.",
    request: exportListRequest,
    answer: listAnswer(exportJob),
    errors: [ERR.notFound],
  }),
  detail: defineCall({
    path: '/v1/export/detail',
    auth: 'user',
    kind: 'query',
    summary: 'One export job with its progress.',
    request: exportJobRequest,
    answer: exportJob,
    errors: [ERR.notFound],
  }),
  link: defineCall({
    path: '/v1/export/link',
    auth: 'user',
    kind: 'query',
    summary: "A short-lived download token for a finished export's file, usable by its requester alone.",
    request: exportJobRequest,
    answer: exportLinkAnswer,
    errors: DOWNLOAD_ERRORS,
  }),
  download: defineCall({
    path: '/v1/export/download',
    auth: 'user',
    kind: 'command',
    summary: "An export's file, for a token from `link` (the download is audited).",
    request: exportDownloadRequest,
    answer: fileAnswer,
    answerBody: 'file',
    errors: [...DOWNLOAD_ERRORS, ERR.exportLinkExpired],
  }),
  publicKey: defineCall({
    path: '/v1/export/publicKey',
    auth: 'user',
    kind: 'query',
    summary: "The key that signs .eln archives, in minisign's .pub format, for checking them offline (made at its first use).",
    request: exportPublicKeyRequest,
    answer: exportPublicKey,
    errors: [],
  }),
  knownKeys: defineCall({
    path: '/v1/admin/eln/key/list',
    auth: 'admin',
    kind: 'query',
    summary:
      'The minisign keys this notebook knows: its own export key, published at /.well-known/keys.json, and those that signed imported .eln archives, with when each was made or first seen.',
    request: emptyRequest,
    answer: knownSigningKeys,
    errors: [],
  }),
  addKey: defineCall({
    path: '/v1/admin/eln/key/add',
    auth: 'admin',
    kind: 'command',
    summary:
      'Adds a minisign public key (its .pub text) with a name and organisation, then checks every imported archive that waited for it against it; audited.',
    request: signingKeyAddRequest,
    answer: signingKeyAddAnswer,
    errors: [ERR.forbidden, ERR.elnKeyMalformed, ERR.elnKeyExists],
  }),
  removeKey: defineCall({
    path: '/v1/admin/eln/key/remove',
    auth: 'admin',
    kind: 'command',
    summary: 'Removes a key added by hand; the imports it verified wait for their key again. Audited.',
    request: signingKeyRemoveRequest,
    answer: noAnswer,
    errors: [ERR.forbidden, ERR.notFound],
  }),
  imports: defineCall({
    path: '/v1/admin/eln/import/list',
    auth: 'admin',
    kind: 'query',
    summary: "The .eln archives imported, newest first, each with its signature's standing and the key that signed it.",
    request: emptyRequest,
    answer: elnImportRecords,
    errors: [],
  }),
  verifyImport: defineCall({
    path: '/v1/admin/eln/import/verify',
    auth: 'admin',
    kind: 'command',
    summary:
      "Checks an imported archive's signature, kept with its metadata's BLAKE2b-512 hash, against the added key of its id now; audited when the outcome changes.",
    request: elnImportVerifyRequest,
    answer: elnImportRecord,
    errors: [ERR.forbidden, ERR.notFound, ERR.elnImportNothingToVerify],
  }),
  support: defineCall({
    path: '/v1/export/support',
    auth: 'user',
    kind: 'query',
    summary:
      'What the server can export now: PDF (chromium), PDF/A (Ghostscript), and the Debian packages it lacks for them (fonts included).',
    request: exportSupportRequest,
    answer: exportSupport,
    errors: [],
  }),
  importEln: defineCall({
    path: '/v1/export/import',
    auth: 'user',
    kind: 'command',
    summary: 'Imports a .eln archive (one file part) as a new project led by the caller, once its checksums and signature are checked.',
    request: elnImportRequest,
    answer: elnImportAnswer,
    body: 'multipart',
    errors: [
      ERR.tooLarge,
      ERR.unsupportedMediaType,
      ERR.forbidden,
      ERR.elnNotArchive,
      ERR.elnStructure,
      ERR.elnMetadata,
      ERR.elnSignature,
      ERR.elnChecksum,
      ERR.elnMissingFile,
      ERR.elnTooLarge,
      ERR.elnContent,
      ERR.elnImportBusy,
    ],
  }),
} as const;
