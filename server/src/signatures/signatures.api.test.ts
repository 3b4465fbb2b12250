import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import Papa from 'papaparse';
import { api, AUDIT_SYSTEM_REASONS, ERR, noteDocumentName, type ValidationErrorData } from '@eln/shared';
import { auditLog, labNotes, noteVersions } from '../db/schema.js';
import { startTestServer, type Caller, type TestServer, type TestPerson } from '../testing/harness.js';
import { appendParagraph, connectWriter, eventually, roundTrip, type LiveClient } from '../testing/live.js';

let server: TestServer;
let url: string;
type Person = TestPerson;
let leader: Person;
let writer: Person;
let reviewer: Person;
let colleague: Person;
let outsider: Person;
let admin: Caller;
let projectNo: number;
const clients: LiveClient[] = [];

const person = (name: string): Promise<Person> => server.person({ name });

beforeAll(async () => {
  server = await startTestServer();
  url = await server.listen();
  [leader, writer, reviewer, colleague, outsider] = (await Promise.all(
    ['Leader Lee', 'Writer Woo', 'Reviewer Ryu', 'Colleague Cho', 'Outsider Oh'].map(person),
  )) as [Person, Person, Person, Person, Person];
  admin = await server.as(server.admin);
  projectNo = (
    await leader.call(api.projects.create, {
      title: 'Signed work',
      signatureList: { department: '', user: [leader, writer, reviewer, colleague].map((p) => p.user.userId).join(',') },
    })
  ).body.data.projectNo;
});
afterEach(() => {
  for (const client of clients.splice(0)) client.destroy();
});
afterAll(async () => {
  await server?.stop();
});

/** A note by the writer with one saved version; answers its number and an open editor. */
async function savedNote(title: string, inProject = projectNo) {
  const { labNoteNo } = (await writer.call(api.notes.create, { projectNo: inProject, title })).body.data;
  const editor = await connectWriter(url, noteDocumentName(labNoteNo), writer.token);
  clients.push(editor);
  appendParagraph(editor.doc, `Result of ${title}`);
  await eventually(() => editor.allDurable(), 'durable');
  const saved = await writer.call(api.notes.saveVersion, { labNoteNo, version: 0, blockList: [] });
  expect(saved.body.status).toBe('0000');
  return { labNoteNo, editor };
}

const sign = (who: Person, labNoteNo: number, extra: Record<string, unknown> = {}) =>
  who.call(api.signatures.respond, {
    labNoteNo,
    status: 'T',
    password: who.user.password,
    name: who.user.name,
    timeZone: 'Asia/Seoul',
    ...extra,
  });

const noteOf = async (labNoteNo: number) => (await writer.call(api.notes.blockList, { labNoteNo })).body.data.note;
const lastAudit = async () => (await server.database.db.select().from(auditLog).orderBy(desc(auditLog.seq)).limit(1))[0];

