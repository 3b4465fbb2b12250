import { and, asc, desc, eq, isNotNull } from 'drizzle-orm';
import * as Y from 'yjs';
import {
  diffBlockLists,
  ERR,
  noteDocumentName,
  type ChangeSummary,
  type DeletedNoteAnswer,
  type NoteCompareAnswer,
  type NoteVersionDetailAnswer,
  type NoteVersionEntry,
  type NoteVersionListAnswer,
  type SavedBlock,
  type VersionSignature,
} from '@eln/shared';
import type { AuthUser } from '../auth/authUser.js';
import type { Queryable } from '../db/client.js';
import { labNotes, noteSignatures, noteVersions, users } from '../db/schema.js';
import { isoInZone } from '../exports/eln/crate.js';
import { blockAuthors, blockEditors } from '../collab/authors/clientAuthors.js';
import { AppError } from '../http/errors.js';
import type { Services } from '../services.js';
import { timestampsOf } from '../timestamps/queue.js';
import { versionStampId } from '../timestamps/subjects.js';
import { requireVisibleNote, templateOriginsOf } from './queries.js';
import type { NoteRecord } from './record.js';
import { changesOfVersions } from './versionChanges.js';

/*
 * A note's saved versions read and compared: whoever may read the note (`canReadNote`, through
 * requireVisibleNote, as the note's own answers). Times are ISO 8601 with an offset: a version's in the
 * server's time zone, a signature's in its signer's.
 */

type HistoryServices = Pick<Services, 'db' | 'live' | 'config'>;

/** A version's facts without its blocks: what the list reads of hundreds of versions. */
interface VersionRow {
  version: number;
  blocksHash: string;
  savedAt: Date;
  changes: ChangeSummary | null;
  userId: string;
  name: string;
  restoredFrom: number | null;
  reason: string | null;
}

const versionColumns = {
  version: noteVersions.version,
  blocksHash: noteVersions.blocksHash,
  savedAt: noteVersions.savedAt,
  changes: noteVersions.changes,
  userId: users.userId,
  name: users.name,
  restoredFrom: noteVersions.restoredFrom,
  reason: noteVersions.reason,
};

async function versionRows(q: Queryable, noteNo: number, version?: number): Promise<VersionRow[]> {
  return q
    .select(versionColumns)
    .from(noteVersions)
    .innerJoin(users, eq(users.userNo, noteVersions.savedByUserNo))
    .where(
      version === undefined ? eq(noteVersions.noteNo, noteNo) : and(eq(noteVersions.noteNo, noteNo), eq(noteVersions.version, version)),
    )
    .orderBy(desc(noteVersions.version));
}

/** The signatures bound to the note's versions (signed ones: only they name a version), removed ones included, by version. */
async function signaturesByVersion(q: Queryable, noteNo: number, version?: number): Promise<Map<number, VersionSignature[]>> {
  const rows = await q
    .select({ signature: noteSignatures, userId: users.userId, name: users.name })
    .from(noteSignatures)
    .innerJoin(users, eq(users.userNo, noteSignatures.userNo))
    .where(
      and(
        eq(noteSignatures.noteNo, noteNo),
        version === undefined ? isNotNull(noteSignatures.signedVersion) : eq(noteSignatures.signedVersion, version),
      ),
    )
    .orderBy(asc(noteSignatures.signatureId));
  const byVersion = new Map<number, VersionSignature[]>();
  for (const { signature, userId, name } of rows) {
    if (signature.signedVersion === null || signature.signedAt === null) continue;
    const entry: VersionSignature = {
      signatureId: signature.signatureId,
      signer: { userId, name },
      meaning: signature.type,
      signatureName: signature.signatureName,
      signedAt: isoInZone(signature.signedAt, signature.timeZone),
      timeZone: signature.timeZone,
      removed: signature.removedAt !== null,
      removedAt: signature.removedAt ? isoInZone(signature.removedAt, signature.timeZone) : null,
      removedReason: signature.removedReason,
    };
    byVersion.set(signature.signedVersion, [...(byVersion.get(signature.signedVersion) ?? []), entry]);
  }
  return byVersion;
}

/** The template revision the note was made from, if any. */
async function templateOriginOf(q: Queryable, note: Pick<NoteRecord, 'noteNo' | 'templateNo' | 'templateRevision'>) {
  return (await templateOriginsOf(q, [note])).get(note.noteNo) ?? null;
}

