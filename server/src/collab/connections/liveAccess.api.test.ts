import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { WebSocket } from 'ws';
import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import type { Extension } from '@hocuspocus/server';
import { api, COLLAB_PATH, COLLAB_REFUSALS, ERR, HOLD_ENDED_MESSAGE, noteDocumentName, type SignInAnswer } from '@eln/shared';
import { claimsOf } from '../../testing/jwt.js';
import { startTestServer, type NewUser, type TestServer } from '../../testing/harness.js';
import { appendParagraph, connectWriter, eventually, paragraphTexts, roundTrip, type LiveClient } from '../../testing/live.js';
import { DatabaseDocumentStore } from '../persistence/documentStore.js';

/**
 * Ending a session or a user's access ends their open live connections' write access at once: the API
 * call answers only after this process has closed them or turned them read-only (the other processes
 * follow through Redis: commands/scaleOut.redis.api.test.ts). The periodic session re-check is off here, so
 * nothing below can be its doing.
 */

let server: TestServer;
let url: string;
const cleanups: Array<() => void> = [];
const mail: Array<{ to: string; text: string }> = [];

/**
 * Holds the loading of one document, which comes after its first connection authenticated and before
 * that connection is open: the window in which a change can miss it.
 */
const loadGate = { documentName: '', entered: () => undefined as void, release: Promise.resolve() };
const gateExtension: Extension = {
  extensionName: 'test-load-gate',
  async onLoadDocument({ documentName }) {
    if (documentName !== loadGate.documentName) return;
    loadGate.entered();
    await loadGate.release;
  },
};

beforeAll(async () => {
  server = await startTestServer({ sessionRecheckMs: 24 * 3600 * 1000, collabExtensions: [gateExtension] });
  url = await server.listen();
  server.services.mailer = { send: async (message) => void mail.push(message) };
});
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});
afterAll(async () => {
  await server?.stop();
});

const track = (client: LiveClient) => {
  cleanups.push(() => client.destroy());
  return client;
};

type User = NewUser & { userNo: number };

/** A project led by `leader` with `member` taking part, one note open in both of their editors. */
interface Scene {
  name: string;
  projectNo: number;
  leader: User;
  leaderSession: SignInAnswer;
  member: User;
  memberSession: SignInAnswer;
  /** The leader's editor: keeps its access and witnesses what is stored. */
  observer: LiveClient;
  /** The member's editor: the one whose access the change under test ends. */
  editor: LiveClient;
  /** The reason the editor's connection was closed with, once it is. */
  closedWith: () => string | null;
}

let scenes = 0;
async function scene(): Promise<Scene> {
  scenes += 1;
  const leader = await server.createUser({ name: `Leader ${scenes}` });
  const member = await server.createUser({ name: `Member ${scenes}` });
  const leaderSession = await server.signIn(leader.userId, leader.password);
  const memberSession = await server.signIn(member.userId, member.password);
  const signatureList = { department: '', user: `${leader.userId},${member.userId}` };
  const created = await server.call(
    api.projects.create,
    { title: `Access ${scenes}`, signatureList },
    { token: leaderSession.accessToken },
  );
  const { projectNo } = created.body.data;
  const note = await server.call(api.notes.create, { projectNo, title: 'Live' }, { token: memberSession.accessToken });
  const name = noteDocumentName(note.body.data.labNoteNo);
  const observer = track(await connectWriter(url, name, leaderSession.accessToken));
  const editor = track(await connectWriter(url, name, memberSession.accessToken));
  let closedWith: string | null = null;
  editor.provider.on('close', ({ event }: { event: { reason: string } }) => {
    closedWith = event.reason;
  });
  // The member can write before the change: the refusals below are the change's doing.
  appendParagraph(editor.doc, 'before the change');
  await eventually(() => editor.allDurable() && paragraphTexts(observer.doc).includes('before the change'), 'the first edit to be stored');
  return { name, projectNo, leader, leaderSession, member, memberSession, observer, editor, closedWith: () => closedWith };
}

/** The connections of the member's session to the note, as this server process holds them right now. */
const memberConnections = (s: Scene) =>
  server.services.live.connections(s.name).filter((c) => c.context.user.sessionId === claimsOf(s.memberSession.accessToken).sid);

async function storedTexts(name: string): Promise<string[]> {
  const doc = new Y.Doc();
  const state = await new DatabaseDocumentStore(server.database).load(name);
  if (state) Y.applyUpdate(doc, state);
  return paragraphTexts(doc);
}

