import { and, eq, isNull } from 'drizzle-orm';
import { ERR, noteDocumentName, withStatuses, type api, type CallRequest, type Block, type SaveAnswer } from '@eln/shared';
import { appendAudit, auditedActor } from '../../audit/audit.js';
import type { Actor } from '../../auth/authUser.js';
import { snapshotOfState } from '../../collab/documents/contentSnapshots.js';
import { labNotes, noteDrafts, noteVersions } from '../../db/schema.js';
import { queueForSearch } from '../../search/indexer.js';
import { hasBeenSigned, queueVersionStamp } from '../../timestamps/versionStamps.js';
import { AppError } from '../../http/errors.js';
import type { Services } from '../../services.js';
import { checkClientList } from '../clientList.js';
import { assertContentRules, savedContent } from '../contentCheck.js';
import { requireWritableNote, type NoteContext } from '../queries.js';
import { versionChanges } from '../versionChanges.js';
import { versionFingerprint } from '../versionFingerprint.js';
import { emitWebhook } from '../../webhooks/emit.js';

/**
 * Saves the live document as the note's next version (`/note/save`): the caller must be able to write
 * the note and name its current version; what is stored is the server's copy, read once, with its
 * fingerprint. Two racing saves of one version make one winner (9006 for the other).
 */
export async function saveVersion(services: Services, actor: Actor, input: CallRequest<typeof api.notes.saveVersion>): Promise<SaveAnswer> {
  const { db, live } = services;
  const ctx = await requireWritableNote(db, actor.user, input.labNoteNo);
  if (input.version !== ctx.note.version) throw new AppError(ERR.conflict, { data: { version: ctx.note.version } });
  const documentName = noteDocumentName(ctx.note.noteNo);
  // One state, read once: the version stores exactly what its blocks were derived from. Stored before
  // the version is: it may hold edits that arrived a moment ago, and a version must never hold what a
  // crash could take from the live document.
  const state = await live.state(documentName);
  await live.persistence.flushDocument(documentName);
  return storeNextVersion(services, actor, ctx, state, { kind: 'save', clientList: input.blockList });
}

/** Why a version is stored: a save (checked against the block list the client shows), or a restore of an earlier version. */
export type VersionOrigin = { kind: 'save'; clientList: readonly Block[] } | { kind: 'restore'; fromVersion: number; reason: string };

/**
 * Stores a state of the live document, already stored itself, as the note's version after
 * `ctx.note.version`, with its fingerprint and what changed against the version before; the note's
 * temporary save goes. The content rules are checked first; the version condition makes two racing
 * saves of one version produce one winner (9006 for the other).
 */
export async function storeNextVersion(
  services: Services,
  actor: Actor,
  ctx: NoteContext,
  state: Uint8Array,
  origin: VersionOrigin,
): Promise<SaveAnswer> {
  const { db } = services;
  const content = snapshotOfState(state);
  const saved = await savedContent(db, ctx.note.noteNo, ctx.note.version);
  const savedBlocks = content.savedBlocks('LABNOTE');
  assertContentRules(content, saved);
  if (origin.kind === 'save') checkClientList(services, ctx.note.noteNo, origin.clientList, withStatuses(savedBlocks, saved.blocks));
  const blocksHash = versionFingerprint(savedBlocks);
  const version = ctx.note.version + 1;
  const restore = origin.kind === 'restore' ? origin : null;
  const stamped = await db.transaction(async (tx) => {
    const [updated] = await tx
      .update(labNotes)
      .set({ version, updatedAt: new Date() })
      .where(and(eq(labNotes.noteNo, ctx.note.noteNo), eq(labNotes.version, ctx.note.version), isNull(labNotes.deletedAt)))
      .returning();
    if (!updated) throw new AppError(ERR.conflict);
    await tx.insert(noteVersions).values({
      noteNo: ctx.note.noteNo,
      version,
      blocks: savedBlocks,
      blocksHash,
      documentState: state,
      savedByUserNo: actor.user.userNo,
      changes: versionChanges(saved.blocks, savedBlocks),
      restoredFrom: restore?.fromVersion ?? null,
      reason: restore?.reason ?? null,
    });
    await tx.delete(noteDrafts).where(eq(noteDrafts.noteNo, ctx.note.noteNo));
    // Its units now say which of them this version holds (search/records.ts).
    await queueForSearch(tx, noteDocumentName(ctx.note.noteNo));
    await appendAudit(tx, {
      ...auditedActor(actor),
      action: restore ? 'note.restored' : 'note.saved',
      target: { type: 'note', id: ctx.note.noteNo },
      before: { version: ctx.note.version },
      after: {
        ...(restore ? { fromVersion: restore.fromVersion } : {}),
        version,
        blocksHash,
        blocks: savedBlocks.length,
        ...(restore ? { reason: restore.reason } : {}),
      },
      reason: restore?.reason ?? null,
    });
    await emitWebhook(tx, {
      event: 'note.versionSaved',
      projectNo: ctx.note.projectNo,
      noteNo: ctx.note.noteNo,
      data: {
        projectNo: ctx.note.projectNo,
        labNoteNo: ctx.note.noteNo,
        version,
        blocksHash,
        savedByUserNo: actor.user.userNo,
        restoredFromVersion: restore?.fromVersion ?? null,
      },
    });
    // A signed note's later states are time-stamped as they are saved (timestamps/versionStamps.ts).
    return (await hasBeenSigned(tx, ctx.note.noteNo)) && (await queueVersionStamp(tx, ctx.note.noteNo, version));
  });
  if (stamped) services.timestamps.kick();
  return { version, blocksHash };
}
