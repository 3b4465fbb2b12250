import { api, SIGNATURE_STATUS, type NoteSummary, type ProjectParticipant, type SignatureEntry, type SignatureType } from '@eln/shared';

/*
 * The pure helpers of the signature screens: the caller's own entries and the request dialog's choices.
 * Who may do what is not decided here: the note's `abilities` say it (the server's note policy).
 */

// --- The caller's own signatures -------------------------------------------------------------------

/** The caller's own pending request, which they may sign or decline. */
export function pendingSignatureOf(me: string, list: readonly SignatureEntry[]): SignatureEntry | null {
  return list.find((s) => s.userId === me && s.status === SIGNATURE_STATUS.pending) ?? null;
}

/** What the signatures panel offers the caller. */
export interface PanelActions {
  request: boolean;
  remove: boolean;
  /** The caller's pending request, when they may answer it now. */
  pending: SignatureEntry | null;
}

/** Exactly what the note's `abilities` allow: the server's verdicts, not rules of the client's own. */
export function panelActions(note: Pick<NoteSummary, 'abilities' | 'signatureList'>, me: string): PanelActions {
  return {
    request: note.abilities.requestSignatures,
    remove: note.abilities.removeSignatures,
    pending: note.abilities.sign ? pendingSignatureOf(me, note.signatureList) : null,
  };
}

/** The caller's own answered signature (signed first, else declined), for the completion notice. */
export function ownAnswerOf(me: string, list: readonly SignatureEntry[]): SignatureEntry | null {
  const mine = list.filter((s) => s.userId === me);
  return mine.find((s) => s.status === SIGNATURE_STATUS.signed) ?? mine.find((s) => s.status === SIGNATURE_STATUS.declined) ?? null;
}

/** A request when the note has no live signature yet; otherwise a change of signers (pending ones replaced, answered kept). */
export function requestCallFor(list: readonly SignatureEntry[]): typeof api.signatures.request | typeof api.signatures.updateSigners {
  return list.length === 0 ? api.signatures.request : api.signatures.updateSigners;
}

/**
 * The project's answers that show signatures: its note list (each note's status and signers), and its
 * detail and list (a project closes once a reviewer has signed). An answered or removed signature makes them stale.
 */
export const SIGNATURES_SHOWN_ON = [api.projects.editor, api.projects.detail, api.projects.list] as const;

// --- The request dialog ------------------------------------------------------------------------------

export interface SignerChoice {
  userId: string;
  name: string;
  departmentName: string | null;
  /** An answered signature (signed or declined): shown, not changed. */
  answered: SignatureEntry | null;
  chosen: boolean;
  type: SignatureType;
  /** Listed on the note but no longer a participant of the project (the server refuses such a signer). */
  notParticipant: boolean;
  /** Wrote in the note, so the server lets them sign only as participant (the note's `reviewersExcluded`). */
  reviewerExcluded: boolean;
}

/**
 * One row per participant, in the project's order, then any signer of the note who is no longer a
 * participant. Pending signers start chosen with their meaning; answered ones are fixed.
 */
export function signerChoices(
  participants: readonly ProjectParticipant[],
  list: readonly SignatureEntry[],
  reviewersExcluded: readonly string[] = [],
): SignerChoice[] {
  const byUser = new Map(list.map((s) => [s.userId, s]));
  const excluded = new Set(reviewersExcluded);
  const row = (userId: string, name: string, departmentName: string | null, notParticipant: boolean): SignerChoice => {
    const entry = byUser.get(userId) ?? null;
    const answered = entry && entry.status !== SIGNATURE_STATUS.pending ? entry : null;
    return {
      userId,
      name,
      departmentName,
      answered,
      chosen: entry !== null && answered === null,
      type: entry?.type ?? 'participant',
      notParticipant,
      reviewerExcluded: excluded.has(userId),
    };
  };
  const rows = participants.map((p) => row(p.userId, p.name, p.departmentName, false));
  const listed = new Set(participants.map((p) => p.userId));
  for (const entry of list) if (!listed.has(entry.userId)) rows.push(row(entry.userId, entry.name, null, true));
  return rows;
}

/**
 * The meaning a newly chosen signer gets: reviewer while nobody is (or was) asked as reviewer, else
 * participant; always participant for someone the server excludes as reviewer.
 */
export function defaultMeaning(rows: readonly SignerChoice[], signer?: Pick<SignerChoice, 'reviewerExcluded'>): SignatureType {
  if (signer?.reviewerExcluded) return 'participant';
  const reviewerAsked = rows.some(
    (r) => r.type === 'reviewer' && (r.chosen || (r.answered !== null && r.answered.status === SIGNATURE_STATUS.signed)),
  );
  return reviewerAsked ? 'participant' : 'reviewer';
}

/** What is sent: the chosen signers that are not answered already. */
export function chosenSigners(rows: readonly SignerChoice[]): Array<{ userId: string; type: SignatureType }> {
  return rows.filter((r) => r.chosen && r.answered === null).map(({ userId, type }) => ({ userId, type }));
}

/** The user IDs a 2019 answer names as not participants (`data.notParticipants`). */
export function notParticipantsOf(data: unknown): string[] {
  if (typeof data !== 'object' || data === null) return [];
  const list = (data as { notParticipants?: unknown }).notParticipants;
  return Array.isArray(list) ? list.filter((id): id is string => typeof id === 'string') : [];
}