describe('requesting signatures', () => {
  it('lets the writer request participants as reviewer or participant; the note moves W → R', async () => {
    const { labNoteNo } = await savedNote('Requested');
    const result = await writer.call(api.signatures.request, {
      labNoteNo,
      signers: [
        { userId: reviewer.user.userId, type: 'reviewer' },
        { userId: colleague.user.userId, type: 'participant' },
      ],
    });
    expect(result.body.status).toBe('0000');
    const note = await noteOf(labNoteNo);
    expect(note.status).toBe('R');
    expect(note.signatureList.map((s) => [s.name, s.type, s.status])).toEqual([
      ['Reviewer Ryu', 'reviewer', 'R'],
      ['Colleague Cho', 'participant', 'R'],
    ]);
    expect((await lastAudit())?.action).toBe('signature.requested');
  });

  it('refuses signers who are not participants (2019), and requests by others than the writer or leader', async () => {
    const { labNoteNo } = await savedNote('Wrong signers');
    const refused = await writer.call(api.signatures.request, {
      labNoteNo,
      signers: [{ userId: outsider.user.userId, type: 'reviewer' }],
    });
    expect(refused.body).toMatchObject({ status: ERR.signerModify, data: { notParticipants: [outsider.user.userId] } });
    expect(
      (await colleague.call(api.signatures.request, { labNoteNo, signers: [{ userId: reviewer.user.userId, type: 'reviewer' }] })).http,
    ).toBe(403);
    const badType = await writer.call<ValidationErrorData>(api.signatures.request.path, {
      labNoteNo,
      signers: [{ userId: reviewer.user.userId, type: 'approver' }],
    });
    expect(badType.http).toBe(400);
    expect((await noteOf(labNoteNo)).signatureList).toEqual([]);
  });

  it('updates pending signers: withdrawn ones go, types change, the note returns to W with none left', async () => {
    const { labNoteNo } = await savedNote('Updated signers');
    await writer.call(api.signatures.request, { labNoteNo, signers: [{ userId: reviewer.user.userId, type: 'participant' }] });
    await writer.call(api.signatures.updateSigners, {
      labNoteNo,
      signers: [
        { userId: reviewer.user.userId, type: 'reviewer' },
        { userId: colleague.user.userId, type: 'participant' },
      ],
    });
    expect((await noteOf(labNoteNo)).signatureList.map((s) => [s.userId, s.type])).toEqual([
      [reviewer.user.userId, 'reviewer'],
      [colleague.user.userId, 'participant'],
    ]);
    await writer.call(api.signatures.updateSigners, { labNoteNo, signers: [{ userId: colleague.user.userId, type: 'participant' }] });
    expect((await noteOf(labNoteNo)).signatureList.map((s) => s.userId)).toEqual([colleague.user.userId]);
  });
});

describe('a reviewer did not write the note', () => {
  it('refuses the writer as their own reviewer (2025), names them, stores nothing, and lets them sign as participant', async () => {
    const { labNoteNo } = await savedNote('Own review');
    const refused = await writer.call(api.signatures.request, {
      labNoteNo,
      signers: [{ userId: writer.user.userId, type: 'reviewer' }],
    });
    expect(refused.http).toBe(422);
    expect(refused.body).toMatchObject({ status: ERR.reviewerWrote, data: { writers: [writer.user.userId] } });
    expect(refused.body.message).toContain('Writer Woo');
    expect((await noteOf(labNoteNo)).signatureList).toEqual([]);
    expect((await noteOf(labNoteNo)).reviewersExcluded).toEqual([writer.user.userId]);
    const asParticipant = await writer.call(api.signatures.request, {
      labNoteNo,
      signers: [
        { userId: writer.user.userId, type: 'participant' },
        { userId: reviewer.user.userId, type: 'reviewer' },
      ],
    });
    expect(asParticipant.body.status).toBe('0000');
    // Nor can the writer be switched to reviewer by an update.
    const switched = await writer.call(api.signatures.updateSigners, {
      labNoteNo,
      signers: [{ userId: writer.user.userId, type: 'reviewer' }],
    });
    expect(switched.body.status).toBe(ERR.reviewerWrote);
    expect((await noteOf(labNoteNo)).signatureList.map((s) => [s.userId, s.type])).toEqual([
      [writer.user.userId, 'participant'],
      [reviewer.user.userId, 'reviewer'],
    ]);
  });

  it('counts everyone who wrote in the note live, not only its creator', async () => {
    const { labNoteNo } = await savedNote('Co-written');
    const coEditor = await connectWriter(url, noteDocumentName(labNoteNo), colleague.token);
    clients.push(coEditor);
    appendParagraph(coEditor.doc, 'A line by the colleague');
    await eventually(() => coEditor.allDurable(), 'durable');
    await eventually(
      async () => (await noteOf(labNoteNo)).reviewersExcluded.includes(colleague.user.userId),
      'the colleague recorded as a writer',
    );
    const refused = await leader.call(api.signatures.request, {
      labNoteNo,
      signers: [{ userId: colleague.user.userId, type: 'reviewer' }],
    });
    expect(refused.body).toMatchObject({ status: ERR.reviewerWrote, data: { writers: [colleague.user.userId] } });
    // Reading the note live writes nothing, so a reader remains a possible reviewer.
    const reader = await connectWriter(url, noteDocumentName(labNoteNo), reviewer.token);
    clients.push(reader);
    await roundTrip(reader, coEditor);
    expect((await noteOf(labNoteNo)).reviewersExcluded.sort()).toEqual([writer.user.userId, colleague.user.userId].sort());
  });

  it('refuses the signature of a reviewer who wrote in the note after the request', async () => {
    const { labNoteNo } = await savedNote('Written after request');
    await writer.call(api.signatures.request, { labNoteNo, signers: [{ userId: reviewer.user.userId, type: 'reviewer' }] });
    const edit = await connectWriter(url, noteDocumentName(labNoteNo), reviewer.token);
    clients.push(edit);
    appendParagraph(edit.doc, 'The reviewer adds a line');
    await eventually(() => edit.allDurable(), 'durable');
    await eventually(
      async () => (await noteOf(labNoteNo)).reviewersExcluded.includes(reviewer.user.userId),
      'the reviewer recorded as a writer',
    );
    // Their line is saved, so the only reason left to refuse is that they wrote in it.
    expect((await writer.call(api.notes.saveVersion, { labNoteNo, version: 1, blockList: [] })).body.status).toBe('0000');
    edit.destroy();
    const refused = await sign(reviewer, labNoteNo);
    expect(refused.body.status).toBe(ERR.reviewerWrote);
    expect((await noteOf(labNoteNo)).signatureList.map((s) => s.status)).toEqual(['R']);
  });
});