/**
 * The member's editor writes again after the change (a client may ignore being closed: its provider
 * sends edits anyway), then the witness writes and waits until that is stored: neither the server's
 * document, nor the database, nor the witness has the member's edit.
 */
async function expectLaterEditsRefused(s: Scene): Promise<void> {
  appendParagraph(s.editor.doc, 'written after the change');
  // A read-only connection is still open: once its marker reaches the witness, its edit was dealt with.
  if (memberConnections(s).length) await roundTrip(s.editor, s.observer);
  appendParagraph(s.observer.doc, 'the witness writes on');
  await eventually(() => s.observer.allDurable(), 'the witness’s edit to be stored');
  const live = server.collab.documents.get(s.name);
  for (const texts of [live ? paragraphTexts(live) : [], await storedTexts(s.name), paragraphTexts(s.observer.doc)]) {
    expect(texts).toEqual(['before the change', 'the witness writes on']);
  }
}

/** Closed on this process when the call answered, the client told why, and nothing it sends stored. */
async function expectClosed(s: Scene, reason: string): Promise<void> {
  expect(memberConnections(s).map((c) => c.socketId)).toEqual([]);
  await eventually(() => s.closedWith() === reason, `the member's editor to be closed with ${reason}`);
  await expectLaterEditsRefused(s);
}

