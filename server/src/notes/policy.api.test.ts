import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { api, ERR, noteDocumentName, type NoteAbilities, type ProjectAbilities } from '@eln/shared';
import { startTestServer, type NewUser, type TestServer, type TestPerson } from '../testing/harness.js';
import { appendParagraph, connectWriter, eventually, type LiveClient } from '../testing/live.js';

/*
 * The abilities in the answers are the verdicts the routes then enforce: what an answer says the caller
 * may not do is refused with the policy's code, and what it says they may do goes through.
 */

let server: TestServer;
let url: string;
type Person = TestPerson;
let leader: Person;
let writer: Person;
let colleague: Person;
let reviewer: Person;
let outsider: Person;
let admin: Person;
let projectNo: number;
const clients: LiveClient[] = [];

const person = (user: NewUser & { userNo: number }): Promise<Person> => server.signedIn(user);

beforeAll(async () => {
  server = await startTestServer();
  url = await server.listen();
  const users = await Promise.all(
    ['Leader Lee', 'Writer Woo', 'Colleague Cho', 'Reviewer Ryu', 'Outsider Oh'].map((name) => server.createUser({ name })),
  );
  [leader, writer, colleague, reviewer, outsider] = (await Promise.all(users.map(person))) as [Person, Person, Person, Person, Person];
  const { accessToken } = await server.signIn(server.admin.userId, server.admin.password);
  admin = {
    user: { ...server.admin, userNo: 0 } as Person['user'],
    token: accessToken,
    call: server.callerWith(accessToken),
  };
  // The leader is not listed as a participant: they read the notes and sign nothing.
  const created = await leader.call(api.projects.create, {
    title: 'Abilities',
    signatureList: { department: '', user: [writer, colleague, reviewer].map((p) => p.user.userId).join(',') },
  });
  projectNo = created.body.data.projectNo;
});
afterEach(() => {
  for (const client of clients.splice(0)) client.destroy();
});
afterAll(async () => {
  await server?.stop();
});

async function savedNote(title: string): Promise<number> {
  const { labNoteNo } = (await writer.call(api.notes.create, { projectNo, title })).body.data;
  const editor = await connectWriter(url, noteDocumentName(labNoteNo), writer.token);
  clients.push(editor);
  appendParagraph(editor.doc, `Result of ${title}`);
  await eventually(() => editor.allDurable(), 'durable');
  expect((await writer.call(api.notes.saveVersion, { labNoteNo, version: 0, blockList: [] })).body.status).toBe('0000');
  return labNoteNo;
}

const noteAbilitiesOf = async (who: Person, labNoteNo: number): Promise<NoteAbilities> => {
  const answer = await who.call(api.notes.blockList, { labNoteNo });
  expect(answer.body.status).toBe('0000');
  return answer.body.data.note.abilities;
};

/** The same verdicts on the project's note list as on the note's own answer. */
const listedAbilitiesOf = async (who: Person, labNoteNo: number): Promise<NoteAbilities | undefined> =>
  (await who.call(api.projects.editor, { projectNo })).body.data.list.find((n) => n.no === labNoteNo)?.abilities;

const projectAbilitiesOf = async (who: Person): Promise<ProjectAbilities> => {
  const check = (await who.call(api.projects.detail, { projectNo })).body.data;
  const row = (await who.call(api.projects.list, { page: 1, pageSize: 100 })).body.data.list.find((p) => p.no === projectNo);
  expect(row?.abilities).toEqual(check.abilities);
  return check.abilities;
};

const sign = (who: Person, labNoteNo: number) =>
  who.call(api.signatures.respond, {
    labNoteNo,
    status: 'T',
    password: who.user.password,
    name: who.user.name,
    timeZone: 'Asia/Seoul',
  });

describe('note abilities and the routes', () => {
  it('says what each caller may do, and the routes refuse exactly what it denies', async () => {
    const labNoteNo = await savedNote('Who may');
    const request = (who: Person) =>
      who.call(api.signatures.request, { labNoteNo, signers: [{ userId: reviewer.user.userId, type: 'reviewer' }] });

    // A participant who is not the writer: writes, but neither deletes nor requests nor removes.
    const colleagueMay = await noteAbilitiesOf(colleague, labNoteNo);
    expect(colleagueMay).toEqual({
      write: true,
      delete: false,
      requestSignatures: false,
      sign: false,
      removeSignatures: false,
      exportPdf: true,
    });
    expect(await listedAbilitiesOf(colleague, labNoteNo)).toEqual(colleagueMay);
    expect((await colleague.call(api.notes.saveDraft, { labNoteNo, blockList: [] })).body.status).toBe('0000');
    expect((await colleague.call(api.notes.delete, { labNoteNo })).body.status).toBe(ERR.forbidden);
    expect((await request(colleague)).body.status).toBe(ERR.forbidden);
    expect((await colleague.call(api.signatures.remove, { labNoteNo, signatureId: 1, reason: 'x' })).body.status).toBe(ERR.forbidden);
    expect((await sign(colleague, labNoteNo)).body.status).toBe(ERR.noPendingSignature);

    // The leader, not listed as a participant, takes part all the same: writes, deletes, requests and removes.
    const leaderMay = await noteAbilitiesOf(leader, labNoteNo);
    expect(leaderMay).toEqual({ write: true, delete: true, requestSignatures: true, sign: false, removeSignatures: true, exportPdf: true });
    expect(await listedAbilitiesOf(leader, labNoteNo)).toEqual(leaderMay);
    expect((await leader.call(api.notes.saveDraft, { labNoteNo, blockList: [] })).body.status).toBe('0000');

    // An administrator deletes, and nothing else.
    expect(await noteAbilitiesOf(admin, labNoteNo)).toEqual({
      write: false,
      delete: true,
      requestSignatures: false,
      sign: false,
      removeSignatures: false,
      exportPdf: true,
    });
    expect((await request(admin)).body.status).toBe(ERR.forbidden);
    expect((await admin.call(api.notes.saveDraft, { labNoteNo, blockList: [] })).body.status).toBe(ERR.forbidden);

    // Someone outside the project gets no answer to read abilities from: the note does not exist for them.
    expect((await outsider.call(api.notes.blockList, { labNoteNo })).body.status).toBe(ERR.noteMissing);
    expect((await request(outsider)).body.status).toBe(ERR.noteMissing);

    // The writer may request; once requested, the signer may sign.
    expect(await noteAbilitiesOf(writer, labNoteNo)).toEqual({
      write: true,
      delete: true,
      requestSignatures: true,
      sign: false,
      removeSignatures: false,
      exportPdf: true,
    });
    expect((await request(writer)).body.status).toBe('0000');
    expect((await noteAbilitiesOf(reviewer, labNoteNo)).sign).toBe(true);
  });
});