describe('signing', () => {
  it('refuses a missing password, a wrong one (audited), and someone without a pending signature', async () => {
    const { labNoteNo } = await savedNote('Refusals');
    await writer.call(api.signatures.request, { labNoteNo, signers: [{ userId: reviewer.user.userId, type: 'reviewer' }] });
    const noPassword = await reviewer.call<ValidationErrorData>(api.signatures.respond.path, { labNoteNo, status: 'T', name: 'Ryu' });
    expect(noPassword.body.data.fields).toMatchObject([{ field: 'password', reason: 'required' }]);
    const noName = await reviewer.call<ValidationErrorData>(api.signatures.respond.path, {
      labNoteNo,
      status: 'T',
      password: reviewer.user.password,
      name: ' ',
    });
    expect(noName.body.data.fields).toMatchObject([{ field: 'name', reason: 'required' }]);
    const wrong = await sign(reviewer, labNoteNo, { password: 'not my password' });
    expect(wrong.body.status).toBe(ERR.badCredentials);
    expect(await lastAudit()).toMatchObject({ action: 'signature.failed', actorUserId: reviewer.user.userId, reason: 'wrong password' });
    // Someone else cannot answer the reviewer's request.
    expect((await sign(colleague, labNoteNo)).body.status).toBe(ERR.noPendingSignature);
    expect((await sign(outsider, labNoteNo)).body.status).toBe(ERR.noteMissing);
    expect((await noteOf(labNoteNo)).status).toBe('R');
  });

  it('locks signing after repeated wrong passwords, like sign-in', async () => {
    const guesser = await person('Guesser Go');
    await leader.call(api.projects.update, {
      projectNo,
      signatureList: { department: '', user: [leader, writer, reviewer, colleague, guesser].map((p) => p.user.userId).join(',') },
    });
    const { labNoteNo } = await savedNote('Guessing');
    await writer.call(api.signatures.request, { labNoteNo, signers: [{ userId: guesser.user.userId, type: 'participant' }] });
    const statuses: string[] = [];
    for (let i = 0; i < server.config.throttle.accountLockAfter; i += 1)
      statuses.push((await sign(guesser, labNoteNo, { password: `guess ${i}` })).body.status);
    expect(statuses.slice(0, -1).every((s) => s === ERR.badCredentials)).toBe(true);
    expect(statuses.at(-1)).toBe(ERR.tooManyAttempts);
    expect((await sign(guesser, labNoteNo)).body.status).toBe(ERR.tooManyAttempts);
  });

  it('refuses to sign a note with unsaved changes or no saved version (2021)', async () => {
    const { labNoteNo, editor } = await savedNote('Unsaved');
    await writer.call(api.signatures.request, { labNoteNo, signers: [{ userId: reviewer.user.userId, type: 'reviewer' }] });
    appendParagraph(editor.doc, 'typed after saving');
    await eventually(() => editor.allDurable(), 'durable');
    expect((await sign(reviewer, labNoteNo)).body.status).toBe(ERR.unsavedChanges);
    const { labNoteNo: empty } = (await writer.call(api.notes.create, { projectNo, title: 'Never saved' })).body.data;
    await writer.call(api.signatures.request, { labNoteNo: empty, signers: [{ userId: reviewer.user.userId, type: 'reviewer' }] });
    expect((await sign(reviewer, empty)).body.status).toBe(ERR.unsavedChanges);
  });

  it('binds the signature to the saved version and its hash, locks the note, and turns open editors read-only at once', async () => {
    const { labNoteNo, editor } = await savedNote('To be signed');
    const colleagueEditor = await connectWriter(url, noteDocumentName(labNoteNo), colleague.token);
    clients.push(colleagueEditor);
    await writer.call(api.signatures.request, { labNoteNo, signers: [{ userId: reviewer.user.userId, type: 'reviewer' }] });
    const [version] = await server.database.db
      .select()
      .from(noteVersions)
      .where(and(eq(noteVersions.noteNo, labNoteNo), eq(noteVersions.version, 1)));

    const signed = await sign(reviewer, labNoteNo, { description: 'Reviewed the raw data.' });
    expect(signed.body.status).toBe('0000');
    const note = await noteOf(labNoteNo);
    expect(note.status).toBe('T');
    expect(note.abilities.write).toBe(false);
    expect(note.signatureList).toMatchObject([
      {
        name: 'Reviewer Ryu',
        type: 'reviewer',
        status: 'T',
        signatureName: 'Reviewer Ryu',
        description: 'Reviewed the raw data.',
        timeZone: 'Asia/Seoul',
        signedVersion: 1,
        intact: true,
      },
    ]);
    expect(Date.parse(note.signatureList[0]!.signedAt!)).toBeGreaterThan(Date.now() - 60_000);
    expect(await lastAudit()).toMatchObject({
      action: 'signature.signed',
      after: { meaning: 'reviewer', version: 1, blocksHash: version?.blocksHash },
    });

    // Both open editors are told at once, and their edits no longer land.
    await eventually(
      () => editor.stateless().some((m) => (m as { type?: string }).type === 'hold-ended'),
      'the writer’s editor to turn read-only',
    );
    await eventually(
      () => colleagueEditor.stateless().some((m) => (m as { type?: string }).type === 'hold-ended'),
      'the colleague’s editor to turn read-only',
    );
    appendParagraph(editor.doc, 'after signing');
    await roundTrip(editor, colleagueEditor);
    const blocks = (await writer.call(api.notes.blockList, { labNoteNo })).body.data;
    expect(blocks.changed).toBe(false);

    // REST refuses too, and the record is as it was.
    expect((await writer.call(api.notes.saveDraft, { labNoteNo, blockList: [] })).http).toBe(403);
    expect((await writer.call(api.notes.saveVersion, { labNoteNo, version: 1, blockList: [] })).http).toBe(403);
    expect((await writer.call(api.notes.delete, { labNoteNo })).body.status).toBe(ERR.noteDeleted);
    const [row] = await server.database.db.select().from(labNotes).where(eq(labNotes.noteNo, labNoteNo));
    expect(row).toMatchObject({ version: 1, status: 'T', deletedAt: null });
  });

  it('shows a changed signed version as broken, and refuses to sign a tampered version (2024)', async () => {
    const { labNoteNo } = await savedNote('Tampered');
    await writer.call(api.signatures.request, {
      labNoteNo,
      signers: [
        { userId: reviewer.user.userId, type: 'reviewer' },
        { userId: colleague.user.userId, type: 'participant' },
      ],
    });
    await sign(reviewer, labNoteNo);
    const [version] = await server.database.db.select().from(noteVersions).where(eq(noteVersions.noteNo, labNoteNo));
    const blocks = version!.blocks as Array<{ content: string }>;
    blocks[0]!.content = blocks[0]!.content.replace('Result', 'Forged result');
    await server.database.db
      .update(noteVersions)
      .set({ blocks })
      .where(and(eq(noteVersions.noteNo, labNoteNo), eq(noteVersions.version, 1)));
    const note = await noteOf(labNoteNo);
    expect(note.signatureList.find((s) => s.type === 'reviewer')?.intact).toBe(false);
    expect((await sign(colleague, labNoteNo)).body.status).toBe(ERR.versionTampered);
  });

  it('records a decline, and warns when all signers have signed but no reviewer has', async () => {
    const { labNoteNo } = await savedNote('Participants only');
    await writer.call(api.signatures.request, { labNoteNo, signers: [{ userId: colleague.user.userId, type: 'participant' }] });
    await sign(colleague, labNoteNo);
    const { needsReviewerWarning } = await import('@eln/shared');
    expect(needsReviewerWarning((await noteOf(labNoteNo)).signatureList)).toBe(true);

    const { labNoteNo: other } = await savedNote('Declined');
    await writer.call(api.signatures.request, { labNoteNo: other, signers: [{ userId: reviewer.user.userId, type: 'reviewer' }] });
    const declined = await reviewer.call(api.signatures.respond, {
      labNoteNo: other,
      status: 'F',
      password: reviewer.user.password,
      name: 'Ryu',
      description: 'Data incomplete',
    });
    expect(declined.body.status).toBe('0000');
    const note = await noteOf(other);
    expect(note.signatureList[0]).toMatchObject({ status: 'F', description: 'Data incomplete' });
    expect(note.status).toBe('W');
    expect(await lastAudit()).toMatchObject({ action: 'signature.declined' });
  });
});

