import path from 'node:path';
import { and, asc, eq, inArray, isNull, or, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  noteDocumentName,
  type NoteStatus,
  type ProjectStatus,
  type SavedBlock,
  type SignatureStatus,
  type SignatureType,
} from '@eln/shared';
import { snapshotOfState } from '../collab/documents/contentSnapshots.js';
import { loadDocumentState } from '../collab/persistence/documentStore.js';
import type { Queryable } from '../db/client.js';
import {
  auditLog,
  files,
  labNotes,
  noteSignatures,
  noteVersions,
  projectParticipants,
  projects,
  templateRevisions,
  templates,
  users,
} from '../db/schema.js';
import { withinDates } from '../db/paging.js';
import { storedStamps, type StoredStamp } from '../timestamps/queue.js';
import { versionStampId } from '../timestamps/subjects.js';
import { versionFingerprint } from '../notes/versionFingerprint.js';

/**
 * What an export (PDF or .eln) says about a project, read from the database once per export. Notes are read
 * one at a time (`exportNotes`), so a project of hundreds of notes never sits in memory whole.
 */

export interface ExportPerson {
  userNo: number;
  userId: string;
  name: string;
}

export interface ExportProject {
  projectNo: number;
  title: string;
  description: string;
  status: ProjectStatus;
  leader: ExportPerson;
  participants: ExportPerson[];
  createdAt: Date;
  updatedAt: Date;
  finishedAt: Date | null;
}

/** A saved version as history lists it (its blocks are read only for the latest one). */
export interface ExportVersion {
  version: number;
  savedAt: Date;
  savedBy: ExportPerson;
  /** The SHA-256 stored at saving. */
  blocksHash: string;
  /** The version it restored, with the reason given (null for a save). */
  restoredFrom: number | null;
  reason: string | null;
  /** Its RFC 3161 time-stamp with what an offline check needs; null when none was asked (timestamps/versionStamps.ts). */
  timestamp: StoredStamp | null;
}

export interface ExportSignature {
  signatureId: number;
  signer: ExportPerson;
  type: SignatureType;
  /** R requested, T signed, F declined. */
  status: SignatureStatus;
  /** The printed name the signer typed. */
  signatureName: string | null;
  description: string | null;
  signedAt: Date | null;
  /** The signer's time zone (IANA), shown with the time. */
  timeZone: string | null;
  signedVersion: number | null;
  /** The SHA-256 of the signed version's content, taken at signing. */
  blocksHash: string | null;
  /** That version's content hashed now: differs from blocksHash when the stored content was changed. */
  currentHash: string | null;
  /** Signed, and the stored content still matches what was signed (null when not signed). */
  intact: boolean | null;
  /** Its RFC 3161 time-stamp with what an offline check needs; null when none was asked. */
  timestamp: StoredStamp | null;
}

export interface ExportFile {
  fileId: string;
  kind: 'image' | 'file';
  originName: string;
  extension: string;
  mimeType: string;
  size: number;
  sha256: string;
  /** Absolute path of the stored bytes. */
  absolutePath: string;
}

export interface ExportNote {
  noteNo: number;
  labNoteNumber: string;
  title: string;
  status: NoteStatus;
  writer: ExportPerson;
  /** Its authors' names in the archive it was imported from (not accounts here); null for a note written here. */
  importedAuthors: string[] | null;
  createdAt: Date;
  updatedAt: Date;
  /** The template the note was made from, with the approved revision copied. */
  template: { templateNo: number; title: string; revision: number | null; version: string | null } | null;
  /** The latest saved version with its blocks; null for a note never saved. */
  latest: (ExportVersion & { blocks: SavedBlock[] }) | null;
  /** Every saved version, oldest first. */
  history: ExportVersion[];
  /**
   * A note never saved: its live document's blocks (its unsaved draft), which nothing else keeps, when asked
   * for (`withDraft`, the .eln archive); null otherwise and once saved.
   */
  draft: SavedBlock[] | null;
  signatures: ExportSignature[];
  /** The images and files the note holds (uploaded to it or copied from its template). */
  files: ExportFile[];
}

/** Which notes an export takes: those last changed within these calendar days (both included; either may be open), by default all. */
export interface ExportRange {
  startDate?: string | null;
  endDate?: string | null;
  /** The zone the days are read in. */
  timeZone: string;
}

const person = (row: { userNo: number; userId: string; name: string }): ExportPerson => ({
  userNo: row.userNo,
  userId: row.userId,
  name: row.name,
});

