import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  AUDIT_SYSTEM_REASONS,
  differsFromSaved,
  docToSavedBlocks,
  ERR,
  NOTE_STATUS,
  noteDocumentName,
  PROJECT_STATUS,
  signatureCreateRequest,
  signatureRemoveRequest,
  signatureStatusRequest,
  signatureUpdateRequest,
  type NoteStatus,
  type SignatureType,
} from '@eln/shared';
import { appendAudit } from '../audit/audit.js';
import type { AuthUser } from '../auth/authUser.js';
import { verifyPassword } from '../auth/passwords.js';
import type { Queryable, Tx } from '../db/client.js';
import { labNotes, noteHolds, noteSignatures, projectParticipants, users } from '../db/schema.js';
import { AppError } from '../http/errors.js';
import { defineRoute } from '../http/route.js';
import { loadDocumentState } from '../collab/documentStore.js';
import { contentOfState } from '../collab/liveDocuments.js';
import { lockNote, requireVisibleNote, savedVersion, type NoteContext } from '../notes/queries.js';
import type { Services } from '../services.js';
import { versionHash } from './queries.js';

/** The Yjs state of a document with nothing in it. */
const EMPTY_STATE = new Uint8Array([0, 0]);

/** Signers must be participants of the note's project; answers their user numbers. */
async function resolveSigners(q: Queryable, projectNo: number, signers: Array<{ userId: string; type: SignatureType }>) {
  const ids = signers.map((s) => s.userId);
  const rows = await q
    .select({ userNo: users.userNo, userId: users.userId })
    .from(projectParticipants)
    .innerJoin(users, eq(users.userNo, projectParticipants.userNo))
    .where(and(eq(projectParticipants.projectNo, projectNo), inArray(users.userId, ids), eq(users.active, true)));
  const byId = new Map(rows.map((r) => [r.userId, r.userNo]));
  const missing = ids.filter((id) => !byId.has(id));
  if (missing.length) throw new AppError(ERR.signerModify, { data: { notParticipants: missing } });
  return signers.map((s) => ({ ...s, userNo: byId.get(s.userId) as number }));
}

/** A note's status follows its live signatures: any signed locks it, any pending means requested. */
async function settleNoteStatus(tx: Tx, noteNo: number): Promise<NoteStatus> {
  const live = await tx.select({ status: noteSignatures.status }).from(noteSignatures).where(and(eq(noteSignatures.noteNo, noteNo), isNull(noteSignatures.removedAt)));
  const status: NoteStatus = live.some((s) => s.status === 'T') ? NOTE_STATUS.signed : live.some((s) => s.status === 'R') ? NOTE_STATUS.requested : NOTE_STATUS.writing;
  await tx.update(labNotes).set({ status, updatedAt: new Date() }).where(and(eq(labNotes.noteNo, noteNo), isNull(labNotes.deletedAt)));
  return status;
}

function requireOpenForSigning(ctx: NoteContext): void {
  if (ctx.project.status !== PROJECT_STATUS.inProgress || ctx.note.status === NOTE_STATUS.finished) throw new AppError(ERR.projectModify);
}