describe('removing signatures', () => {
  it('is the leader’s alone, needs a reason, is audited, and unlocks the note when none is left', async () => {
    const { labNoteNo } = await savedNote('Removal');
    await writer.call(api.signatures.request, { labNoteNo, signers: [{ userId: reviewer.user.userId, type: 'reviewer' }] });
    await sign(reviewer, labNoteNo);
    const signatureId = (await noteOf(labNoteNo)).signatureList[0]!.signatureId;
    expect((await writer.call(api.signatures.remove, { labNoteNo, signatureId, reason: 'mine' })).http).toBe(403);
    expect((await admin(api.signatures.remove, { labNoteNo, signatureId, reason: 'admin' })).http).toBe(403);
    const noReason = await leader.call<ValidationErrorData>(api.signatures.remove.path, { labNoteNo, signatureId, reason: '' });
    expect(noReason.body.data.fields).toMatchObject([{ field: 'reason', reason: 'required' }]);
    expect((await noteOf(labNoteNo)).status).toBe('T');

    expect((await leader.call(api.signatures.remove, { labNoteNo, signatureId, reason: 'Signed the wrong version' })).body.status).toBe(
      '0000',
    );
    const note = await noteOf(labNoteNo);
    expect(note.status).toBe('W');
    expect(note.signatureList).toEqual([]);
    expect(note.abilities.write).toBe(true);
    expect(await lastAudit()).toMatchObject({
      action: 'signature.removed',
      reason: 'Signed the wrong version',
      before: { signer: reviewer.user.userId, status: 'T' },
    });
  });
});

