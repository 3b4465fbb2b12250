import { and, desc, eq, gt, inArray, lte, notExists, sql } from 'drizzle-orm';
import { MAIL_LIMITS, MAIL_STATUSES } from '@eln/shared';
import type { Db } from '../db/client.js';
import { mailOutbox, notifications, users, userSettings } from '../db/schema.js';
import { knownZone, lastDigestMoment } from './digestTime.js';

const DAY_MS = 86_400_000;

/**
 * Makes the daily digests that are due: for each active person with the digest on whose chosen time (in
 * their zone, else the server's) has passed since their last digest, one `digest` row in the outbox
 * gathering the notifications they chose to hear of by email since then, and the new `digest_sent_up_to`,
 * in one transaction. The person's settings row is locked (SKIP LOCKED) and their last digest read again
 * under the lock, so two processes never make one day's digest twice. A day with nothing makes no mail.
 * Answers how many digests were queued.
 */
export async function makeDueDigests(db: Db, now: Date, serverZone: string): Promise<number> {
  const people = await db
    .select({
      userNo: userSettings.userNo,
      timeZone: userSettings.timeZone,
      digestTime: userSettings.digestTime,
      sentUpTo: userSettings.digestSentUpTo,
    })
    .from(userSettings)
    .innerJoin(users, eq(users.userNo, userSettings.userNo))
    .where(and(eq(userSettings.digestEnabled, true), eq(users.active, true)));
  let queued = 0;
  for (const person of people) {
    if (!isDue(person, now, serverZone)) continue;
    if (await makeDigest(db, person.userNo, now, serverZone)) queued += 1;
  }
  return queued;
}

interface DigestFacts {
  timeZone: string | null;
  digestTime: string;
  sentUpTo: Date | null;
}

/** The moment this person's latest digest is for (their time, today or yesterday), once settled. */
function dueMoment(person: DigestFacts, now: Date, serverZone: string): Date {
  const settled = new Date(now.getTime() - MAIL_LIMITS.digestSettleSeconds * 1000);
  return lastDigestMoment(settled, knownZone(person.timeZone, serverZone), person.digestTime);
}

function isDue(person: DigestFacts, now: Date, serverZone: string): boolean {
  return person.sentUpTo === null || person.sentUpTo < dueMoment(person, now, serverZone);
}

/**
 * The mails already queued one by one (the person took the digest up later) are left out: a notification's
 * own mail is inserted in its transaction, so it has the notification's `created_at`, and the outbox's
 * (status, created_at) index finds it.
 */
const mailedAlone = (notificationId: typeof notifications.notificationId, createdAt: typeof notifications.createdAt) =>
  notExists(
    sql`(select 1 from ${mailOutbox} where ${inArray(mailOutbox.status, [...MAIL_STATUSES])} and ${eq(mailOutbox.createdAt, createdAt)}
      and ${eq(mailOutbox.notificationId, notificationId)})`,
  );

/** One person's digest, if still due under the lock of their settings row; true when a mail was queued. */
async function makeDigest(db: Db, userNo: number, now: Date, serverZone: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [person] = await tx
      .select({ timeZone: userSettings.timeZone, digestTime: userSettings.digestTime, sentUpTo: userSettings.digestSentUpTo })
      .from(userSettings)
      .where(and(eq(userSettings.userNo, userNo), eq(userSettings.digestEnabled, true)))
      .for('update', { skipLocked: true });
    // Another process holds it (and makes it), or it was made or switched off meanwhile.
    if (!person || !isDue(person, now, serverZone)) return false;
    const upTo = dueMoment(person, now, serverZone);
    // The first digest gathers the day before its time; later ones everything since the last.
    const from = person.sentUpTo ?? new Date(upTo.getTime() - DAY_MS);
    const gathered = await tx
      .select({ notificationId: notifications.notificationId })
      .from(notifications)
      .where(
        and(
          eq(notifications.userNo, userNo),
          eq(notifications.byEmail, true),
          gt(notifications.createdAt, from),
          lte(notifications.createdAt, upTo),
          mailedAlone(notifications.notificationId, notifications.createdAt),
        ),
      )
      .orderBy(desc(notifications.createdAt), desc(notifications.notificationId));
    if (gathered.length > 0) {
      await tx.insert(mailOutbox).values({ userNo, kind: 'digest', notificationIds: gathered.map((n) => n.notificationId) });
    }
    await tx.update(userSettings).set({ digestSentUpTo: upTo }).where(eq(userSettings.userNo, userNo));
    return gathered.length > 0;
  });
}
