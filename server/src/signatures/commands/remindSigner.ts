import { and, eq } from 'drizzle-orm';
import { ERR, SIGNATURE_OVERVIEW_LIMITS, type api, type CallAnswer, type CallRequest } from '@eln/shared';
import { appendAudit, auditedActor } from '../../audit/audit.js';
import type { Actor } from '../../auth/authUser.js';
import type { Queryable } from '../../db/client.js';
import { noteSignatures, signatureReminders, users, userSettings } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import { enforce } from '../../http/verdicts.js';
import { requireVisibleNote } from '../../notes/queries.js';
import { notify } from '../../notifications/notify.js';
import type { Services } from '../../services.js';
import { lastReminderAt } from '../overview.js';
import { canRemindSigner, nextReminderAt, REMIND_REFUSALS } from '../policy.js';

/** The zone a refusal names the next possible time in: the caller's chosen zone, else the server's. */
async function zoneOf(q: Queryable, userNo: number, fallback: string): Promise<string> {
  const [row] = await q.select({ zone: userSettings.timeZone }).from(userSettings).where(eq(userSettings.userNo, userNo));
  return row?.zone ?? fallback;
}

/**
 * Reminds a signer of their unanswered request (`canRemindSigner`: its requester or the project leader, at
 * most once a day per request). The request's row is locked while the last reminder is read, so two
 * reminders at once make one. The signer hears of it (`signatureReminder`); the audit trail keeps it.
 */
export async function remindSigner(
  { db, config }: Services,
  actor: Actor,
  input: CallRequest<typeof api.signatureOverview.remind>,
): Promise<CallAnswer<typeof api.signatureOverview.remind>> {
  const { user } = actor;
  const ctx = await requireVisibleNote(db, user, input.labNoteNo);
  return db.transaction(async (tx) => {
    const [request] = await tx
      .select()
      .from(noteSignatures)
      .where(and(eq(noteSignatures.signatureId, input.signatureId), eq(noteSignatures.noteNo, ctx.note.noteNo)))
      .for('update');
    if (!request) throw new AppError(ERR.reminderNotWaiting);
    const lastRemindedAt = await lastReminderAt(tx, request.signatureId);
    const now = new Date();
    const verdict = canRemindSigner(user, ctx, { ...request, lastRemindedAt }, now);
    if (verdict === 'tooSoon') {
      const next = nextReminderAt(lastRemindedAt) as Date;
      throw new AppError(ERR.reminderTooSoon, {
        // Said in the caller's language by the envelope (errorMessage), in the caller's zone.
        params: {
          hours: SIGNATURE_OVERVIEW_LIMITS.reminderIntervalHours,
          moment: next.toISOString(),
          zone: await zoneOf(tx, user.userNo, config.timeZone),
        },
        data: { nextAt: next.toISOString(), lastAt: lastRemindedAt?.toISOString() },
      });
    }
    enforce(verdict, REMIND_REFUSALS);
    await tx.insert(signatureReminders).values({ signatureId: request.signatureId, remindedByUserNo: user.userNo, remindedAt: now });
    const [signer] = await tx.select({ userId: users.userId }).from(users).where(eq(users.userNo, request.userNo));
    await notify(tx, {
      event: 'signatureReminder',
      recipients: [request.userNo],
      actorUserNo: user.userNo,
      noteNo: ctx.note.noteNo,
      projectNo: ctx.project.projectNo,
      payload: { meaning: request.type },
    });
    await appendAudit(tx, {
      ...auditedActor(actor),
      action: 'signature.reminded',
      target: { type: 'note', id: ctx.note.noteNo },
      after: {
        signatureId: request.signatureId,
        signer: signer?.userId,
        meaning: request.type,
        requestedAt: request.requestedAt.toISOString(),
        previousReminder: lastRemindedAt?.toISOString() ?? null,
      },
    });
    return { remindedAt: now.toISOString(), nextAt: (nextReminderAt(now) as Date).toISOString() };
  });
}