describe('closing the project', () => {
  it('needs a reviewer’s signature, is the leader’s, then makes everything read-only and moves the counts', async () => {
    const own = await leader.call(api.projects.create, {
      title: 'To be closed',
      signatureList: { department: '', user: [writer, reviewer].map((p) => p.user.userId).join(',') },
    });
    const closingNo = own.body.data.projectNo;
    const { labNoteNo } = (await writer.call(api.notes.create, { projectNo: closingNo, title: 'Final note' })).body.data;
    const editor = await connectWriter(url, noteDocumentName(labNoteNo), writer.token);
    clients.push(editor);
    appendParagraph(editor.doc, 'Conclusion');
    await eventually(() => editor.allDurable(), 'durable');
    await writer.call(api.notes.saveVersion, { labNoteNo, version: 0, blockList: [] });
    await writer.call(api.signatures.request, { labNoteNo, signers: [{ userId: reviewer.user.userId, type: 'participant' }] });

    const blockedBy = async (who: Person) => (await who.call(api.projects.detail, { projectNo: closingNo })).body.data.finishBlockedBy;
    expect(await blockedBy(leader)).toBe('noReviewerSignature');
    // Only the one who may close is told what stands in the way.
    expect(await blockedBy(writer)).toBeNull();
    expect((await leader.call(api.projects.finish, { projectNo: closingNo })).body.status).toBe(ERR.noReviewerSignature);
    await sign(reviewer, labNoteNo);
    // A participant's signature is not a reviewer's.
    expect((await leader.call(api.projects.finish, { projectNo: closingNo })).body.status).toBe(ERR.noReviewerSignature);
    const signatureId = (await noteOf(labNoteNo)).signatureList[0]!.signatureId;
    await leader.call(api.signatures.remove, { labNoteNo, signatureId, reason: 'needs a reviewer' });
    await writer.call(api.signatures.request, { labNoteNo, signers: [{ userId: reviewer.user.userId, type: 'reviewer' }] });
    await sign(reviewer, labNoteNo);
    expect(await blockedBy(leader)).toBeNull();

    const before = (await leader.call(api.dashboard.counts)).body.data;
    expect(before.closable).toBeGreaterThanOrEqual(1);
    expect((await writer.call(api.projects.finish, { projectNo: closingNo })).http).toBe(403);
    expect((await leader.call(api.projects.finish, { projectNo: closingNo })).body.status).toBe('0000');
    const after = (await leader.call(api.dashboard.counts)).body.data;
    expect(after).toMatchObject({ closable: before.closable - 1, closed: before.closed + 1, ongoing: before.ongoing - 1 });
    expect(await lastAudit()).toMatchObject({ action: 'project.finished', before: { status: 'ING' }, after: { status: 'C', notes: 1 } });

    const editorAnswer = (await leader.call(api.projects.editor, { projectNo: closingNo })).body.data;
    expect(editorAnswer.info.status).toBe('C');
    expect(editorAnswer.list.map((n) => [n.status, n.abilities.write])).toEqual([['F', false]]);
    const refusals = await Promise.all([
      leader.call(api.projects.finish, { projectNo: closingNo }),
      leader.call(api.projects.update, {
        projectNo: closingNo,
        title: 'Reopen',
        signatureList: { department: '', user: writer.user.userId },
      }),
      writer.call(api.notes.create, { projectNo: closingNo, title: 'Late note' }),
      writer.call(api.notes.saveDraft, { labNoteNo, blockList: [] }),
      writer.call(api.signatures.request, { labNoteNo, signers: [{ userId: reviewer.user.userId, type: 'participant' }] }),
      leader.call(api.signatures.remove, { labNoteNo, signatureId: 1, reason: 'x' }),
    ]);
    expect(refusals.map((r) => r.body.status)).toEqual([
      ERR.projectModify,
      ERR.projectModify,
      ERR.projectClosed,
      ERR.forbidden,
      ERR.projectClosed,
      ERR.projectClosed,
    ]);
  });

  it('shows the leader what closing leaves unfinished, cancels the pending requests at close (audited, shown as such), and still closes', async () => {
    const own = await leader.call(api.projects.create, {
      title: 'Closed with loose ends',
      signatureList: { department: '', user: [writer, reviewer, colleague].map((p) => p.user.userId).join(',') },
    });
    const closingNo = own.body.data.projectNo;
    // Signed by the reviewer, the colleague's participation still pending.
    const signedNote = await savedNote('Signed, one pending', closingNo);
    await writer.call(api.signatures.request, {
      labNoteNo: signedNote.labNoteNo,
      signers: [
        { userId: reviewer.user.userId, type: 'reviewer' },
        { userId: colleague.user.userId, type: 'participant' },
      ],
    });
    expect((await sign(reviewer, signedNote.labNoteNo)).body.status).toBe('0000');
    const requestedNote = await savedNote('Only requested', closingNo);
    await writer.call(api.signatures.request, {
      labNoteNo: requestedNote.labNoteNo,
      signers: [{ userId: colleague.user.userId, type: 'participant' }],
    });
    const neverSaved = (await writer.call(api.notes.create, { projectNo: closingNo, title: 'Never saved' })).body.data.labNoteNo;
    // Saved once, then changed: the temporary save holds what version 1 does not.
    const changed = await savedNote('Changed after saving', closingNo);
    appendParagraph(changed.editor.doc, 'A later thought');
    await eventually(() => changed.editor.allDurable(), 'durable');
    expect((await writer.call(api.notes.saveDraft, { labNoteNo: changed.labNoteNo, blockList: [] })).body.status).toBe('0000');
    const numberOf = async (labNoteNo: number) => (await noteOf(labNoteNo)).labNoteNumber;

    const preview = await leader.call(api.projects.closePreview, { projectNo: closingNo });
    expect(preview.body.status).toBe('0000');
    expect(preview.body.data.pendingSignatures.map((p) => [p.labNoteNo, p.labNoteNumber, p.title, p.userId, p.name, p.type])).toEqual([
      [
        signedNote.labNoteNo,
        await numberOf(signedNote.labNoteNo),
        'Signed, one pending',
        colleague.user.userId,
        'Colleague Cho',
        'participant',
      ],
      [
        requestedNote.labNoteNo,
        await numberOf(requestedNote.labNoteNo),
        'Only requested',
        colleague.user.userId,
        'Colleague Cho',
        'participant',
      ],
    ]);
    expect(preview.body.data.unsavedNotes.map((n) => [n.labNoteNo, n.title, n.version, n.writer, n.reason])).toEqual([
      [neverSaved, 'Never saved', 0, 'Writer Woo', 'neverSaved'],
      [changed.labNoteNo, 'Changed after saving', 1, 'Writer Woo', 'changedSinceSave'],
    ]);
    // Only the one who may close is shown it: not a participant, not an administrator, and no one outside.
    expect((await writer.call(api.projects.closePreview, { projectNo: closingNo })).body.status).toBe(ERR.forbidden);
    expect((await admin(api.projects.closePreview, { projectNo: closingNo })).body.status).toBe(ERR.forbidden);
    expect((await outsider.call(api.projects.closePreview, { projectNo: closingNo })).body.status).toBe(ERR.notFound);

    // The leader goes ahead all the same.
    const closedAt = Date.now();
    expect((await leader.call(api.projects.finish, { projectNo: closingNo })).body.status).toBe('0000');
    const cancelled = (labNoteNo: number) =>
      noteOf(labNoteNo).then((note) =>
        // A cancelled request's time is the close's; a signature keeps its own (earlier, however slow the run).
        note.signatureList.map((s) => [
          s.name,
          s.status,
          s.signedAt !== null && (s.status !== 'C' || Date.parse(s.signedAt) >= closedAt - 1000),
        ]),
      );
    expect(await cancelled(signedNote.labNoteNo)).toEqual([
      ['Reviewer Ryu', 'T', true],
      ['Colleague Cho', 'C', true],
    ]);
    expect(await cancelled(requestedNote.labNoteNo)).toEqual([['Colleague Cho', 'C', true]]);
    // The project's note list says the same.
    const listed = (await leader.call(api.projects.editor, { projectNo: closingNo })).body.data.list;
    expect(listed.find((n) => n.no === requestedNote.labNoteNo)?.signatureList.map((s) => s.status)).toEqual(['C']);
    // Each cancellation is a record of its own, with the reason the system gives, after the close's.
    const records = await server.database.db.select().from(auditLog).orderBy(desc(auditLog.seq)).limit(3);
    expect(records.reverse().map((r) => [r.action, r.targetId, r.reason, r.actorUserId])).toEqual([
      ['project.finished', String(closingNo), null, leader.user.userId],
      ['signature.cancelled', String(signedNote.labNoteNo), AUDIT_SYSTEM_REASONS.projectClosed, leader.user.userId],
      ['signature.cancelled', String(requestedNote.labNoteNo), AUDIT_SYSTEM_REASONS.projectClosed, leader.user.userId],
    ]);
    expect(records[0]?.after).toMatchObject({ status: 'C', notes: 4, cancelledSignatures: 2 });
    expect(records[1]).toMatchObject({
      before: { signer: colleague.user.userId, meaning: 'participant', status: 'R' },
      after: { status: 'C', project: closingNo },
    });
    // Nobody can answer a cancelled request, and there is nothing left to preview.
    expect((await sign(colleague, requestedNote.labNoteNo)).body.status).toBe(ERR.projectClosed);
    expect((await leader.call(api.projects.closePreview, { projectNo: closingNo })).body.status).toBe(ERR.projectModify);
  });
});

