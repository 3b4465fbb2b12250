import { and, eq, inArray, isNull, or } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  ERR,
  signatureCreateRequest,
  signatureRemoveRequest,
  signatureStatusRequest,
  signatureUpdateRequest,
  type SignatureType,
} from '@eln/shared';
import { appendAudit } from '../audit/audit.js';
import type { AuthUser } from '../auth/authUser.js';
import type { Queryable, Tx } from '../db/client.js';
import { noteSignatures, projectParticipants, users } from '../db/schema.js';
import { AppError } from '../http/errors.js';
import { defineRoute } from '../http/route.js';
import { enforce } from '../http/verdicts.js';
import { canRemoveSignature, canRequestSignatures, mayReview, REMOVE_SIGNATURE_REFUSALS, REQUEST_REFUSALS } from '../notes/policy.js';
import { writersAmong } from '../notes/writers.js';
import { lockNote, requireVisibleNote, type NoteContext } from '../notes/queries.js';
import type { ProjectRecord } from '../projects/record.js';
import type { Services } from '../services.js';
import { settleNoteStatus } from './queries.js';
import { answerSignatureRequest } from './sign.js';

/** Signers must take part in the note's project (its leader or a participant), and be active; answers their user numbers. */
async function resolveSigners(q: Queryable, project: ProjectRecord, signers: Array<{ userId: string; type: SignatureType }>) {
  const ids = signers.map((s) => s.userId);
  const listed = q
    .select({ userNo: projectParticipants.userNo })
    .from(projectParticipants)
    .where(eq(projectParticipants.projectNo, project.projectNo));
  const rows = await q
    .select({ userNo: users.userNo, userId: users.userId })
    .from(users)
    .where(
      and(inArray(users.userId, ids), eq(users.active, true), or(eq(users.userNo, project.leaderUserNo), inArray(users.userNo, listed))),
    );
  const byId = new Map(rows.map((r) => [r.userId, r.userNo]));
  const missing = ids.filter((id) => !byId.has(id));
  if (missing.length) throw new AppError(ERR.signerModify, { data: { notParticipants: missing } });
  return signers.map((s) => ({ ...s, userNo: byId.get(s.userId) as number }));
}

/** Refuses reviewers who wrote in the note (`mayReview`), naming them (2025). */
async function refuseWritersAsReviewers(
  q: Queryable,
  noteNo: number,
  signers: Array<{ userNo: number; userId: string; type: SignatureType }>,
): Promise<void> {
  const reviewers = signers.filter((s) => s.type === 'reviewer');
  const writers = await writersAmong(
    q,
    noteNo,
    reviewers.map((s) => s.userNo),
  );
  const refused = reviewers.filter((s) => !mayReview(s.userNo, writers));
  if (!refused.length) return;
  const names = await q
    .select({ userId: users.userId, name: users.name })
    .from(users)
    .where(
      inArray(
        users.userNo,
        refused.map((s) => s.userNo),
      ),
    );
  throw new AppError(ERR.reviewerWrote, {
    params: { names: names.map((n) => n.name).join(', ') },
    data: { writers: refused.map((s) => s.userId) },
  });
}

/** The note if the caller may request its signatures or change its pending signers (`canRequestSignatures`). */
async function requestableNote(q: Queryable, user: AuthUser, noteNo: number): Promise<NoteContext> {
  const ctx = await requireVisibleNote(q, user, noteNo);
  enforce(canRequestSignatures(user, ctx), REQUEST_REFUSALS);
  return ctx;
}

/**
 * The same verdict again on the note's row, locked `for update` as a signature locks it: a request
 * never lands on a note that a signature committed meanwhile.
 */
async function stillRequestable(tx: Tx, user: AuthUser, ctx: NoteContext): Promise<void> {
  const current = await lockNote(tx, ctx.note.noteNo, 'update');
  enforce(canRequestSignatures(user, { ...ctx, note: { ...ctx.note, ...current } }), REQUEST_REFUSALS);
}