/**
 * The versions' entries, newest first. Changes come stored with each version; those of versions stored
 * without them are worked out from their blocks (`changesOfVersions`) until the backfill has run.
 */
async function entriesOf(
  q: Queryable,
  noteNo: number,
  rows: readonly VersionRow[],
  allVersions: () => Promise<number[]>,
  signatures: Map<number, VersionSignature[]>,
  timeZone: string,
): Promise<NoteVersionEntry[]> {
  const missing = rows.filter((row) => row.changes === null).map((row) => row.version);
  const [computed, stamps] = await Promise.all([
    missing.length ? allVersions().then((all) => changesOfVersions(q, noteNo, missing, all)) : new Map<number, ChangeSummary>(),
    timestampsOf(
      q,
      'version',
      rows.map((row) => versionStampId(noteNo, row.version)),
    ),
  ]);
  return rows.map((row) => ({
    version: row.version,
    savedBy: { userId: row.userId, name: row.name },
    savedAt: isoInZone(row.savedAt, timeZone),
    blocksHash: row.blocksHash,
    changes: row.changes ?? computed.get(row.version)!,
    signatures: signatures.get(row.version) ?? [],
    restoredFrom: row.restoredFrom,
    reason: row.reason,
    timestamp: stamps.get(versionStampId(noteNo, row.version)) ?? null,
  }));
}

async function versionNumbers(q: Queryable, noteNo: number): Promise<number[]> {
  const rows = await q
    .select({ version: noteVersions.version })
    .from(noteVersions)
    .where(eq(noteVersions.noteNo, noteNo))
    .orderBy(asc(noteVersions.version));
  return rows.map((row) => row.version);
}

/** `/note/version/list`: every saved version of a note the user may read, newest first. */
export async function listNoteVersions({ db, config }: HistoryServices, user: AuthUser, labNoteNo: number): Promise<NoteVersionListAnswer> {
  const ctx = await requireVisibleNote(db, user, labNoteNo);
  const noteNo = ctx.note.noteNo;
  const [rows, signatures, template] = await Promise.all([
    versionRows(db, noteNo),
    signaturesByVersion(db, noteNo),
    templateOriginOf(db, ctx.note),
  ]);
  const ascending = async () => rows.map((row) => row.version).reverse();
  const list = await entriesOf(db, noteNo, rows, ascending, signatures, config.timeZone);
  return { labNoteNo: noteNo, template, list, totalCount: list.length };
}

/** A saved version's blocks, or 2040 when the note has no such version. */
async function versionBlocks(q: Queryable, noteNo: number, version: number): Promise<SavedBlock[]> {
  const [row] = await q
    .select({ blocks: noteVersions.blocks })
    .from(noteVersions)
    .where(and(eq(noteVersions.noteNo, noteNo), eq(noteVersions.version, version)));
  if (!row) throw new AppError(ERR.versionMissing);
  return row.blocks as SavedBlock[];
}

/** The live document's state a saved version was made from (one Yjs update), or 2040. */
export async function versionState(q: Queryable, noteNo: number, version: number): Promise<Uint8Array> {
  const [row] = await q
    .select({ state: noteVersions.documentState })
    .from(noteVersions)
    .where(and(eq(noteVersions.noteNo, noteNo), eq(noteVersions.version, version)));
  if (!row) throw new AppError(ERR.versionMissing);
  return new Uint8Array(row.state);
}

/** One version's entry, or 2040. */
export async function versionEntry(q: Queryable, noteNo: number, version: number, timeZone: string): Promise<NoteVersionEntry> {
  const [rows, signatures] = await Promise.all([versionRows(q, noteNo, version), signaturesByVersion(q, noteNo, version)]);
  if (!rows.length) throw new AppError(ERR.versionMissing);
  const [entry] = await entriesOf(q, noteNo, rows, () => versionNumbers(q, noteNo), signatures, timeZone);
  return entry!;
}

/** `/note/version/detail`: one saved version with its blocks. */
export async function noteVersionDetail(
  { db, config }: HistoryServices,
  user: AuthUser,
  input: { labNoteNo: number; version: number },
): Promise<NoteVersionDetailAnswer> {
  const ctx = await requireVisibleNote(db, user, input.labNoteNo);
  return versionDetailOf(db, ctx.note.noteNo, input.version, config.timeZone);
}