/** Signatures: requests by the writer or leader, signing with the password, removal by the leader. */
export function registerSignatureRoutes(app: FastifyInstance, services: Services): void {
  const { db, live, throttle } = services;

  const mayRequest = (ctx: NoteContext, user: AuthUser) => ctx.note.writerUserNo === user.userNo || ctx.project.leaderUserNo === user.userNo;

  defineRoute(app, services, {
    path: '/v1/project/signature/create',
    access: 'user',
    body: signatureCreateRequest,
    async handler({ body, user, clientAddress }) {
      const ctx = await requireVisibleNote(db, user, body.labNoteNo);
      if (!mayRequest(ctx, user)) throw new AppError(ERR.forbidden);
      requireOpenForSigning(ctx);
      const signers = await resolveSigners(db, ctx.project.projectNo, body.signers);
      await db.transaction(async (tx) => {
        const present = await tx
          .select({ userNo: noteSignatures.userNo })
          .from(noteSignatures)
          .where(and(eq(noteSignatures.noteNo, ctx.note.noteNo), isNull(noteSignatures.removedAt)));
        const already = new Set(present.map((p) => p.userNo));
        const added = signers.filter((s) => !already.has(s.userNo));
        if (added.length) {
          await tx.insert(noteSignatures).values(added.map((s) => ({ noteNo: ctx.note.noteNo, userNo: s.userNo, type: s.type, requestedByUserNo: user.userNo })));
        }
        const status = await settleNoteStatus(tx, ctx.note.noteNo);
        await appendAudit(tx, {
          actor: user,
          action: 'signature.requested',
          target: { type: 'note', id: ctx.note.noteNo },
          before: { status: ctx.note.status },
          after: { status, signers: added.map(({ userId, type }) => ({ userId, type })) },
          clientAddress,
        });
      });
      return null;
    },
  });

  defineRoute(app, services, {
    path: '/v1/project/signature/update',
    access: 'user',
    body: signatureUpdateRequest,
    async handler({ body, user, clientAddress }) {
      const ctx = await requireVisibleNote(db, user, body.labNoteNo);
      if (!mayRequest(ctx, user)) throw new AppError(ERR.forbidden);
      requireOpenForSigning(ctx);
      const wanted = await resolveSigners(db, ctx.project.projectNo, body.signers);
      await db.transaction(async (tx) => {
        const current = await tx.select().from(noteSignatures).where(and(eq(noteSignatures.noteNo, ctx.note.noteNo), isNull(noteSignatures.removedAt)));
        const wantedByUser = new Map(wanted.map((w) => [w.userNo, w]));
        // Only pending requests change; answered signatures stay as they are.
        for (const signature of current.filter((s) => s.status === 'R')) {
          const next = wantedByUser.get(signature.userNo);
          if (!next) {
            await tx
              .update(noteSignatures)
              .set({ removedAt: new Date(), removedByUserNo: user.userNo, removedReason: 'request withdrawn' })
              .where(eq(noteSignatures.signatureId, signature.signatureId));
          } else if (next.type !== signature.type) {
            await tx.update(noteSignatures).set({ type: next.type }).where(eq(noteSignatures.signatureId, signature.signatureId));
          }
        }
        const known = new Set(current.map((s) => s.userNo));
        const added = wanted.filter((w) => !known.has(w.userNo));
        if (added.length) {
          await tx.insert(noteSignatures).values(added.map((s) => ({ noteNo: ctx.note.noteNo, userNo: s.userNo, type: s.type, requestedByUserNo: user.userNo })));
        }
        const status = await settleNoteStatus(tx, ctx.note.noteNo);
        await appendAudit(tx, {
          actor: user,
          action: 'signature.updated',
          target: { type: 'note', id: ctx.note.noteNo },
          before: { status: ctx.note.status, pending: current.filter((s) => s.status === 'R').map((s) => ({ userNo: s.userNo, type: s.type })) },
          after: { status, signers: wanted.map(({ userId, type }) => ({ userId, type })) },
          clientAddress,
        });
      });
      return null;
    },
  });

  defineRoute(app, services, {
    path: '/v1/project/signature/status',
    access: 'user',
    body: signatureStatusRequest,
    async handler({ body, user, clientAddress }) {
      const ctx = await requireVisibleNote(db, user, body.labNoteNo);
      requireOpenForSigning(ctx);
      const [pending] = await db
        .select()
        .from(noteSignatures)
        .where(and(eq(noteSignatures.noteNo, ctx.note.noteNo), eq(noteSignatures.userNo, user.userNo), isNull(noteSignatures.removedAt), eq(noteSignatures.status, 'R')));
      if (!pending) throw new AppError(ERR.noPendingSignature);

      // The password is asked at every signature, and guessing it is limited like sign-in.
      const key = `sign:${user.userId}`;
      await throttle.assertNotLocked(db, [key]);
      const [account] = await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.userNo, user.userNo));
      if (!(await verifyPassword(account?.passwordHash ?? null, body.password))) {
        const failures = await db.transaction(async (tx) => {
          const count = await throttle.recordFailure(tx, key, services.config.throttle.accountLockAfter);
          await appendAudit(tx, { actor: user, action: 'signature.failed', target: { type: 'note', id: ctx.note.noteNo }, reason: AUDIT_SYSTEM_REASONS.wrongPassword, clientAddress });
          return count;
        });
        if (failures === 0) throw throttle.lockedError();
        throw new AppError(ERR.badCredentials);
      }
      await throttle.clear(db, key);

      const signedAt = new Date();
      if (body.status === 'F') {
        await db.transaction(async (tx) => {
          await tx
            .update(noteSignatures)
            .set({ status: 'F', signedAt, timeZone: body.timeZone ?? null, signatureName: body.name, description: body.description || null })
            .where(and(eq(noteSignatures.signatureId, pending.signatureId), eq(noteSignatures.status, 'R')));
          const status = await settleNoteStatus(tx, ctx.note.noteNo);
          await appendAudit(tx, {
            actor: user,
            action: 'signature.declined',
            target: { type: 'note', id: ctx.note.noteNo },
            before: { status: ctx.note.status },
            after: { status, meaning: pending.type, name: body.name, description: body.description, at: signedAt.toISOString() },
            clientAddress,
          });
        });
        return null;
      }

      // Only a saved version with nothing unsaved on top of it can be signed.
      const version = await savedVersion(db, ctx.note.noteNo, ctx.note.version);
      if (!version) throw new AppError(ERR.unsavedChanges);
      if (body.version !== undefined && body.version !== ctx.note.version) throw new AppError(ERR.conflict, { data: { version: ctx.note.version } });
      // A version whose stored content no longer matches its fingerprint is never signed.
      const recomputed = await versionHash(db, ctx.note.noteNo, ctx.note.version);
      if (recomputed !== version.blocksHash) throw new AppError(ERR.versionTampered);
      const documentName = noteDocumentName(ctx.note.noteNo);
      // Edits this process holds are stored first, so that the check below sees them and refuses.
      await live.persistence.flushDocument(documentName);

      await db.transaction(async (tx) => {
        // The note's row, locked before the check: appends of live updates lock it too (DocumentKind
        // writable), so every update is either stored now and seen by the check, or refused after the commit.
        await lockNote(tx, ctx.note.noteNo, 'update');
        const stored = docToSavedBlocks(contentOfState((await loadDocumentState(tx, documentName)) ?? EMPTY_STATE), 'LABNOTE');
        if (differsFromSaved(stored, version.blocks)) throw new AppError(ERR.unsavedChanges);
        const [signed] = await tx
          .update(noteSignatures)
          .set({
            status: 'T',
            signedAt,
            timeZone: body.timeZone ?? null,
            signedVersion: ctx.note.version,
            blocksHash: version.blocksHash,
            signatureName: body.name,
            description: body.description || null,
          })
          .where(and(eq(noteSignatures.signatureId, pending.signatureId), eq(noteSignatures.status, 'R')))
          .returning();
        if (!signed) throw new AppError(ERR.noPendingSignature);
        // The version condition: a save that slipped in meanwhile makes this signature refuse, not lie.
        const [stillSame] = await tx.select({ version: labNotes.version }).from(labNotes).where(eq(labNotes.noteNo, ctx.note.noteNo));
        if (stillSame?.version !== ctx.note.version) throw new AppError(ERR.conflict);
        const status = await settleNoteStatus(tx, ctx.note.noteNo);
        await tx.delete(noteHolds).where(eq(noteHolds.noteNo, ctx.note.noteNo));
        await appendAudit(tx, {
          actor: user,
          action: 'signature.signed',
          target: { type: 'note', id: ctx.note.noteNo },
          before: { status: ctx.note.status },
          after: {
            status,
            meaning: pending.type,
            name: body.name,
            description: body.description,
            at: signedAt.toISOString(),
            timeZone: body.timeZone ?? null,
            version: ctx.note.version,
            blocksHash: version.blocksHash,
          },
          clientAddress,
        });
      });
      // Locked: every open editor turns read-only now, not at its next reconnect.
      await live.endWriting(documentName, null, 'signed');
      return null;
    },
  });

  defineRoute(app, services, {
    path: '/v1/project/signature/remove',
    access: 'user',
    body: signatureRemoveRequest,
    async handler({ body, user, clientAddress }) {
      const ctx = await requireVisibleNote(db, user, body.labNoteNo);
      if (ctx.project.leaderUserNo !== user.userNo) throw new AppError(ERR.forbidden);
      requireOpenForSigning(ctx);
      await db.transaction(async (tx) => {
        const [removed] = await tx
          .update(noteSignatures)
          .set({ removedAt: new Date(), removedByUserNo: user.userNo, removedReason: body.reason })
          .where(and(eq(noteSignatures.signatureId, body.signatureId), eq(noteSignatures.noteNo, ctx.note.noteNo), isNull(noteSignatures.removedAt)))
          .returning();
        if (!removed) throw new AppError(ERR.signerModify);
        const status = await settleNoteStatus(tx, ctx.note.noteNo);
        const [signer] = await tx.select({ userId: users.userId }).from(users).where(eq(users.userNo, removed.userNo));
        await appendAudit(tx, {
          actor: user,
          action: 'signature.removed',
          target: { type: 'note', id: ctx.note.noteNo },
          before: { signer: signer?.userId, meaning: removed.type, status: removed.status, version: removed.signedVersion, noteStatus: ctx.note.status },
          after: { noteStatus: status },
          reason: body.reason,
          clientAddress,
        });
      });
      return null;
    },
  });
}
