import { describe, expect, it } from 'vitest';
import { api, type NoteAbilities, type NoteSummary, type ProjectParticipant, type SignatureEntry } from '@eln/shared';
import {
  chosenSigners,
  defaultMeaning,
  notParticipantsOf,
  ownAnswerOf,
  panelActions,
  pendingSignatureOf,
  requestCallFor,
  signerChoices,
} from './signerChoices';
import { waitedFor } from './overviewTime';
import { formatZonedTime } from './zonedTime';

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
  timestamp: null,
  ...over,
});

const none: NoteAbilities = {
  write: false,
  delete: false,
  requestSignatures: false,
  sign: false,
  removeSignatures: false,
  exportPdf: false,
};
const note = (
  abilities: Partial<NoteAbilities>,
  signatureList: SignatureEntry[] = [],
): Pick<NoteSummary, 'abilities' | 'signatureList'> => ({
  abilities: { ...none, ...abilities },
  signatureList,
});

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

describe('what the signatures panel offers', () => {
  const list = [
    entry({ signatureId: 1, userId: 'ryu@lab.test' }),
    entry({ signatureId: 2, userId: 'cho@lab.test', status: 'T', type: 'participant' }),
  ];

  it('offers requesting and removing exactly when the note’s abilities say so', () => {
    expect(panelActions(note({}), 'woo@lab.test')).toEqual({ request: false, remove: false, pending: null });
    expect(panelActions(note({ requestSignatures: true }), 'woo@lab.test')).toMatchObject({ request: true, remove: false });
    expect(panelActions(note({ removeSignatures: true }, list), 'lee@lab.test')).toMatchObject({ request: false, remove: true });
  });

  it('offers no request on a signed note, whose abilities refuse it (the server decides; see docs/decisions.md)', () => {
    // The answer for a signed note's writer: the server's policy refuses further requests (2019).
    const signed = note({ requestSignatures: false, sign: false }, list);
    expect(panelActions(signed, 'woo@lab.test').request).toBe(false);
  });

  it('offers signing only with the ability and the caller’s own pending request', () => {
    expect(pendingSignatureOf('ryu@lab.test', list)?.signatureId).toBe(1);
    expect(pendingSignatureOf('cho@lab.test', list)).toBeNull();
    expect(panelActions(note({ sign: true }, list), 'ryu@lab.test').pending?.signatureId).toBe(1);
    // A pending entry without the ability (a finished note, a closed project) is not offered.
    expect(panelActions(note({ sign: false }, list), 'ryu@lab.test').pending).toBeNull();
    expect(panelActions(note({ sign: true }, list), 'cho@lab.test').pending).toBeNull();
  });

  it('finds the caller’s own answer: signed before declined', () => {
    const signed = entry({ signatureId: 3, status: 'T', signedAt: '2026-11-22T01:05:00Z' });
    const declined = entry({ signatureId: 4, status: 'F' });
    expect(ownAnswerOf('ryu@lab.test', [declined, signed])?.signatureId).toBe(3);
    expect(ownAnswerOf('ryu@lab.test', [declined])?.signatureId).toBe(4);
    expect(ownAnswerOf('ryu@lab.test', [entry({})])).toBeNull();
  });

  it('creates a request on a note without live signatures, else updates it', () => {
    expect(requestCallFor([])).toBe(api.signatures.request);
    expect(requestCallFor([entry({ status: 'F' })])).toBe(api.signatures.updateSigners);
  });
});

describe('the request dialog', () => {
  const participants: ProjectParticipant[] = [
    { userNo: 1, userId: 'woo@lab.test', name: 'Writer Woo', departmentCode: 'CHEM', departmentName: 'Chemistry' },
    { userNo: 2, userId: 'ryu@lab.test', name: 'Reviewer Ryu', departmentCode: null, departmentName: null },
    { userNo: 3, userId: 'cho@lab.test', name: 'Colleague Cho', departmentCode: null, departmentName: null },
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

  it('offers someone who wrote in the note only as participant, as the server excludes them as reviewer', () => {
    const rows = signerChoices(participants, [], ['woo@lab.test']);
    expect(rows.map((r) => [r.userId, r.reviewerExcluded])).toEqual([
      ['woo@lab.test', true],
      ['ryu@lab.test', false],
      ['cho@lab.test', false],
    ]);
    const writer = rows.find((r) => r.userId === 'woo@lab.test')!;
    expect(defaultMeaning(rows, writer)).toBe('participant');
    expect(
      defaultMeaning(
        rows,
        rows.find((r) => r.userId === 'ryu@lab.test'),
      ),
    ).toBe('reviewer');
  });

  it('reads the user IDs a 2019 refusal names', () => {
    expect(notParticipantsOf({ notParticipants: ['a@x.test', 3, 'b@x.test'] })).toEqual(['a@x.test', 'b@x.test']);
    expect(notParticipantsOf(null)).toEqual([]);
    expect(notParticipantsOf({ other: true })).toEqual([]);
  });
});

describe('the overview’s waiting time', () => {
  const now = Date.parse('2026-05-10T12:00:00Z');
  it('says the largest whole unit in the language, nothing under a minute', () => {
    expect(waitedFor('2026-05-07T11:00:00Z', now, 'en')).toBe('3 days');
    expect(waitedFor('2026-05-10T07:00:00Z', now, 'ko')).toBe('5시간');
    expect(waitedFor('2026-05-10T11:48:00Z', now, 'ja')).toBe('12 分');
    expect(waitedFor('2026-05-10T11:59:30Z', now, 'en')).toBeNull();
    expect(waitedFor('not a time', now, 'en')).toBeNull();
  });
});
