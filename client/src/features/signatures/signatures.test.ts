import { describe, expect, it } from 'vitest';
import type { NoteSummary, ProjectParticipant, SignatureEntry } from '@eln/shared';
import { parseNoteProjects, withNoteProjects } from './noteProject';
import {
  chosenSigners,
  defaultMeaning,
  formatZonedTime,
  mayRemoveSignatures,
  mayRequestSignatures,
  maySign,
  notParticipantsOf,
  ownAnswerOf,
  pendingSignatureOf,
  requestPathFor,
  signerChoices,
  type SignatureActor,
} from './rules';

const entry = (over: Partial<SignatureEntry>): SignatureEntry => ({
  signatureId: 1,
  userId: 'ryu@lab.test',
  name: 'Reviewer Ryu',
  type: 'reviewer',
  status: 'R',
  signatureName: null,
  description: null,
  signedAt: null,
  timeZone: null,
  signedVersion: null,
  intact: null,
  ...over,
});

const note = (over: Partial<Pick<NoteSummary, 'writer' | 'status' | 'signatureList'>> = {}) => ({ writer: 'woo@lab.test', status: 'W' as const, signatureList: [], ...over });
const project = { leader: 'lee@lab.test', status: 'ING' as const };
const actor = (me: string, over: Partial<SignatureActor> = {}): SignatureActor => ({ me, note: note(), project, ...over });

describe('time with zone', () => {
  const iso = '2026-11-22T01:05:00.000Z';

  it('writes the time in the signer’s zone with the zone’s short name', () => {
    expect(formatZonedTime(iso, 'Asia/Seoul', 'en')).toEqual({ text: '2026-11-22 10:05 GMT+9', zone: 'Asia/Seoul', iso });
    expect(formatZonedTime(iso, 'America/New_York', 'en')?.text).toBe('2026-11-21 20:05 EST');
    expect(formatZonedTime(iso, 'Asia/Seoul', 'ko')?.text).toBe('2026-11-22 10:05 GMT+9');
    expect(formatZonedTime(iso, 'Asia/Tokyo', 'ja')?.text).toBe('2026-11-22 10:05 JST');
  });

  it('uses a 24-hour clock, also at midnight', () => {
    expect(formatZonedTime('2026-11-21T15:00:00Z', 'Asia/Seoul', 'en')?.text).toBe('2026-11-22 00:00 GMT+9');
    expect(formatZonedTime('2026-11-22T13:30:00Z', 'Asia/Seoul', 'en')?.text).toBe('2026-11-22 22:30 GMT+9');
  });

  it('says UTC when no zone was recorded or the zone is unknown, and nothing for a missing time', () => {
    expect(formatZonedTime(iso, null, 'en')).toEqual({ text: '2026-11-22 01:05 UTC', zone: 'UTC', iso });
    expect(formatZonedTime(iso, 'Mars/Olympus_Mons', 'en')).toEqual({ text: '2026-11-22 01:05 UTC', zone: 'UTC', iso });
    expect(formatZonedTime(null, 'Asia/Seoul', 'en')).toBeNull();
    expect(formatZonedTime('not a time', 'Asia/Seoul', 'en')).toBeNull();
  });
});

describe('who may do what', () => {
  it('lets the writer or the leader request signatures on a note being written or awaiting signatures', () => {
    expect(mayRequestSignatures(actor('woo@lab.test'))).toBe(true);
    expect(mayRequestSignatures(actor('lee@lab.test', { note: note({ status: 'R' }) }))).toBe(true);
    expect(mayRequestSignatures(actor('cho@lab.test'))).toBe(false);
    // Signed or finished notes, and closed projects, take no requests.
    expect(mayRequestSignatures(actor('woo@lab.test', { note: note({ status: 'T' }) }))).toBe(false);
    expect(mayRequestSignatures(actor('woo@lab.test', { note: note({ status: 'F' }) }))).toBe(false);
    expect(mayRequestSignatures(actor('woo@lab.test', { project: { ...project, status: 'C' } }))).toBe(false);
    // The writer is known from the note alone; the leader only once the project is known.
    expect(mayRequestSignatures(actor('woo@lab.test', { project: null }))).toBe(true);
    expect(mayRequestSignatures(actor('lee@lab.test', { project: null }))).toBe(false);
  });

  it('lets only the leader remove signatures, while the project is in progress', () => {
    expect(mayRemoveSignatures(actor('lee@lab.test', { note: note({ status: 'T' }) }))).toBe(true);
    expect(mayRemoveSignatures(actor('woo@lab.test', { note: note({ status: 'T' }) }))).toBe(false);
    expect(mayRemoveSignatures(actor('lee@lab.test', { project: null }))).toBe(false);
    expect(mayRemoveSignatures(actor('lee@lab.test', { project: { ...project, status: 'C' } }))).toBe(false);
    expect(mayRemoveSignatures(actor('lee@lab.test', { note: note({ status: 'F' }) }))).toBe(false);
  });

  it('lets a signer answer their own pending request only', () => {
    const list = [entry({ signatureId: 1, userId: 'ryu@lab.test' }), entry({ signatureId: 2, userId: 'cho@lab.test', status: 'T', type: 'participant' })];
    expect(pendingSignatureOf('ryu@lab.test', list)?.signatureId).toBe(1);
    expect(pendingSignatureOf('cho@lab.test', list)).toBeNull();
    expect(maySign(actor('ryu@lab.test', { note: note({ status: 'T', signatureList: list }) }))).toBe(true);
    expect(maySign(actor('cho@lab.test', { note: note({ status: 'T', signatureList: list }) }))).toBe(false);
    expect(maySign(actor('ryu@lab.test', { note: note({ status: 'F', signatureList: list }) }))).toBe(false);
    expect(maySign(actor('ryu@lab.test', { note: note({ signatureList: list }), project: { ...project, status: 'C' } }))).toBe(false);
  });

  it('finds the caller’s own answer: signed before declined', () => {
    const signed = entry({ signatureId: 3, status: 'T', signedAt: '2026-11-22T01:05:00Z' });
    const declined = entry({ signatureId: 4, status: 'F' });
    expect(ownAnswerOf('ryu@lab.test', [declined, signed])?.signatureId).toBe(3);
    expect(ownAnswerOf('ryu@lab.test', [declined])?.signatureId).toBe(4);
    expect(ownAnswerOf('ryu@lab.test', [entry({})])).toBeNull();
  });

  it('creates a request on a note without live signatures, else updates it', () => {
    expect(requestPathFor([])).toBe('/v1/project/signature/create');
    expect(requestPathFor([entry({ status: 'F' })])).toBe('/v1/project/signature/update');
  });
});