export async function loadExportProject(q: Queryable, projectNo: number): Promise<ExportProject | undefined> {
  const [row] = await q
    .select({ project: projects, leader: { userNo: users.userNo, userId: users.userId, name: users.name } })
    .from(projects)
    .innerJoin(users, eq(users.userNo, projects.leaderUserNo))
    .where(eq(projects.projectNo, projectNo));
  if (!row) return undefined;
  const participants = await q
    .select({ userNo: users.userNo, userId: users.userId, name: users.name })
    .from(projectParticipants)
    .innerJoin(users, eq(users.userNo, projectParticipants.userNo))
    .where(eq(projectParticipants.projectNo, projectNo))
    .orderBy(asc(users.name), asc(users.userNo));
  const { project } = row;
  return {
    projectNo: project.projectNo,
    title: project.title,
    description: project.description,
    status: project.status,
    leader: person(row.leader),
    participants,
    createdAt: project.createdAt,
    updatedAt: project.updatedAt,
    finishedAt: project.finishedAt,
  };
}

const rangeFilter = (range: ExportRange): SQL | undefined =>
  withinDates(labNotes.updatedAt, { startDate: range.startDate ?? undefined, endDate: range.endDate ?? undefined }, range.timeZone);

/** The numbers of the notes an export takes, in the project's order (oldest first). */
export async function exportNoteNos(q: Queryable, projectNo: number, range: ExportRange = { timeZone: 'UTC' }): Promise<number[]> {
  const rows = await q
    .select({ noteNo: labNotes.noteNo })
    .from(labNotes)
    .where(and(eq(labNotes.projectNo, projectNo), isNull(labNotes.deletedAt), rangeFilter(range)))
    .orderBy(asc(labNotes.noteNo));
  return rows.map((row) => row.noteNo);
}

/** One note with everything an export shows of it. */
export async function loadExportNote(
  q: Queryable,
  noteNo: number,
  filesDir: string,
  { withDraft = false }: { withDraft?: boolean } = {},
): Promise<ExportNote | undefined> {
  const [row] = await q
    .select({ note: labNotes, writer: { userNo: users.userNo, userId: users.userId, name: users.name }, templateTitle: templates.title })
    .from(labNotes)
    .innerJoin(users, eq(users.userNo, labNotes.writerUserNo))
    .leftJoin(templates, eq(templates.templateNo, labNotes.templateNo))
    .where(eq(labNotes.noteNo, noteNo));
  if (!row) return undefined;
  const { note } = row;
  const history = await versionHistory(q, noteNo);
  const latestEntry = history.at(-1);
  const latest: ExportNote['latest'] = latestEntry
    ? { ...latestEntry, blocks: await loadVersionBlocks(q, noteNo, latestEntry.version) }
    : null;
  return {
    noteNo,
    labNoteNumber: note.labNoteNumber,
    title: note.title,
    status: note.status,
    writer: person(row.writer),
    importedAuthors: note.importedAuthors ?? null,
    createdAt: note.createdAt,
    updatedAt: note.updatedAt,
    template:
      note.templateNo !== null
        ? {
            templateNo: note.templateNo,
            title: row.templateTitle ?? '',
            revision: note.templateRevision,
            version: await templateVersion(q, note.templateNo, note.templateRevision),
          }
        : null,
    latest,
    history,
    draft: latest || !withDraft ? null : await draftBlocks(q, noteNo),
    signatures: await exportSignatures(q, noteNo, latest),
    files: await noteFiles(q, noteNo, filesDir),
  };
}

/** The live document's blocks as a save would derive them (none when it has no stored state). */
async function draftBlocks(q: Queryable, noteNo: number): Promise<SavedBlock[]> {
  const state = await loadDocumentState(q, noteDocumentName(noteNo));
  return state ? snapshotOfState(state).savedBlocks('LABNOTE') : [];
}

/** A saved version's blocks as stored, or null when there is no such version. */
export async function findVersionBlocks(q: Queryable, noteNo: number, version: number): Promise<SavedBlock[] | null> {
  const [row] = await q
    .select({ blocks: noteVersions.blocks })
    .from(noteVersions)
    .where(and(eq(noteVersions.noteNo, noteNo), eq(noteVersions.version, version)));
  return row ? (row.blocks as SavedBlock[]) : null;
}

/** A saved version's blocks as stored (none when there is no such version). */
export const loadVersionBlocks = async (q: Queryable, noteNo: number, version: number): Promise<SavedBlock[]> =>
  (await findVersionBlocks(q, noteNo, version)) ?? [];