describe('open live connections when access ends', () => {
  it('closes the connections of a session that signs out, and only those', async () => {
    const s = await scene();
    // The same member in a second browser: another session, which signing out of the first leaves alone.
    const otherSession = await server.signIn(s.member.userId, s.member.password);
    const otherEditor = track(await connectWriter(url, s.name, otherSession.accessToken));

    expect((await server.call(api.auth.signOut, {}, { token: s.memberSession.accessToken })).body.status).toBe('0000');
    await expectClosed(s, COLLAB_REFUSALS.session);

    appendParagraph(otherEditor.doc, 'from the other session');
    await eventually(() => otherEditor.allDurable(), 'the other session’s edit to be stored');
    expect(await storedTexts(s.name)).toContain('from the other session');
    expect(s.observer.provider.isSynced).toBe(true);
  });

  it('closes every connection of a user an administrator deactivates', async () => {
    const s = await scene();
    const admin = await server.signIn(server.admin.userId, server.admin.password);
    const update = await server.call(api.users.update, { userNo: s.member.userNo, active: false }, { token: admin.accessToken });
    expect(update.body.status).toBe('0000');
    await expectClosed(s, COLLAB_REFUSALS.session);
  });

  it('leaves the connections of a user whose name an administrator changes', async () => {
    const s = await scene();
    const admin = await server.signIn(server.admin.userId, server.admin.password);
    expect(
      (await server.call(api.users.update, { userNo: s.member.userNo, name: 'Renamed' }, { token: admin.accessToken })).body.status,
    ).toBe('0000');
    expect(memberConnections(s).map((c) => c.readOnly)).toEqual([false]);
    appendParagraph(s.editor.doc, 'still writing');
    await eventually(() => s.editor.allDurable(), 'the edit after the rename to be stored');
    expect(await storedTexts(s.name)).toContain('still writing');
  });

  it('closes the connections of a user whose password is reset', async () => {
    const s = await scene();
    await server.call(api.auth.findPassword, { userId: s.member.userId });
    // The link is mailed after the answer (find password answers before it looks the account up).
    const tokenInMail = () => /reset=([\w-]+)/.exec(mail.filter((m) => m.to === s.member.userId).at(-1)?.text ?? '')?.[1];
    await eventually(() => tokenInMail() !== undefined, 'the reset mail');
    const token = tokenInMail();
    expect((await server.call(api.auth.resetPassword, { token, password: 'a brand new password' })).body.status).toBe('0000');
    await expectClosed(s, COLLAB_REFUSALS.session);
  });

  it('closes the connections of a session revoked because its refresh token was used twice', async () => {
    const s = await scene();
    expect((await server.call(api.auth.refresh, { refreshToken: s.memberSession.refreshToken })).body.status).toBe('0000');
    // The spent token again: someone holds a copy, so the whole session ends.
    expect((await server.call(api.auth.refresh, { refreshToken: s.memberSession.refreshToken })).body.status).toBe(ERR.refreshInvalid);
    await expectClosed(s, COLLAB_REFUSALS.session);
  });

  it('closes the connections of a participant removed from the project, who can no longer see it', async () => {
    const s = await scene();
    const signatureList = { department: '', user: s.leader.userId };
    expect(
      (await server.call(api.projects.update, { projectNo: s.projectNo, signatureList }, { token: s.leaderSession.accessToken })).body
        .status,
    ).toBe('0000');
    await expectClosed(s, COLLAB_REFUSALS.forbidden);
  });

  it('keeps the leader writing after they take themselves off the participants (a leader always takes part)', async () => {
    const s = await scene();
    // Here the leader's connection is the one watched; the member's is the witness.
    const leader = { ...s, member: s.leader, memberSession: s.leaderSession, editor: s.observer, observer: s.editor };
    const signatureList = { department: '', user: s.member.userId };
    expect(
      (await server.call(api.projects.update, { projectNo: s.projectNo, signatureList }, { token: s.leaderSession.accessToken })).body
        .status,
    ).toBe('0000');
    expect(memberConnections(leader).map((c) => c.readOnly)).toEqual([false]);
    appendParagraph(leader.editor.doc, 'the leader writes on');
    await eventually(() => leader.editor.allDurable(), 'the leader’s edit after the update to be stored');
    expect(await storedTexts(s.name)).toContain('the leader writes on');
    expect(leader.editor.stateless().some((m) => (m as { type?: string }).type === HOLD_ENDED_MESSAGE)).toBe(false);
  });

  it('leaves the connections of participants who stay when others are added', async () => {
    const s = await scene();
    const newcomer = await server.createUser();
    const signatureList = { department: '', user: `${s.leader.userId},${s.member.userId},${newcomer.userId}` };
    expect(
      (await server.call(api.projects.update, { projectNo: s.projectNo, signatureList }, { token: s.leaderSession.accessToken })).body
        .status,
    ).toBe('0000');
    expect(memberConnections(s).map((c) => c.readOnly)).toEqual([false]);
    appendParagraph(s.editor.doc, 'still writing');
    await eventually(() => s.editor.allDurable(), 'the edit after the update to be stored');
    expect(await storedTexts(s.name)).toContain('still writing');
  });

  it('closes a connection that authenticated before the sign-out but opened after it, before it stores anything', async () => {
    const member = await server.createUser();
    const session = await server.signIn(member.userId, member.password);
    const signatureList = { department: '', user: `${member.userId},${server.admin.userId}` };
    const created = await server.call(api.projects.create, { title: 'Access race', signatureList }, { token: session.accessToken });
    const note = await server.call(
      api.notes.create,
      { projectNo: created.body.data.projectNo, title: 'Live' },
      { token: session.accessToken },
    );
    const name = noteDocumentName(note.body.data.labNoteNo);

    let release = () => undefined as void;
    const entered = new Promise<void>((resolve) => {
      loadGate.entered = resolve;
    });
    loadGate.release = new Promise<void>((resolve) => {
      release = resolve;
    });
    loadGate.documentName = name;

    const doc = new Y.Doc();
    const socket = new HocuspocusProviderWebsocket({ url: `${url.replace(/^http/, 'ws')}${COLLAB_PATH}`, WebSocketPolyfill: WebSocket });
    let closedWith: string | null = null;
    const provider = new HocuspocusProvider({ websocketProvider: socket, name, document: doc, token: session.accessToken });
    provider.on('close', ({ event }: { event: { reason: string } }) => {
      closedWith = event.reason;
    });
    cleanups.push(() => {
      provider.destroy();
      socket.destroy();
    });
    provider.attach();
    try {
      await entered; // authenticated with a live session; the connection is not open yet
      expect((await server.call(api.auth.signOut, {}, { token: session.accessToken })).body.status).toBe('0000');
      appendParagraph(doc, 'written after the sign-out');
    } finally {
      loadGate.documentName = '';
      release();
    }
    await eventually(() => closedWith === COLLAB_REFUSALS.session, 'the connection to be closed once open');

    // Another participant's edit, stored, is the witness that the document was open for writing.
    const admin = await server.signIn(server.admin.userId, server.admin.password);
    const witness = track(await connectWriter(url, name, admin.accessToken));
    appendParagraph(witness.doc, 'the witness writes');
    await eventually(() => witness.allDurable(), 'the witness’s edit to be stored');
    const live = server.collab.documents.get(name);
    for (const texts of [live ? paragraphTexts(live) : [], await storedTexts(name), paragraphTexts(witness.doc)]) {
      expect(texts).toEqual(['the witness writes']);
    }
  });
});