describe('project abilities and the routes', () => {
  it('says on the check and on list rows what each caller may do, and the routes refuse what it denies', async () => {
    const colleagueMay = await projectAbilitiesOf(colleague);
    expect(colleagueMay).toEqual({ modify: false, finish: false, createNote: true, clearHolds: false, export: true, webhooks: false });
    const members = { department: '', user: [writer, colleague, reviewer].map((p) => p.user.userId).join(',') };
    expect((await colleague.call(api.projects.update, { projectNo, signatureList: members })).body.status).toBe(ERR.forbidden);
    expect((await colleague.call(api.projects.finish, { projectNo })).body.status).toBe(ERR.forbidden);
    expect((await colleague.call(api.notes.releaseProjectHolds, { projectNo })).body.status).toBe(ERR.forbidden);

    const leaderMay = await projectAbilitiesOf(leader);
    expect(leaderMay).toEqual({ modify: true, finish: true, createNote: true, clearHolds: true, export: true, webhooks: true });
    expect((await admin.call(api.notes.create, { projectNo, title: 'By the admin' })).body.status).toBe(ERR.forbidden);
    // Allowed by the policy; the record's own precondition (a reviewer's signature) answers next.
    expect((await leader.call(api.projects.finish, { projectNo })).body.status).toBe(ERR.noReviewerSignature);

    const adminMay = await projectAbilitiesOf(admin);
    expect(adminMay).toEqual({ modify: true, finish: false, createNote: false, clearHolds: true, export: true, webhooks: true });
    expect((await admin.call(api.projects.finish, { projectNo })).body.status).toBe(ERR.forbidden);
    expect((await admin.call(api.projects.update, { projectNo, signatureList: members })).body.status).toBe('0000');

    expect((await outsider.call(api.projects.detail, { projectNo })).body.status).toBe(ERR.notFound);
    expect((await outsider.call(api.projects.list, { page: 1, pageSize: 100 })).body.data.list.some((p) => p.no === projectNo)).toBe(false);
  });
});

describe('requesting signatures on a signed note (docs/decisions.md)', () => {
  it('is refused (2019) to the writer and the leader alike; pending requests are still answered; the leader’s removal reopens it', async () => {
    const labNoteNo = await savedNote('Signed record');
    await writer.call(api.signatures.request, {
      labNoteNo,
      signers: [
        { userId: reviewer.user.userId, type: 'reviewer' },
        { userId: colleague.user.userId, type: 'participant' },
      ],
    });
    expect((await sign(reviewer, labNoteNo)).body.status).toBe('0000');
    const signed = (await writer.call(api.notes.blockList, { labNoteNo })).body.data.note;
    expect(signed.status).toBe('T');

    for (const who of [writer, leader]) {
      expect((await noteAbilitiesOf(who, labNoteNo)).requestSignatures, who.user.name).toBe(false);
      const more = await who.call(api.signatures.request, {
        labNoteNo,
        signers: [{ userId: writer.user.userId, type: 'participant' }],
      });
      expect(more.body.status, who.user.name).toBe(ERR.signerModify);
      const withdraw = await who.call(api.signatures.updateSigners, {
        labNoteNo,
        signers: [{ userId: reviewer.user.userId, type: 'reviewer' }],
      });
      expect(withdraw.body.status, who.user.name).toBe(ERR.signerModify);
    }
    // Nothing changed: the colleague's request made before the signature stands, and may be answered.
    const after = (await writer.call(api.notes.blockList, { labNoteNo })).body.data.note;
    expect(after.signatureList.map((s) => [s.userId, s.status])).toEqual(signed.signatureList.map((s) => [s.userId, s.status]));
    expect((await noteAbilitiesOf(colleague, labNoteNo)).sign).toBe(true);
    expect((await sign(colleague, labNoteNo)).body.status).toBe('0000');

    // The leader removes the signatures, with reasons; the note is W again and takes requests.
    expect((await noteAbilitiesOf(leader, labNoteNo)).removeSignatures).toBe(true);
    for (const entry of after.signatureList) {
      expect(
        (await leader.call(api.signatures.remove, { labNoteNo, signatureId: entry.signatureId, reason: 'signers to be changed' })).body
          .status,
      ).toBe('0000');
    }
    expect(await noteAbilitiesOf(writer, labNoteNo)).toMatchObject({ requestSignatures: true, write: true });
    expect(
      (await writer.call(api.signatures.request, { labNoteNo, signers: [{ userId: writer.user.userId, type: 'participant' }] })).body
        .status,
    ).toBe('0000');
  });
});