async function versionHistory(q: Queryable, noteNo: number): Promise<ExportVersion[]> {
  const rows = await q
    .select({
      version: noteVersions.version,
      savedAt: noteVersions.savedAt,
      blocksHash: noteVersions.blocksHash,
      restoredFrom: noteVersions.restoredFrom,
      reason: noteVersions.reason,
      savedBy: { userNo: users.userNo, userId: users.userId, name: users.name },
    })
    .from(noteVersions)
    .innerJoin(users, eq(users.userNo, noteVersions.savedByUserNo))
    .where(eq(noteVersions.noteNo, noteNo))
    .orderBy(asc(noteVersions.version));
  const stamps = await storedStamps(
    q,
    'version',
    rows.map((r) => versionStampId(noteNo, r.version)),
  );
  return rows.map((r) => ({ ...r, savedBy: person(r.savedBy), timestamp: stamps.get(versionStampId(noteNo, r.version)) ?? null }));
}

async function templateVersion(q: Queryable, templateNo: number, revision: number | null): Promise<string | null> {
  if (revision === null) return null;
  const [row] = await q
    .select({ version: templateRevisions.version })
    .from(templateRevisions)
    .where(and(eq(templateRevisions.templateNo, templateNo), eq(templateRevisions.revision, revision)));
  return row?.version ?? null;
}

/** The note's live signatures, each signed one re-checked against its version's stored content now. */
async function exportSignatures(q: Queryable, noteNo: number, latest: ExportNote['latest']): Promise<ExportSignature[]> {
  const signer = alias(users, 'signer');
  const rows = await q
    .select({ signature: noteSignatures, signer: { userNo: signer.userNo, userId: signer.userId, name: signer.name } })
    .from(noteSignatures)
    .innerJoin(signer, eq(signer.userNo, noteSignatures.userNo))
    .where(and(eq(noteSignatures.noteNo, noteNo), isNull(noteSignatures.removedAt)))
    .orderBy(asc(noteSignatures.signatureId));
  const hashes = new Map<number, string | null>();
  if (latest) hashes.set(latest.version, versionFingerprint(latest.blocks));
  const stamps = await storedStamps(
    q,
    'signature',
    rows.map((row) => row.signature.signatureId),
  );
  const out: ExportSignature[] = [];
  for (const { signature, signer: who } of rows) {
    let currentHash: string | null = null;
    if (signature.signedVersion !== null) {
      const version = signature.signedVersion;
      if (!hashes.has(version)) {
        const stored = await findVersionBlocks(q, noteNo, version);
        hashes.set(version, stored ? versionFingerprint(stored) : null);
      }
      currentHash = hashes.get(version) ?? null;
    }
    const signed = signature.status === 'T' && signature.signedVersion !== null;
    out.push({
      signatureId: signature.signatureId,
      signer: person(who),
      type: signature.type,
      status: signature.status,
      signatureName: signature.signatureName,
      description: signature.description,
      signedAt: signature.signedAt,
      timeZone: signature.timeZone,
      signedVersion: signature.signedVersion,
      blocksHash: signature.blocksHash,
      currentHash,
      intact: signed ? currentHash !== null && currentHash === signature.blocksHash : null,
      timestamp: stamps.get(String(signature.signatureId)) ?? null,
    });
  }
  return out;
}

async function noteFiles(q: Queryable, noteNo: number, filesDir: string): Promise<ExportFile[]> {
  const rows = await q.select().from(files).where(eq(files.noteNo, noteNo)).orderBy(asc(files.createdAt), asc(files.fileId));
  return rows.map((f) => ({
    fileId: f.fileId,
    kind: f.kind,
    originName: f.originName,
    extension: f.extension,
    mimeType: f.mimeType,
    size: f.size,
    sha256: f.sha256,
    absolutePath: path.resolve(filesDir, f.storagePath),
  }));
}

/** Each note of the export in order, read when the caller is ready for it. */
export async function* exportNotes(q: Queryable, noteNos: readonly number[], filesDir: string): AsyncGenerator<ExportNote> {
  for (const noteNo of noteNos) {
    const note = await loadExportNote(q, noteNo, filesDir);
    if (note) yield note;
  }
}

export type ExportAuditEntry = typeof auditLog.$inferSelect;

/** The audit records about the project, its notes and their files, in chain order. */
export async function projectAuditEntries(
  q: Queryable,
  projectNo: number,
  noteNos: readonly number[],
  fileIds: readonly string[],
): Promise<ExportAuditEntry[]> {
  const about = (type: string, ids: readonly (string | number)[]) =>
    ids.length ? and(eq(auditLog.targetType, type), inArray(auditLog.targetId, ids.map(String))) : undefined;
  return q
    .select()
    .from(auditLog)
    .where(or(about('project', [projectNo]), about('note', noteNos), about('file', fileIds)))
    .orderBy(asc(auditLog.seq));
}
