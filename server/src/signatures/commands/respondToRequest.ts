import { and, eq } from 'drizzle-orm';
import {
  AUDIT_SYSTEM_REASONS,
  differsFromSaved,
  docToSavedBlocks,
  ERR,
  noteDocumentName,
  SIGNATURE_STATUS,
  type api,
  type CallRequest,
} from '@eln/shared';
import { appendAudit, auditedActor } from '../../audit/audit.js';
import type { Actor } from '../../auth/authUser.js';
import { confirmPassword } from '../../auth/passwordConfirmation.js';
import { loadDocumentState } from '../../collab/persistence/documentStore.js';
import { contentOfState } from '../../collab/commands/liveDocuments.js';
import { labNotes, noteHolds, noteSignatures } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import { enforce } from '../../http/verdicts.js';
import { canSign, mayReview, SIGN_REFUSALS } from '../../notes/policy.js';
import { writersAmong } from '../../notes/writers.js';
import { lockNote, requireVisibleNote, savedVersion, type NoteContext } from '../../notes/queries.js';
import type { Services } from '../../services.js';
import { queueTimestamp } from '../../timestamps/queue.js';
import { signatureSubject } from '../../timestamps/subjects.js';
import { queueVersionStamp } from '../../timestamps/versionStamps.js';
import { notifyWriters } from '../../notifications/recipients.js';
import { pendingRequestOf, versionHash, type PendingRequest } from '../queries.js';
import { settleNoteStatus } from './noteStatus.js';
import { emitWebhook } from '../../webhooks/emit.js';

/** The Yjs state of a document with nothing in it. */
const EMPTY_STATE = new Uint8Array([0, 0]);

type SignatureAnswer = CallRequest<typeof api.signatures.respond>;

interface Answering {
  ctx: NoteContext;
  pending: PendingRequest;
  actor: Actor;
  body: SignatureAnswer;
}

/** The password is asked at every signature, and guessing it is limited like sign-in (per account). */
async function checkSignerPassword(services: Services, { ctx, actor, body }: Answering): Promise<void> {
  await confirmPassword(services, actor.user, body.password, `sign:${actor.user.userId}`, async (tx) => {
    await appendAudit(tx, {
      ...auditedActor(actor),
      action: 'signature.failed',
      target: { type: 'note', id: ctx.note.noteNo },
      reason: AUDIT_SYSTEM_REASONS.wrongPassword,
    });
  });
}

async function decline(services: Services, { ctx, pending, actor, body }: Answering, at: Date): Promise<void> {
  await services.db.transaction(async (tx) => {
    await tx
      .update(noteSignatures)
      .set({
        status: SIGNATURE_STATUS.declined,
        signedAt: at,
        timeZone: body.timeZone ?? null,
        signatureName: body.name,
        description: body.description || null,
      })
      .where(and(eq(noteSignatures.signatureId, pending.signatureId), eq(noteSignatures.status, SIGNATURE_STATUS.pending)));
    const status = await settleNoteStatus(tx, ctx.note.noteNo);
    await appendAudit(tx, {
      ...auditedActor(actor),
      action: 'signature.declined',
      target: { type: 'note', id: ctx.note.noteNo },
      before: { status: ctx.note.status },
      after: { status, meaning: pending.type, name: body.name, description: body.description, at: at.toISOString() },
    });
    await notifyWriters(tx, 'signatureRemoved', ctx.note, actor.user.userNo, {
      meaning: pending.type,
      declined: true,
      reason: body.description ?? '',
    });
    await emitWebhook(tx, {
      event: 'signature.removed',
      projectNo: ctx.note.projectNo,
      noteNo: ctx.note.noteNo,
      data: {
        projectNo: ctx.note.projectNo,
        labNoteNo: ctx.note.noteNo,
        signerUserNo: actor.user.userNo,
        meaning: pending.type,
        declined: true,
        removedByUserNo: actor.user.userNo,
        noteStatus: status,
      },
    });
  });
}

/** Only a saved version with nothing unsaved on top of it, whose content still matches its fingerprint, is signed. */
async function signableVersion(services: Services, { ctx, body }: Answering) {
  const version = await savedVersion(services.db, ctx.note.noteNo, ctx.note.version);
  if (!version) throw new AppError(ERR.unsavedChanges);
  if (body.version !== undefined && body.version !== ctx.note.version)
    throw new AppError(ERR.conflict, { data: { version: ctx.note.version } });
  if ((await versionHash(services.db, ctx.note.noteNo, ctx.note.version)) !== version.blocksHash) throw new AppError(ERR.versionTampered);
  return version;
}

