import { and, isNull, type SQL } from 'drizzle-orm';
import { ERR, NOTE_STATUS, type NoteAbilities } from '@eln/shared';
import { labNotes } from '../db/schema.js';
import type { Refusals } from '../http/verdicts.js';
import {
  canExportProject,
  canReadProject,
  inProgress,
  leads,
  visibleProjectsSql,
  type Caller,
  type ProjectFacts,
} from '../projects/policy.js';
import { isAdministrator } from '../users/policy.js';
import type { DocumentAccess } from '../collab/documents/documentKinds.js';
import type { NoteRecord } from './record.js';

/*
 * Who may do what with a lab note: every rule once, as a verdict with its reason. The note and signature
 * commands, the live document kind and the file uploads enforce these verdicts; note answers carry them
 * as `abilities`.
 * The verdicts below `canReadNote` are asked of notes the caller can read.
 */

export type NoteFacts = Pick<NoteRecord, 'writerUserNo' | 'status' | 'deletedAt'>;

/** A note as the rules see it: the note, its project, and whether the caller takes part in the project. */
export interface NoteCase {
  note: NoteFacts;
  project: ProjectFacts;
  participant: boolean;
}

export type ReadNoteVerdict = 'allowed' | 'missing' | 'deleted';
export type WriteVerdict = 'allowed' | 'notParticipant' | 'locked';
export type DeleteVerdict = 'allowed' | 'locked' | 'notAllowed' | 'completed';
export type RequestVerdict = 'allowed' | 'notAllowed' | 'closed' | 'signed';
export type SignVerdict = 'allowed' | 'closed' | 'noPending';
export type RemoveSignatureVerdict = 'allowed' | 'notLeader' | 'closed';

/** A note in a project the caller cannot see is answered as missing, like one that never existed. */
export const READ_REFUSALS: Refusals<ReadNoteVerdict> = { missing: ERR.noteMissing, deleted: ERR.noteDeleted };
export const WRITE_REFUSALS: Refusals<WriteVerdict> = { notParticipant: ERR.forbidden, locked: ERR.forbidden };
/** 2014 says "deleted or can no longer be deleted": a signed or finished note. */
export const DELETE_REFUSALS: Refusals<DeleteVerdict> = { locked: ERR.noteDeleted, notAllowed: ERR.forbidden, completed: ERR.forbidden };
export const REQUEST_REFUSALS: Refusals<RequestVerdict> = {
  notAllowed: ERR.forbidden,
  closed: ERR.projectClosed,
  signed: ERR.signerModify,
};
export const SIGN_REFUSALS: Refusals<SignVerdict> = { closed: ERR.projectClosed, noPending: ERR.noPendingSignature };
export const REMOVE_SIGNATURE_REFUSALS: Refusals<RemoveSignatureVerdict> = { notLeader: ERR.forbidden, closed: ERR.projectClosed };

const isSigned = (note: Pick<NoteFacts, 'status'>) => note.status === NOTE_STATUS.signed;
const isFinished = (note: Pick<NoteFacts, 'status'>) => note.status === NOTE_STATUS.finished;
/** Still being written or awaiting signatures: neither signed nor finished. */
const isOpen = (note: Pick<NoteFacts, 'status'>) => note.status === NOTE_STATUS.writing || note.status === NOTE_STATUS.requested;
/** Signatures change while the project is in progress and the note is not finished (a signed note included). */
export const openForSignatures = ({ note, project }: Pick<NoteCase, 'note' | 'project'>) => inProgress(project) && !isFinished(note);

/** Readable when its project is (the caller found it through `findNoteFor`) and it is not deleted. */
export function canReadNote(found: NoteCase | undefined): ReadNoteVerdict {
  if (!found) return 'missing';
  return found.note.deletedAt ? 'deleted' : 'allowed';
}

/**
 * Whether a person other than the caller may read the note (someone mentioned in it): an active account
 * that may read its project (`canReadProject`: administrators, its leader, its listed participants, the
 * case's `participant`), and the note is not deleted (`canReadNote`).
 */
