import { count, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { api, CallRequest, MailListAnswer, MailRow, NotificationEvent } from '@eln/shared';
import type { Queryable } from '../db/client.js';
import { offsetOf } from '../db/paging.js';
import { mailOutbox, notifications, users } from '../db/schema.js';
import { canRetryMail } from './policy.js';

const iso = (value: Date | null) => (value ? value.toISOString() : null);

const mailColumns = {
  mail: mailOutbox,
  userId: users.userId,
  name: users.name,
  active: users.active,
  event: notifications.event,
  digestCount: sql<number | null>`jsonb_array_length(${mailOutbox.notificationIds})`,
};

/** The outbox's mails with their recipient and event, newest first. */
function selectMails(q: Queryable, where: SQL | undefined) {
  return q
    .select(mailColumns)
    .from(mailOutbox)
    .innerJoin(users, eq(users.userNo, mailOutbox.userNo))
    .leftJoin(notifications, eq(notifications.notificationId, mailOutbox.notificationId))
    .where(where)
    .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.mailId));
}

type Selected = Awaited<ReturnType<typeof selectMails>>[number];

function toMailRow(row: Selected): MailRow {
  const { mail } = row;
  return {
    mailId: mail.mailId,
    kind: mail.kind,
    status: mail.status,
    recipient: { userNo: mail.userNo, userId: row.userId, name: row.name, active: row.active },
    event: mail.kind === 'notification' ? (row.event as NotificationEvent | null) : null,
    notificationCount: mail.kind === 'digest' ? Number(row.digestCount ?? 0) : 1,
    attempts: mail.attempts,
    lastError: mail.lastError,
    createdAt: mail.createdAt.toISOString(),
    nextAttemptAt: mail.status === 'pending' || mail.status === 'sending' ? iso(mail.nextAttemptAt) : null,
    sentAt: iso(mail.sentAt),
    abilities: { retry: canRetryMail(mail) === 'allowed' },
  };
}

/** The administrators' list: mails of one status (or all), newest first, and how many failed in all. */
export async function listMails(q: Queryable, filter: CallRequest<typeof api.mail.list>): Promise<MailListAnswer> {
  const where = filter.status ? eq(mailOutbox.status, filter.status) : undefined;
  const [total] = await q.select({ n: count() }).from(mailOutbox).where(where);
  const [failed] = await q.select({ n: count() }).from(mailOutbox).where(eq(mailOutbox.status, 'failed'));
  const rows = await selectMails(q, where).limit(filter.pageSize).offset(offsetOf(filter));
  return { list: rows.map(toMailRow), totalCount: Number(total?.n ?? 0), failedCount: Number(failed?.n ?? 0) };
}

/** One mail as the list shows it, or undefined. */
export async function findMail(q: Queryable, mailId: number): Promise<MailRow | undefined> {
  const [row] = await selectMails(q, eq(mailOutbox.mailId, mailId));
  return row ? toMailRow(row) : undefined;
}
