import { and, eq, inArray, or } from 'drizzle-orm';
import { ERR, SIGNATURE_TYPES, type SignatureType } from '@eln/shared';
import type { AuthUser } from '../../auth/authUser.js';
import type { Queryable, Tx } from '../../db/client.js';
import { noteSignatures, projectParticipants, users } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import { enforce } from '../../http/verdicts.js';
import { canRequestSignatures, mayReview, REQUEST_REFUSALS } from '../../notes/policy.js';
import { lockNote, requireVisibleNote, type NoteContext } from '../../notes/queries.js';
import { writersAmong } from '../../notes/writers.js';
import type { ProjectRecord } from '../../projects/record.js';
import { notify } from '../../notifications/notify.js';
import { emitWebhook } from '../../webhooks/emit.js';

/** A signer as a request names them, with their user number. */
export interface Signer {
  userNo: number;
  userId: string;
  type: SignatureType;
}

/** Signers must take part in the note's project (its leader or a participant), and be active; answers their user numbers. */
export async function resolveSigners(
  q: Queryable,
  project: ProjectRecord,
  signers: ReadonlyArray<{ userId: string; type: SignatureType }>,
): Promise<Signer[]> {
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
export async function refuseWritersAsReviewers(q: Queryable, noteNo: number, signers: readonly Signer[]): Promise<void> {
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
export async function requestableNote(q: Queryable, user: AuthUser, noteNo: number): Promise<NoteContext> {
  const ctx = await requireVisibleNote(q, user, noteNo);
  enforce(canRequestSignatures(user, ctx), REQUEST_REFUSALS);
  return ctx;
}

/**
 * The same verdict again on the note's row, locked `for update` as a signature locks it: a request
 * never lands on a note that a signature committed meanwhile.
 */
export async function stillRequestable(tx: Tx, user: AuthUser, ctx: NoteContext): Promise<void> {
  const current = await lockNote(tx, ctx.note.noteNo, 'update');
  enforce(canRequestSignatures(user, { ...ctx, note: { ...ctx.note, ...current } }), REQUEST_REFUSALS);
}

/** Asks the signers not among `alreadyAsked` (user numbers with a live signature on the note); answers those asked now. */
export async function askNewSigners(
  tx: Tx,
  noteNo: number,
  signers: readonly Signer[],
  alreadyAsked: ReadonlySet<number>,
  requestedByUserNo: number,
): Promise<Signer[]> {
  const added = signers.filter((s) => !alreadyAsked.has(s.userNo));
  if (added.length) {
    await tx.insert(noteSignatures).values(added.map((s) => ({ noteNo, userNo: s.userNo, type: s.type, requestedByUserNo })));
  }
  return added;
}

/** Tells the signers asked now that their signature is requested, each with the meaning asked of them. */
export async function notifyNewSigners(tx: Tx, ctx: NoteContext, added: readonly Signer[], requestedByUserNo: number): Promise<void> {
  for (const meaning of SIGNATURE_TYPES) {
    const recipients = added.filter((s) => s.type === meaning).map((s) => s.userNo);
    if (!recipients.length) continue;
    await notify(tx, {
      event: 'signatureRequested',
      recipients,
      actorUserNo: requestedByUserNo,
      noteNo: ctx.note.noteNo,
      projectNo: ctx.project.projectNo,
      payload: { meaning },
    });
  }
  if (added.length === 0) return;
  await emitWebhook(tx, {
    event: 'signature.requested',
    projectNo: ctx.project.projectNo,
    noteNo: ctx.note.noteNo,
    data: {
      projectNo: ctx.project.projectNo,
      labNoteNo: ctx.note.noteNo,
      requestedByUserNo,
      signers: added.map((s) => ({ userNo: s.userNo, meaning: s.type })),
    },
  });
}