describe('the audit trail for administrators', () => {
  it('lists with filters, opens a record, and exports CSV (itself audited)', async () => {
    const signedList = await admin(api.audit.list, { action: 'signature.signed', pageSize: 100 });
    expect(signedList.body.data.totalCount).toBeGreaterThanOrEqual(3);
    expect(signedList.body.data.list.every((r) => r.action === 'signature.signed')).toBe(true);
    expect(new Set(signedList.body.data.list.map((r) => r.actorName))).toEqual(new Set(['Reviewer Ryu', 'Colleague Cho']));
    const byActor = await admin(api.audit.list, { actor: 'Leader Lee', pageSize: 100 });
    expect(byActor.body.data.list.every((r) => r.actorUserId === leader.user.userId)).toBe(true);
    const first = signedList.body.data.list[0]!;
    const detail = await admin(api.audit.detail, { seq: first.seq });
    // A record whose target is no deleted note answers no deleted note.
    expect(detail.body.data).toEqual({ ...first, deletedNote: null });
    expect((await admin(api.audit.detail, { seq: 9_999_999 })).http).toBe(404);
    expect((await leader.call(api.audit.list, {})).http).toBe(403);
    expect((await admin<ValidationErrorData>(api.audit.list.path, { startDate: '2026-02-02', endDate: '2026-02-01' })).http).toBe(400);

    const { accessToken } = await server.signIn(server.admin.userId, server.admin.password);
    const exported = await server.app.inject({
      method: 'POST',
      url: `/server${api.audit.exportCsv.path}`,
      payload: { action: 'signature.signed' },
      headers: { authorization: `Bearer ${accessToken}` },
    });
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-type']).toContain('text/csv');
    const parsed = Papa.parse<Record<string, string>>(exported.body.replace(/^\uFEFF/, '').trim(), { header: true, comments: '#' });
    expect(parsed.data.length).toBe(signedList.body.data.totalCount);
    expect(parsed.data.every((row) => row.action === 'signature.signed' && /^[0-9a-f]{64}$/.test(row.hash ?? ''))).toBe(true);
    expect(await lastAudit()).toMatchObject({ action: 'audit.exported', after: { records: signedList.body.data.totalCount } });
  });
});