export function personMayReadNote(person: Caller & { active: boolean }, found: NoteCase): boolean {
  return person.active && canReadProject(person, found.project, found.participant) === 'allowed' && canReadNote(found) === 'allowed';
}

/** Whether anyone may still write the note: its project is in progress and it is neither signed, finished nor deleted. */
export function noteOpenForWriting(note: Pick<NoteFacts, 'status' | 'deletedAt'>, project: Pick<ProjectFacts, 'status'>): boolean {
  return inProgress(project) && note.deletedAt === null && isOpen(note);
}

/**
 * Participants write, while the note is open for writing. The leader and administrators read only,
 * unless they are listed too. The live layer, drafts, versions and file uploads all ask this.
 */
export function canWriteNote(found: NoteCase): WriteVerdict {
  if (!found.participant) return 'notParticipant';
  return noteOpenForWriting(found.note, found.project) ? 'allowed' : 'locked';
}

/** What a connection to the note's live document may do: nothing, read, or write. */
export function noteDocumentAccess(found: NoteCase | undefined): DocumentAccess | null {
  if (!found || canReadNote(found) !== 'allowed') return null;
  return canWriteNote(found) === 'allowed' ? 'write' : 'read';
}

/** The writer, the leader or an administrator deletes a note still W or R, in a project in progress. */
export function canDeleteNote(user: Caller, found: NoteCase): DeleteVerdict {
  if (!isOpen(found.note)) return 'locked';
  if (found.note.writerUserNo !== user.userNo && !leads(user, found.project) && !isAdministrator(user)) return 'notAllowed';
  if (!inProgress(found.project)) return 'completed';
  return 'allowed';
}

/**
 * The writer or the leader requests signatures (or changes the pending signers) while the note is W or R.
 * A signed note takes no new requests: once signed it is a record, and who must sign it changes only by
 * the leader's removal of a signature, with a reason (docs/decisions.md).
 */
export function canRequestSignatures(user: Caller, found: NoteCase): RequestVerdict {
  if (found.note.writerUserNo !== user.userNo && !leads(user, found.project)) return 'notAllowed';
  if (!openForSignatures(found)) return 'closed';
  if (isSigned(found.note)) return 'signed';
  return 'allowed';
}

/** A signer answers their own pending request, also on a note someone else signed already. */
export function canSign(found: NoteCase, hasPendingRequest: boolean): SignVerdict {
  if (!openForSignatures(found)) return 'closed';
  return hasPendingRequest ? 'allowed' : 'noPending';
}

/**
 * A reviewer vouches for work that is not their own: whoever wrote in the note (its creator and everyone
 * whose live update was accepted) signs it only as participant, never as reviewer.
 */
export function mayReview(signerUserNo: number, writerUserNos: readonly number[]): boolean {
  return !writerUserNos.includes(signerUserNo);
}

/** Removing a signature, answered or pending, is the leader's alone (not an administrator's). */
export function canRemoveSignature(user: Caller, found: NoteCase): RemoveSignatureVerdict {
  if (!leads(user, found.project)) return 'notLeader';
  return openForSignatures(found) ? 'allowed' : 'closed';
}

/** A saved version of a note may be taken out as PDF by whoever may export its project (it must not be deleted). */
export function canExportNote(user: Caller, found: NoteCase): 'allowed' | 'hidden' {
  return !found.note.deletedAt && canExportProject(user, found.project, found.participant) === 'allowed' ? 'allowed' : 'hidden';
}

export function noteAbilities(user: Caller, found: NoteCase, hasPendingRequest: boolean): NoteAbilities {
  return {
    write: canWriteNote(found) === 'allowed',
    delete: canDeleteNote(user, found) === 'allowed',
    requestSignatures: canRequestSignatures(user, found) === 'allowed',
    sign: canSign(found, hasPendingRequest) === 'allowed',
    removeSignatures: canRemoveSignature(user, found) === 'allowed',
    exportPdf: canExportNote(user, found) === 'allowed',
  };
}

/** `canReadNote` (with `canReadProject`) as the condition a query over notes filters by: readable project, not deleted. */
export function readableNotesSql(user: Caller): SQL | undefined {
  return and(visibleProjectsSql(user), isNull(labNotes.deletedAt));
}