describe('the request dialog', () => {
  const participants: ProjectParticipant[] = [
    { userNo: 1, userId: 'woo@lab.test', name: 'Writer Woo', departmentName: 'Chemistry' },
    { userNo: 2, userId: 'ryu@lab.test', name: 'Reviewer Ryu', departmentName: null },
    { userNo: 3, userId: 'cho@lab.test', name: 'Colleague Cho', departmentName: null },
  ];

  it('starts from the note: pending signers chosen with their meaning, answered ones fixed, outsiders flagged', () => {
    const list = [
      entry({ signatureId: 1, userId: 'ryu@lab.test', type: 'reviewer', status: 'T' }),
      entry({ signatureId: 2, userId: 'cho@lab.test', type: 'participant', status: 'R' }),
      entry({ signatureId: 3, userId: 'gone@lab.test', name: 'Gone Go', type: 'participant', status: 'R' }),
    ];
    const rows = signerChoices(participants, list);
    expect(rows.map((r) => [r.userId, r.chosen, r.answered?.signatureId ?? null, r.type, r.notParticipant])).toEqual([
      ['woo@lab.test', false, null, 'participant', false],
      ['ryu@lab.test', false, 1, 'reviewer', false],
      ['cho@lab.test', true, null, 'participant', false],
      ['gone@lab.test', true, null, 'participant', true],
    ]);
    // Only the pending or new choices are sent; answered signatures stay as they are.
    expect(chosenSigners(rows)).toEqual([
      { userId: 'cho@lab.test', type: 'participant' },
      { userId: 'gone@lab.test', type: 'participant' },
    ]);
  });

  it('suggests reviewer until someone is asked as reviewer (or has signed as one)', () => {
    const fresh = signerChoices(participants, []);
    expect(defaultMeaning(fresh)).toBe('reviewer');
    const withReviewer = fresh.map((r) => (r.userId === 'ryu@lab.test' ? { ...r, chosen: true, type: 'reviewer' as const } : r));
    expect(defaultMeaning(withReviewer)).toBe('participant');
    expect(defaultMeaning(signerChoices(participants, [entry({ status: 'T' })]))).toBe('participant');
    // A reviewer who declined does not count.
    expect(defaultMeaning(signerChoices(participants, [entry({ status: 'F' })]))).toBe('reviewer');
  });

  it('reads the user IDs a 2019 refusal names', () => {
    expect(notParticipantsOf({ notParticipants: ['a@x.test', 3, 'b@x.test'] })).toEqual(['a@x.test', 'b@x.test']);
    expect(notParticipantsOf(null)).toEqual([]);
    expect(notParticipantsOf({ other: true })).toEqual([]);
  });
});

describe('remembering which project a note belongs to', () => {
  it('reads what was stored, dropping anything malformed', () => {
    expect([...parseNoteProjects('[[5,2],[6,2],["x",1],[7],[-1,3],[8,0]]')]).toEqual([
      [5, 2],
      [6, 2],
    ]);
    expect(parseNoteProjects('{').size).toBe(0);
    expect(parseNoteProjects(null).size).toBe(0);
  });

  it('adds notes, newest last, and forgets the oldest beyond the limit', () => {
    const first = withNoteProjects(new Map(), 1, [1, 2, 3], 4);
    const next = withNoteProjects(first, 2, [1, 4, 5], 4);
    expect([...next]).toEqual([
      [3, 1],
      [1, 2],
      [4, 2],
      [5, 2],
    ]);
  });
});