describe('the leader takes part in their own project', () => {
  it('is offered and accepted as a signer without being listed; people listed elsewhere are still refused (2019)', async () => {
    const created = await leader.call(api.projects.create, {
      title: `Unlisted leader ${Date.now() % 100000}`,
      signatureList: { department: '', user: writer.user.userId },
    });
    const ownProject = created.body.data.projectNo;
    const detail = (await writer.call(api.projects.editor, { projectNo: ownProject })).body.data.info;
    expect(detail.participants.map((p) => p.userId)).toEqual([writer.user.userId]);
    expect(detail.members.map((p) => p.userId)).toEqual([leader.user.userId, writer.user.userId]);
    const { labNoteNo } = await savedNote('Leader reviews', ownProject);
    const notListedHere = await writer.call(api.signatures.request, {
      labNoteNo,
      signers: [{ userId: reviewer.user.userId, type: 'reviewer' }],
    });
    expect(notListedHere.body).toMatchObject({ status: ERR.signerModify, data: { notParticipants: [reviewer.user.userId] } });
    const requested = await writer.call(api.signatures.request, {
      labNoteNo,
      signers: [{ userId: leader.user.userId, type: 'reviewer' }],
    });
    expect(requested.body.status).toBe('0000');
    expect((await sign(leader, labNoteNo)).body.status).toBe('0000');
    expect((await noteOf(labNoteNo)).signatureList).toMatchObject([{ userId: leader.user.userId, type: 'reviewer', status: 'T' }]);
  });
});
