import { ERR, SIGNATURE_OVERVIEW_LIMITS, SIGNATURE_STATUS } from '@eln/shared';
import type { noteSignatures } from '../db/schema.js';
import type { Refusals } from '../http/verdicts.js';
import { openForSignatures, type NoteCase } from '../notes/policy.js';
import { leads, type Caller } from '../projects/policy.js';

/*
 * Who may remind a signer of a request they have not answered: every rule once, as a verdict with its
 * reason. The remind command enforces it; the overview carries it to the client per request
 * (`reminder`). Reading the overview is reading the note (notes/policy.ts `canReadNote`, and
 * `readableNotesSql` for a project's notes).
 */

export type RemindVerdict = 'allowed' | 'notWaiting' | 'notAllowed' | 'closed' | 'tooSoon';

/** The refusals that name no value; `tooSoon` says when the next reminder may go (the remind command gives it). */
export const REMIND_REFUSALS: Refusals<Exclude<RemindVerdict, 'tooSoon'>> = {
  notWaiting: ERR.reminderNotWaiting,
  notAllowed: ERR.reminderNotAllowed,
  closed: ERR.projectClosed,
};

/** What the rule needs of a request: its signer, who asked, where it stands, and its last reminder. */
export type RequestFacts = Pick<typeof noteSignatures.$inferSelect, 'userNo' | 'requestedByUserNo' | 'status' | 'removedAt'> & {
  lastRemindedAt: Date | null;
};

const INTERVAL_MS = SIGNATURE_OVERVIEW_LIMITS.reminderIntervalHours * 3_600_000;

/** When the next reminder of a request may be sent: a full interval after the last one (null: none sent yet). */
export function nextReminderAt(lastRemindedAt: Date | null): Date | null {
  return lastRemindedAt ? new Date(lastRemindedAt.getTime() + INTERVAL_MS) : null;
}

/**
 * The one who asked for the signature, or the project leader, reminds a signer whose request still waits
 * (not answered, not removed), while the note's signatures may still change (its project in progress, the
 * note not finished); never themselves, and at most once per interval per request.
 */
export function canRemindSigner(user: Caller, found: Pick<NoteCase, 'note' | 'project'>, request: RequestFacts, now: Date): RemindVerdict {
  if (request.removedAt !== null || request.status !== SIGNATURE_STATUS.pending) return 'notWaiting';
  if (request.userNo === user.userNo) return 'notAllowed';
  if (request.requestedByUserNo !== user.userNo && !leads(user, found.project)) return 'notAllowed';
  if (!openForSignatures(found)) return 'closed';
  const next = nextReminderAt(request.lastRemindedAt);
  return next && next > now ? 'tooSoon' : 'allowed';
}

/** The verdict as the overview carries it: null when the caller may not remind at all, else now or from when. */
export function reminderAbility(
  user: Caller,
  found: Pick<NoteCase, 'note' | 'project'>,
  request: RequestFacts,
  now: Date,
): { allowed: boolean; nextAt: string | null } | null {
  const verdict = canRemindSigner(user, found, request, now);
  if (verdict === 'allowed') return { allowed: true, nextAt: null };
  if (verdict === 'tooSoon') return { allowed: false, nextAt: nextReminderAt(request.lastRemindedAt)?.toISOString() ?? null };
  return null;
}
