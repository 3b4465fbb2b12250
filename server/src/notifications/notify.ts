import { and, eq, inArray } from 'drizzle-orm';
import { choiceFor, type NotificationChoices, type NotificationEvent } from '@eln/shared';
import type { Tx } from '../db/client.js';
import { mailOutbox, notifications, users, userSettings } from '../db/schema.js';
import { publishNotificationChange } from './publish.js';

/** What an event names: the records a notification links to and is checked against when shown. */
export interface NotificationRefs {
  projectNo?: number | null;
  noteNo?: number | null;
  templateNo?: number | null;
  jobId?: string | null;
}

export interface NotificationDraft extends NotificationRefs {
  event: NotificationEvent;
  /** Who receives it; the actor and inactive people are left out, and each person once. */
  recipients: readonly number[];
  /** Who did it (null: the system, e.g. directory synchronisation or an export job). */
  actorUserNo: number | null;
  payload?: Record<string, unknown>;
}

export interface RecordedNotification {
  notificationId: number;
  userNo: number;
  inApp: boolean;
}

/**
 * Records an event's notifications in the transaction of the change it tells of, each person as they chose
 * (shared `choiceFor`): in the app, by email (one mail now, or in the daily digest), both or neither. A
 * mail is only queued here (mail_outbox); a sender sends it after the commit. The people who hear of it
 * in the app are told to every server process at the commit (publish.ts), so their bells update live.
 */
export async function notify(tx: Tx, draft: NotificationDraft): Promise<RecordedNotification[]> {
  const candidates = [...new Set(draft.recipients)].filter((userNo) => userNo !== draft.actorUserNo);
  if (candidates.length === 0) return [];
  const people = await tx
    .select({ userNo: users.userNo, choices: userSettings.notificationChoices, digest: userSettings.digestEnabled })
    .from(users)
    .leftJoin(userSettings, eq(userSettings.userNo, users.userNo))
    .where(and(inArray(users.userNo, candidates), eq(users.active, true)));
  const rows = people
    .map((person) => ({ person, choice: choiceFor(person.choices as NotificationChoices | null, draft.event) }))
    .filter(({ choice }) => choice.app || choice.email);
  if (rows.length === 0) return [];
  const recorded = await tx
    .insert(notifications)
    .values(
      rows.map(({ person, choice }) => ({
        userNo: person.userNo,
        event: draft.event,
        actorUserNo: draft.actorUserNo,
        projectNo: draft.projectNo ?? null,
        noteNo: draft.noteNo ?? null,
        templateNo: draft.templateNo ?? null,
        jobId: draft.jobId ?? null,
        payload: draft.payload ?? {},
        inApp: choice.app,
        byEmail: choice.email,
      })),
    )
    .returning({ notificationId: notifications.notificationId, userNo: notifications.userNo, inApp: notifications.inApp });
  const mailedNow = new Set(rows.filter(({ person, choice }) => choice.email && !person.digest).map(({ person }) => person.userNo));
  const mails = recorded.filter((n) => mailedNow.has(n.userNo));
  if (mails.length > 0) {
    await tx
      .insert(mailOutbox)
      .values(mails.map((n) => ({ userNo: n.userNo, kind: 'notification' as const, notificationId: n.notificationId })));
  }
  await publishNotificationChange(
    tx,
    recorded.filter((n) => n.inApp).map((n) => n.userNo),
  );
  return recorded;
}
