import type { SignatureEntry, SignatureRequestOverview, SignatureRequestState, SignatureStatus, TimestampInfo } from '@eln/shared';
import type { noteSignatures } from '../db/schema.js';
import type { NoteCase } from '../notes/policy.js';
import type { Caller } from '../projects/policy.js';
import { reminderAbility } from './policy.js';

/** A signature as notes show it: the signer, the meaning, the answer and, once signed, whether its version is intact. */
export function signatureEntryOf(
  signature: typeof noteSignatures.$inferSelect,
  signer: { userId: string; name: string },
  intact: boolean | null,
  timestamp: TimestampInfo | null,
): SignatureEntry {
  return {
    signatureId: signature.signatureId,
    userId: signer.userId,
    name: signer.name,
    type: signature.type,
    status: signature.status,
    signatureName: signature.signatureName,
    description: signature.description,
    signedAt: signature.signedAt?.toISOString() ?? null,
    timeZone: signature.timeZone,
    signedVersion: signature.signedVersion,
    intact,
    timestamp,
  };
}

/** A request as the overview reads it: the signature row and the people it names. */
export interface OverviewRow {
  signature: typeof noteSignatures.$inferSelect;
  signer: PersonRef;
  requester: PersonRef;
  removerId: string | null;
  removerName: string | null;
}

interface PersonRef {
  userId: string;
  name: string;
}

/** A request's reminders: how many were sent, and the last one. */
export interface ReminderSummary {
  count: number;
  lastAt: Date;
  lastBy: PersonRef;
}

const STATE_OF: Record<SignatureStatus, SignatureRequestState> = { R: 'waiting', T: 'signed', F: 'declined', C: 'cancelled' };

/** One request in the overview, with the caller's verdict on reminding its signer (`reminderAbility`). */
export function overviewRequestOf(
  row: OverviewRow,
  reminders: ReminderSummary | null,
  user: Caller,
  found: Pick<NoteCase, 'note' | 'project'>,
  now: Date,
): SignatureRequestOverview {
  const { signature } = row;
  return {
    signatureId: signature.signatureId,
    signer: row.signer,
    type: signature.type,
    state: signature.removedAt ? 'removed' : STATE_OF[signature.status],
    requestedBy: row.requester,
    requestedAt: signature.requestedAt.toISOString(),
    answeredAt: signature.signedAt?.toISOString() ?? null,
    timeZone: signature.timeZone,
    signatureName: signature.signatureName,
    description: signature.description,
    signedVersion: signature.signedVersion,
    removed: signature.removedAt
      ? {
          at: signature.removedAt.toISOString(),
          by: row.removerId === null || row.removerName === null ? null : { userId: row.removerId, name: row.removerName },
          reason: signature.removedReason,
        }
      : null,
    reminders: {
      count: reminders?.count ?? 0,
      lastAt: reminders?.lastAt.toISOString() ?? null,
      lastBy: reminders?.lastBy ?? null,
    },
    reminder: reminderAbility(user, found, { ...signature, lastRemindedAt: reminders?.lastAt ?? null }, now),
  };
}
