import { z } from 'zod';

/*
 * What the product tells a person about, and how each person chose to hear of it. The events are named once
 * here: the server records them (server/src/notifications), the bell and the home show them, the mails and
 * the settings page name them.
 */

/** Every event a notification is made for, with who receives it. */
export const NOTIFICATION_EVENTS = [
  /** A signature was requested of me (the signer). */
  'signatureRequested',
  /** The requester of my pending signature (or the project leader) reminds me of it. */
  'signatureReminder',
  /** My note (I write or co-write it) was signed. */
  'noteSigned',
  /** A signature on my note was removed, or a signer declined; the reason is in the payload. */
  'signatureRemoved',
  /** A project I take part in (or lead) was closed. */
  'projectClosed',
  /** A template of mine (I am its author) was checked in by someone else. */
  'templateChecked',
  /** A template of mine was approved. */
  'templateApproved',
  /** A template of mine was returned with a reason. */
  'templateReturned',
  /** An export I asked for finished. */
  'exportFinished',
  /** An export I asked for failed. */
  'exportFailed',
  /** Someone mentioned me in a note or a comment (the comments feature). */
  'mentioned',
  /** Directory synchronisation deactivated people (administrators). */
  'usersDeactivated',
  /** A webhook of mine was turned off: its deliveries failed for the whole retry window (the webhooks feature). */
  'webhookDisabled',
] as const;
export type NotificationEvent = (typeof NOTIFICATION_EVENTS)[number];

/** How a person hears of one event: in the app (the bell), by email, both, or neither. */
export const notificationChoice = z.strictObject({ app: z.boolean(), email: z.boolean() });
export type NotificationChoice = z.infer<typeof notificationChoice>;

/** What a person who never chose hears: everything in the app, and by email what asks them to act. */
export const DEFAULT_NOTIFICATION_CHOICES: Readonly<Record<NotificationEvent, NotificationChoice>> = {
  signatureRequested: { app: true, email: true },
  signatureReminder: { app: true, email: true },
  noteSigned: { app: true, email: false },
  signatureRemoved: { app: true, email: true },
  projectClosed: { app: true, email: false },
  templateChecked: { app: true, email: false },
  templateApproved: { app: true, email: false },
  templateReturned: { app: true, email: true },
  exportFinished: { app: true, email: false },
  exportFailed: { app: true, email: true },
  mentioned: { app: true, email: true },
  usersDeactivated: { app: true, email: true },
  webhookDisabled: { app: true, email: true },
};

/** A person's choices; events they never chose keep the defaults above. */
export const notificationChoices = z.partialRecord(z.enum(NOTIFICATION_EVENTS), notificationChoice);
export type NotificationChoices = z.infer<typeof notificationChoices>;

/** The choice in force for one event. */
export function choiceFor(choices: NotificationChoices | null | undefined, event: NotificationEvent): NotificationChoice {
  return choices?.[event] ?? DEFAULT_NOTIFICATION_CHOICES[event];
}

/**
 * The daily digest: when on, the events a person chose to hear of by email are gathered into one mail a day
 * at `time` (HH:MM) in their time zone instead of one mail each.
 */
export const digestChoice = z.strictObject({
  enabled: z.boolean(),
  time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: 'invalidValue' }),
});
export type DigestChoice = z.infer<typeof digestChoice>;
export const DEFAULT_DIGEST: DigestChoice = { enabled: false, time: '08:00' };