async function sign(services: Services, answering: Answering, at: Date): Promise<void> {
  const { db, live } = services;
  const { ctx, pending, actor, body } = answering;
  const { user } = actor;
  const version = await signableVersion(services, answering);
  const documentName = noteDocumentName(ctx.note.noteNo);
  // Edits this process holds are stored first, so that the check below sees them and refuses.
  await live.persistence.flushDocument(documentName);

  // Locked: every open editor turns read-only now, on every process, not at its next reconnect.
  await live.transaction(db, async (tx, commands) => {
    // The note's row, locked before the check: appends of live updates lock it too (DocumentKind
    // writable), so every update is either stored now and seen by the check, or refused after the commit.
    await lockNote(tx, ctx.note.noteNo, 'update');
    // Someone requested as reviewer who has written in the note since signs it only as participant.
    if (pending.type === 'reviewer' && !mayReview(user.userNo, await writersAmong(tx, ctx.note.noteNo, [user.userNo]))) {
      throw new AppError(ERR.reviewerWrote, { params: { names: user.name }, data: { writers: [user.userId] } });
    }
    const stored = docToSavedBlocks(contentOfState((await loadDocumentState(tx, documentName)) ?? EMPTY_STATE), 'LABNOTE');
    if (differsFromSaved(stored, version.blocks)) throw new AppError(ERR.unsavedChanges);
    const [signed] = await tx
      .update(noteSignatures)
      .set({
        status: SIGNATURE_STATUS.signed,
        signedAt: at,
        timeZone: body.timeZone ?? null,
        signedVersion: ctx.note.version,
        blocksHash: version.blocksHash,
        signatureName: body.name,
        description: body.description || null,
      })
      .where(and(eq(noteSignatures.signatureId, pending.signatureId), eq(noteSignatures.status, SIGNATURE_STATUS.pending)))
      .returning();
    if (!signed) throw new AppError(ERR.noPendingSignature);
    await queueTimestamp(tx, 'signature', signed.signatureId, signatureSubject(signed, ctx.note.noteNo, user));
    // The version it covers too: the signed note's final state (timestamps/versionStamps.ts).
    await queueVersionStamp(tx, ctx.note.noteNo, ctx.note.version);
    // The version condition: a save that slipped in meanwhile makes this signature refuse, not lie.
    const [stillSame] = await tx.select({ version: labNotes.version }).from(labNotes).where(eq(labNotes.noteNo, ctx.note.noteNo));
    if (stillSame?.version !== ctx.note.version) throw new AppError(ERR.conflict);
    const status = await settleNoteStatus(tx, ctx.note.noteNo);
    await tx.delete(noteHolds).where(eq(noteHolds.noteNo, ctx.note.noteNo));
    await appendAudit(tx, {
      ...auditedActor(actor),
      action: 'signature.signed',
      target: { type: 'note', id: ctx.note.noteNo },
      before: { status: ctx.note.status },
      after: {
        status,
        meaning: pending.type,
        name: body.name,
        description: body.description,
        at: at.toISOString(),
        timeZone: body.timeZone ?? null,
        version: ctx.note.version,
        blocksHash: version.blocksHash,
      },
    });
    await notifyWriters(tx, 'noteSigned', ctx.note, user.userNo, { meaning: pending.type });
    await emitWebhook(tx, {
      event: 'signature.given',
      projectNo: ctx.note.projectNo,
      noteNo: ctx.note.noteNo,
      data: {
        projectNo: ctx.note.projectNo,
        labNoteNo: ctx.note.noteNo,
        signerUserNo: user.userNo,
        meaning: pending.type,
        version: ctx.note.version,
        signedAt: at.toISOString(),
        noteStatus: status,
      },
    });
    commands.endWriting(documentName, null, 'signed');
  });
  services.timestamps.kick();
}

/**
 * Answers the caller's pending signature request (`/signature/status`): signs (T) the current saved
 * version, binding its fingerprint, or declines (F); the password is checked either way.
 */
export async function respondToRequest(services: Services, actor: Actor, body: SignatureAnswer): Promise<null> {
  const ctx = await requireVisibleNote(services.db, actor.user, body.labNoteNo);
  const pending = await pendingRequestOf(services.db, ctx.note.noteNo, actor.user.userNo);
  enforce(canSign(ctx, pending !== undefined), SIGN_REFUSALS);
  // Allowed only with a pending request (canSign).
  const answering: Answering = { ctx, pending: pending as PendingRequest, actor, body };
  await checkSignerPassword(services, answering);
  const at = new Date();
  if (body.status === SIGNATURE_STATUS.declined) await decline(services, answering, at);
  else await sign(services, answering, at);
  return null;
}
