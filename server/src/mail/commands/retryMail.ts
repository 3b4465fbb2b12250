import { and, eq } from 'drizzle-orm';
import { ERR, type api, type CallRequest, type MailRow } from '@eln/shared';
import { appendAudit, auditedActor } from '../../audit/audit.js';
import type { Actor } from '../../auth/authUser.js';
import { mailOutbox } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import { enforce } from '../../http/verdicts.js';
import type { Services } from '../../services.js';
import { canRetryMail, RETRY_REFUSALS } from '../policy.js';
import { findMail } from '../queries.js';

/**
 * An administrator sends a failed mail again: it is pending at once with its tries counted afresh (and
 * keeps its Message-ID), written anew for its recipient as they are when it goes. Audited with the
 * failure it had.
 */
export async function retryMail(
  { db, mailOutbox: outbox }: Services,
  actor: Actor,
  input: CallRequest<typeof api.mail.retry>,
): Promise<{ mail: MailRow }> {
  await db.transaction(async (tx) => {
    const [mail] = await tx
      .select({
        status: mailOutbox.status,
        attempts: mailOutbox.attempts,
        lastError: mailOutbox.lastError,
        userNo: mailOutbox.userNo,
        kind: mailOutbox.kind,
      })
      .from(mailOutbox)
      .where(eq(mailOutbox.mailId, input.mailId))
      .for('update');
    if (!mail) throw new AppError(ERR.mailMissing);
    enforce(canRetryMail(mail), RETRY_REFUSALS);
    await tx
      .update(mailOutbox)
      .set({ status: 'pending', attempts: 0, nextAttemptAt: new Date(), claimedUntil: null })
      .where(and(eq(mailOutbox.mailId, input.mailId), eq(mailOutbox.status, 'failed')));
    await appendAudit(tx, {
      ...auditedActor(actor),
      action: 'mail.retried',
      target: { type: 'mail', id: input.mailId },
      before: { status: mail.status, attempts: mail.attempts, lastError: mail.lastError },
      after: { status: 'pending', attempts: 0, recipientUserNo: mail.userNo, kind: mail.kind },
    });
  });
  outbox.kick();
  const mail = await findMail(db, input.mailId);
  if (!mail) throw new AppError(ERR.mailMissing);
  return { mail };
}
