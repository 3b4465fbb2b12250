import {
  NOTE_STATUS,
  PROJECT_STATUS,
  SIGNATURE_STATUS,
  type Language,
  type NoteSummary,
  type ProjectParticipant,
  type ProjectStatus,
  type SignatureEntry,
  type SignatureType,
} from '@eln/shared';

/*
 * The pure rules of the signature screens: how a signing time is written, who may do what, and the
 * request dialog's choices. The server decides in the end; these only decide what the screen offers.
 */

// --- Time with zone ----------------------------------------------------------------------------------

/** A signing time as the signer saw it. */
export interface ZonedTime {
  /** "2026-11-22 10:05 GMT+9": date and 24-hour time in the signer's zone, then the zone's short name. */
  text: string;
  /** The IANA zone used (the signer's, or UTC when none was recorded or it is unknown here). */
  zone: string;
  iso: string;
}

function partsIn(date: Date, zone: string, language: Language): Intl.DateTimeFormatPart[] {
  return new Intl.DateTimeFormat(language, {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
  }).formatToParts(date);
}

/**
 * Writes an ISO time in the signer's time zone as "YYYY-MM-DD HH:mm ZONE" (the zone's short name in the
 * interface language, e.g. "GMT+9", "EST", "JST"). Null for a missing or unreadable time.
 */
export function formatZonedTime(iso: string | null | undefined, timeZone: string | null | undefined, language: Language): ZonedTime | null {
  if (!iso) return null;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  let zone = timeZone?.trim() || 'UTC';
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = partsIn(date, zone, language);
  } catch {
    // A zone this browser does not know: UTC, said so, rather than a wrong local time.
    zone = 'UTC';
    parts = partsIn(date, zone, language);
  }
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return { text: `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')} ${part('timeZoneName')}`.trim(), zone, iso };
}

/** This browser's IANA time zone, sent with a signature. */
export function localTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

// --- Who may do what ---------------------------------------------------------------------------------

/** What the screen knows of the note's project (null until it is found). */
export interface ProjectFacts {
  /** The leader's user ID. */
  leader: string;
  status: ProjectStatus;
}

export interface SignatureActor {
  /** The signed-in user's ID. */
  me: string;
  note: Pick<NoteSummary, 'writer' | 'status' | 'signatureList'>;
  project: ProjectFacts | null;
}

const openNote = (status: NoteSummary['status']) => status === NOTE_STATUS.writing || status === NOTE_STATUS.requested;
const projectOpen = (project: ProjectFacts | null) => project === null || project.status === PROJECT_STATUS.inProgress;

export function isLeader({ me, project }: SignatureActor): boolean {
  return project !== null && project.leader === me;
}

/**
 * Requesting (or changing) signers: the note's writer or the project's leader, on a note still being
 * written or awaiting signatures, in a project in progress.
 */
export function mayRequestSignatures(actor: SignatureActor): boolean {
  if (!openNote(actor.note.status) || !projectOpen(actor.project)) return false;
  return actor.note.writer === actor.me || isLeader(actor);
}

/** Removing a signature (answered or pending): the project leader alone, while the project is in progress. */
export function mayRemoveSignatures(actor: SignatureActor): boolean {
  return isLeader(actor) && actor.project?.status === PROJECT_STATUS.inProgress && actor.note.status !== NOTE_STATUS.finished;
}

/** The caller's own pending request, which they may sign or decline. */
export function pendingSignatureOf(me: string, list: readonly SignatureEntry[]): SignatureEntry | null {
  return list.find((s) => s.userId === me && s.status === SIGNATURE_STATUS.pending) ?? null;
}

/** Whether the caller may answer now: a pending request on a note that is not finished, in an open project. */
export function maySign(actor: SignatureActor): boolean {
  return pendingSignatureOf(actor.me, actor.note.signatureList) !== null && actor.note.status !== NOTE_STATUS.finished && projectOpen(actor.project);
}

/** The caller's own answered signature (signed first, else declined), for the completion notice. */
export function ownAnswerOf(me: string, list: readonly SignatureEntry[]): SignatureEntry | null {
  const mine = list.filter((s) => s.userId === me);
  return mine.find((s) => s.status === SIGNATURE_STATUS.signed) ?? mine.find((s) => s.status === SIGNATURE_STATUS.declined) ?? null;
}

/** Create when the note has no live signature yet; otherwise update (pending signers replaced, answered kept). */
export function requestPathFor(list: readonly SignatureEntry[]): '/v1/project/signature/create' | '/v1/project/signature/update' {
  return list.length === 0 ? '/v1/project/signature/create' : '/v1/project/signature/update';
}

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
}

/**
 * One row per participant, in the project's order, then any signer of the note who is no longer a
 * participant. Pending signers start chosen with their meaning; answered ones are fixed.
 */
export function signerChoices(participants: readonly ProjectParticipant[], list: readonly SignatureEntry[]): SignerChoice[] {
  const byUser = new Map(list.map((s) => [s.userId, s]));
  const row = (userId: string, name: string, departmentName: string | null, notParticipant: boolean): SignerChoice => {
    const entry = byUser.get(userId) ?? null;
    const answered = entry && entry.status !== SIGNATURE_STATUS.pending ? entry : null;
    return { userId, name, departmentName, answered, chosen: entry !== null && answered === null, type: entry?.type ?? 'participant', notParticipant };
  };
  const rows = participants.map((p) => row(p.userId, p.name, p.departmentName, false));
  const listed = new Set(participants.map((p) => p.userId));
  for (const entry of list) if (!listed.has(entry.userId)) rows.push(row(entry.userId, entry.name, null, true));
  return rows;
}

/** The meaning a newly chosen signer gets: reviewer while nobody is (or was) asked as reviewer, else participant. */
export function defaultMeaning(rows: readonly SignerChoice[]): SignatureType {
  const reviewerAsked = rows.some((r) => r.type === 'reviewer' && (r.chosen || (r.answered !== null && r.answered.status === SIGNATURE_STATUS.signed)));
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