/** Signatures: requests by the writer or leader, signing with the password, removal by the leader. */
export function registerSignatureRoutes(app: FastifyInstance, services: Services): void {
  const { db } = services;

  defineRoute(app, services, {
    path: '/v1/project/signature/create',
    access: 'user',
    body: signatureCreateRequest,
    async handler({ body, user, clientAddress }) {
      const ctx = await requestableNote(db, user, body.labNoteNo);
      const signers = await resolveSigners(db, ctx.project, body.signers);
      await db.transaction(async (tx) => {
        await stillRequestable(tx, user, ctx);
        await refuseWritersAsReviewers(tx, ctx.note.noteNo, signers);
        const present = await tx
          .select({ userNo: noteSignatures.userNo })
          .from(noteSignatures)
          .where(and(eq(noteSignatures.noteNo, ctx.note.noteNo), isNull(noteSignatures.removedAt)));
        const already = new Set(present.map((p) => p.userNo));
        const added = signers.filter((s) => !already.has(s.userNo));
        if (added.length) {
          await tx
            .insert(noteSignatures)
            .values(added.map((s) => ({ noteNo: ctx.note.noteNo, userNo: s.userNo, type: s.type, requestedByUserNo: user.userNo })));
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
      const ctx = await requestableNote(db, user, body.labNoteNo);
      const wanted = await resolveSigners(db, ctx.project, body.signers);
      await db.transaction(async (tx) => {
        await stillRequestable(tx, user, ctx);
        await refuseWritersAsReviewers(tx, ctx.note.noteNo, wanted);
        const current = await tx
          .select()
          .from(noteSignatures)
          .where(and(eq(noteSignatures.noteNo, ctx.note.noteNo), isNull(noteSignatures.removedAt)));
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
          await tx
            .insert(noteSignatures)
            .values(added.map((s) => ({ noteNo: ctx.note.noteNo, userNo: s.userNo, type: s.type, requestedByUserNo: user.userNo })));
        }
        const status = await settleNoteStatus(tx, ctx.note.noteNo);
        await appendAudit(tx, {
          actor: user,
          action: 'signature.updated',
          target: { type: 'note', id: ctx.note.noteNo },
          before: {
            status: ctx.note.status,
            pending: current.filter((s) => s.status === 'R').map((s) => ({ userNo: s.userNo, type: s.type })),
          },
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
    failure: ERR.signatureFailed,
    body: signatureStatusRequest,
    handler: ({ body, user, clientAddress }) => answerSignatureRequest(services, user, body, clientAddress),
  });

  defineRoute(app, services, {
    path: '/v1/project/signature/remove',
    access: 'user',
    body: signatureRemoveRequest,
    async handler({ body, user, clientAddress }) {
      const ctx = await requireVisibleNote(db, user, body.labNoteNo);
      enforce(canRemoveSignature(user, ctx), REMOVE_SIGNATURE_REFUSALS);
      await db.transaction(async (tx) => {
        const [removed] = await tx
          .update(noteSignatures)
          .set({ removedAt: new Date(), removedByUserNo: user.userNo, removedReason: body.reason })
          .where(
            and(
              eq(noteSignatures.signatureId, body.signatureId),
              eq(noteSignatures.noteNo, ctx.note.noteNo),
              isNull(noteSignatures.removedAt),
            ),
          )
          .returning();
        if (!removed) throw new AppError(ERR.signerModify);
        const status = await settleNoteStatus(tx, ctx.note.noteNo);
        const [signer] = await tx.select({ userId: users.userId }).from(users).where(eq(users.userNo, removed.userNo));
        await appendAudit(tx, {
          actor: user,
          action: 'signature.removed',
          target: { type: 'note', id: ctx.note.noteNo },
          before: {
            signer: signer?.userId,
            meaning: removed.type,
            status: removed.status,
            version: removed.signedVersion,
            noteStatus: ctx.note.status,
          },
          after: { noteStatus: status },
          reason: body.reason,
          clientAddress,
        });
      });
      return null;
    },
  });
}
