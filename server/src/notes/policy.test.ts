import { describe, expect, it } from 'vitest';
import { ADMIN_LEVEL, NOTE_STATUS, PROJECT_STATUS, type NoteAbilities, type NoteStatus, type ProjectStatus } from '@eln/shared';
import {
  canDeleteNote,
  canReadNote,
  canRemoveSignature,
  canRequestSignatures,
  canSign,
  canWriteNote,
  noteAbilities,
  noteDocumentAccess,
  noteOpenForWriting,
  personMayReadNote,
  type NoteCase,
} from './policy.js';

/*
 * The note policy for each role in each state. Roles: the note's writer, another participant, a
 * participant with a pending request (reviewer), the leader and an administrator (neither listed as
 * participants), and an outsider. States: in progress (W), awaiting signatures (R), signed (T), finished
 * (F, project completed), deleted.
 */

type Role = 'writer' | 'participant' | 'reviewer' | 'leader' | 'admin' | 'outsider';
type State = 'writing' | 'requested' | 'signed' | 'finished' | 'deleted';

const USER_NO: Record<Role, number> = { writer: 1, participant: 2, reviewer: 3, leader: 4, admin: 5, outsider: 6 };
const userOf = (role: Role) => ({ userNo: USER_NO[role], level: role === 'admin' ? ADMIN_LEVEL : 1 });
const participates = (role: Role) => role === 'writer' || role === 'participant' || role === 'reviewer';

const STATES: Record<State, { status: NoteStatus; project: ProjectStatus; deleted?: boolean }> = {
  writing: { status: NOTE_STATUS.writing, project: PROJECT_STATUS.inProgress },
  requested: { status: NOTE_STATUS.requested, project: PROJECT_STATUS.inProgress },
  signed: { status: NOTE_STATUS.signed, project: PROJECT_STATUS.inProgress },
  finished: { status: NOTE_STATUS.finished, project: PROJECT_STATUS.completed },
  deleted: { status: NOTE_STATUS.writing, project: PROJECT_STATUS.inProgress, deleted: true },
};

function caseOf(role: Role, state: State): NoteCase {
  const s = STATES[state];
  return {
    note: { writerUserNo: USER_NO.writer, status: s.status, deletedAt: s.deleted ? new Date('2026-11-20T00:00:00Z') : null },
    project: { leaderUserNo: USER_NO.leader, status: s.project },
    participant: participates(role),
  };
}

/** The reviewer has a pending request from R on (a signed note may still have pending requests). */
const pendingFor = (role: Role, state: State) => role === 'reviewer' && state !== 'writing';

const ability = (letters: string): NoteAbilities => ({
  write: letters.includes('w'),
  delete: letters.includes('d'),
  requestSignatures: letters.includes('q'),
  sign: letters.includes('s'),
  removeSignatures: letters.includes('r'),
  exportPdf: letters.includes('x'),
});

/** w write, d delete, q request signatures, s sign, r remove signatures, x export a version as PDF. */
const EXPECTED: Record<Exclude<State, 'deleted'>, Record<Role, string>> = {
  writing: { writer: 'wdqx', participant: 'wx', reviewer: 'wx', leader: 'dqrx', admin: 'dx', outsider: '' },
  requested: { writer: 'wdqx', participant: 'wx', reviewer: 'wsx', leader: 'dqrx', admin: 'dx', outsider: '' },
  signed: { writer: 'x', participant: 'x', reviewer: 'sx', leader: 'rx', admin: 'x', outsider: '' },
  finished: { writer: 'x', participant: 'x', reviewer: 'x', leader: 'x', admin: 'x', outsider: '' },
};

describe('note abilities for every role in every state', () => {
  for (const [state, byRole] of Object.entries(EXPECTED) as Array<[Exclude<State, 'deleted'>, Record<Role, string>]>) {
    for (const [role, letters] of Object.entries(byRole) as Array<[Role, string]>) {
      it(`${role}, ${state}: ${letters || 'nothing'}`, () => {
        expect(noteAbilities(userOf(role), caseOf(role, state), pendingFor(role, state))).toEqual(ability(letters));
      });
    }
  }
});