/** A version's entry, blocks and authors (the detail), of a note already found. */
async function versionDetailOf(q: Queryable, noteNo: number, version: number, timeZone: string): Promise<NoteVersionDetailAnswer> {
  const [entry, blockList, state] = await Promise.all([
    versionEntry(q, noteNo, version, timeZone),
    versionBlocks(q, noteNo, version),
    versionState(q, noteNo, version),
  ]);
  return { ...entry, blockList, authors: await blockAuthors(q, noteDocumentName(noteNo), state) };
}

/**
 * A deleted note with its last saved version, for the audit detail (administrators only: the caller
 * checks); null when the note is not deleted or does not exist.
 */
export async function deletedNote(q: Queryable, noteNo: number, timeZone: string): Promise<DeletedNoteAnswer | null> {
  const [note] = await q
    .select()
    .from(labNotes)
    .where(and(eq(labNotes.noteNo, noteNo), isNotNull(labNotes.deletedAt)));
  if (!note?.deletedAt) return null;
  return {
    labNoteNo: note.noteNo,
    labNoteNumber: note.labNoteNumber,
    title: note.title,
    projectNo: note.projectNo,
    deletedAt: isoInZone(note.deletedAt, timeZone),
    lastVersion: note.version > 0 ? await versionDetailOf(q, note.noteNo, note.version, timeZone) : null,
  };
}

type ComparedSide = NoteCompareAnswer['from'];

/** A compared side's state vector: read off its stored state without building the document. */
async function stateVectorOf(side: { document: () => Promise<Uint8Array | Y.Doc> }): Promise<Map<number, number>> {
  const document = await side.document();
  return Y.decodeStateVector(document instanceof Y.Doc ? Y.encodeStateVector(document) : Y.encodeStateVectorFromUpdate(document));
}

/** One side of a comparison: a saved version's blocks and facts, or the live document's blocks as the note screen derives them. */
async function comparedSide(
  { db, live, config }: HistoryServices,
  noteNo: number,
  version: number | 'live',
): Promise<{ side: ComparedSide; blocks: SavedBlock[]; document: () => Promise<Uint8Array | Y.Doc> }> {
  if (version === 'live') {
    const documentName = noteDocumentName(noteNo);
    const content = await live.snapshot(documentName);
    return {
      side: { version, savedBy: null, savedAt: null, blocksHash: null },
      blocks: content.savedBlocks('LABNOTE'),
      document: () => live.document(documentName),
    };
  }
  const [[row], blocks] = await Promise.all([versionRows(db, noteNo, version), versionBlocks(db, noteNo, version)]);
  if (!row) throw new AppError(ERR.versionMissing);
  return {
    side: {
      version,
      savedBy: { userId: row.userId, name: row.name },
      savedAt: isoInZone(row.savedAt, config.timeZone),
      blocksHash: row.blocksHash,
    },
    blocks,
    document: () => versionState(db, noteNo, version),
  };
}

/**
 * `/note/version/compare`: two saved versions of a note, or one and the live document, compared by the
 * shared diff. The same version on both sides answers every block unchanged; `from` may be the later one.
 */
export async function compareNoteVersions(
  services: HistoryServices,
  user: AuthUser,
  input: { labNoteNo: number; from: number; to: number | 'live' },
): Promise<NoteCompareAnswer> {
  const ctx = await requireVisibleNote(services.db, user, input.labNoteNo);
  const [from, to] = await Promise.all([
    comparedSide(services, ctx.note.noteNo, input.from),
    comparedSide(services, ctx.note.noteNo, input.to),
  ]);
  const diff = diffBlockLists(from.blocks, to.blocks);
  const edited = diff.changes.filter((change) => change.kind === 'added' || change.kind === 'changed').map((change) => change.blockUid);
  // The document states are read only when there is a change to attribute (a version with itself has none).
  const changedBy = edited.length
    ? await blockEditors(services.db, noteDocumentName(ctx.note.noteNo), await stateVectorOf(from), await to.document(), edited)
    : {};
  return { from: from.side, to: to.side, changes: diff.changes, summary: diff.summary, changedBy };
}