describe('reading', () => {
  it('answers missing for a note not found (or in a project the caller cannot see), deleted for a deleted one', () => {
    expect(canReadNote(undefined)).toBe('missing');
    expect(canReadNote(caseOf('writer', 'deleted'))).toBe('deleted');
    expect(canReadNote(caseOf('leader', 'signed'))).toBe('allowed');
  });

  it('gives live connections write, read or nothing', () => {
    expect(noteDocumentAccess(caseOf('writer', 'writing'))).toBe('write');
    expect(noteDocumentAccess(caseOf('leader', 'writing'))).toBe('read');
    expect(noteDocumentAccess(caseOf('writer', 'signed'))).toBe('read');
    expect(noteDocumentAccess(caseOf('writer', 'deleted'))).toBeNull();
    expect(noteDocumentAccess(undefined)).toBeNull();
  });
});

describe('the reasons of each refusal', () => {
  it('writing: not a participant, or the note is locked (signed, finished, deleted or its project completed)', () => {
    expect(canWriteNote(caseOf('leader', 'writing'))).toBe('notParticipant');
    expect(canWriteNote(caseOf('admin', 'writing'))).toBe('notParticipant');
    for (const state of ['signed', 'finished', 'deleted'] as const) expect(canWriteNote(caseOf('writer', state)), state).toBe('locked');
    expect(noteOpenForWriting({ status: NOTE_STATUS.writing, deletedAt: null }, { status: PROJECT_STATUS.completed })).toBe(false);
    expect(noteOpenForWriting({ status: NOTE_STATUS.requested, deletedAt: null }, { status: PROJECT_STATUS.inProgress })).toBe(true);
  });

  it('deleting: a signed or finished note first (2014), then who asks, then the project', () => {
    expect(canDeleteNote(userOf('participant'), caseOf('participant', 'signed'))).toBe('locked');
    expect(canDeleteNote(userOf('participant'), caseOf('participant', 'writing'))).toBe('notAllowed');
    expect(
      canDeleteNote(userOf('writer'), {
        ...caseOf('writer', 'writing'),
        project: { leaderUserNo: USER_NO.leader, status: PROJECT_STATUS.completed },
      }),
    ).toBe('completed');
  });

  it('requesting: the writer or the leader, not an administrator; not on a finished note; not on a signed one', () => {
    expect(canRequestSignatures(userOf('admin'), caseOf('admin', 'writing'))).toBe('notAllowed');
    expect(canRequestSignatures(userOf('reviewer'), caseOf('reviewer', 'requested'))).toBe('notAllowed');
    expect(canRequestSignatures(userOf('leader'), caseOf('leader', 'finished'))).toBe('closed');
    // docs/decisions.md: a signed note takes no new requests, from the writer nor the leader.
    expect(canRequestSignatures(userOf('writer'), caseOf('writer', 'signed'))).toBe('signed');
    expect(canRequestSignatures(userOf('leader'), caseOf('leader', 'signed'))).toBe('signed');
  });

  it('signing: an open note first, then a pending request of the caller’s own', () => {
    expect(canSign(caseOf('reviewer', 'finished'), true)).toBe('closed');
    expect(canSign(caseOf('writer', 'writing'), false)).toBe('noPending');
    expect(canSign(caseOf('reviewer', 'signed'), true)).toBe('allowed');
  });

  it('removing a signature: the leader alone (not an administrator), while the note is not finished', () => {
    expect(canRemoveSignature(userOf('admin'), caseOf('admin', 'signed'))).toBe('notLeader');
    expect(canRemoveSignature(userOf('writer'), caseOf('writer', 'signed'))).toBe('notLeader');
    expect(canRemoveSignature(userOf('leader'), caseOf('leader', 'finished'))).toBe('closed');
    expect(canRemoveSignature(userOf('leader'), caseOf('leader', 'signed'))).toBe('allowed');
  });

  it('a person mentioned may read the note: active, and its project’s leader, a participant or an administrator; never a deleted note', () => {
    const person = (role: Role, active = true) => ({ ...userOf(role), active });
    for (const role of ['writer', 'participant', 'reviewer', 'leader', 'admin'] as const)
      expect(personMayReadNote(person(role), caseOf(role, 'signed'))).toBe(true);
    expect(personMayReadNote(person('outsider'), caseOf('outsider', 'writing'))).toBe(false);
    expect(personMayReadNote(person('participant', false), caseOf('participant', 'writing'))).toBe(false);
    expect(personMayReadNote(person('leader'), caseOf('leader', 'deleted'))).toBe(false);
  });
});
