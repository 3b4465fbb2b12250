import { execFile } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq, like } from 'drizzle-orm';
import * as Y from 'yjs';
import {
  api,
  COMMENT_LIMITS,
  COMMENTS_CHANGED_MESSAGE,
  ERR,
  MENTION_LIMITS,
  mentionToken,
  noteDocumentName,
  templateDocumentName,
  type CommentAnchor,
} from '@eln/shared';
import { auditLog, comments, mailOutbox } from '../db/schema.js';
import { composeMail } from '../mail/compose.js';
import { writeElnArchive } from '../exports/eln/index.js';
import { WELL_KNOWN_KEYS } from '../exports/eln/crate.js';
import { notePageHtml } from '../exports/pdf/noteHtml.js';
import { loadExportNote, loadExportProject } from '../exports/projectContent.js';
import { exportThreads } from './exportThreads.js';
import { startTestServer, type Caller, type NewUser, type TestServer, type TestPerson } from '../testing/harness.js';
import { appendParagraph, blockElement, connectWriter, eventually, roundTrip, type LiveClient } from '../testing/live.js';

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

const person = (name: string, fields: Partial<NewUser> = {}): Promise<Person> => server.person({ name, ...fields });

async function project(title: string): Promise<number> {
  return (
    await leader.call(api.projects.create, {
      title,
      signatureList: { department: '', user: [leader, writer, reviewer, colleague].map((p) => p.user.userId).join(',') },
    })
  ).body.data.projectNo;
}

beforeAll(async () => {
  server = await startTestServer();
  url = await server.listen();
  [leader, writer, reviewer, colleague, outsider] = (await Promise.all(
    ['Leader Lee', 'Writer Woo', 'Reviewer Ryu', 'Colleague Cho', 'Outsider Oh'].map((name) => person(name)),
  )) as [Person, Person, Person, Person, Person];
  admin = await server.as(server.admin);
  projectNo = await project('Commented work');
});
afterEach(() => {
  for (const client of clients.splice(0)) client.destroy();
});
afterAll(async () => {
  await server?.stop();
});

const encode = (position: Y.RelativePosition) => Buffer.from(Y.encodeRelativePosition(position)).toString('base64');

/** The paragraph's text (its first child, as Tiptap stores it). */
const textOf = (doc: Y.Doc, uid: string) => blockElement(doc, uid).get(0) as Y.XmlText;

/** An anchor on characters [from, to) of a paragraph, made as the editor makes one. */
function rangeAnchor(doc: Y.Doc, uid: string, from: number, to: number): CommentAnchor {
  const text = textOf(doc, uid);
  return {
    blockUid: uid,
    start: encode(Y.createRelativePositionFromTypeIndex(text, from)),
    end: encode(Y.createRelativePositionFromTypeIndex(text, to)),
    quote: text.toString().slice(from, to),
  };
}

/** A note by the writer with one saved version of one paragraph; answers its number, the paragraph and an open editor. */
async function savedNote(title: string, inProject = projectNo) {
  const { labNoteNo } = (await writer.call(api.notes.create, { projectNo: inProject, title })).body.data;
  const editor = await connectWriter(url, noteDocumentName(labNoteNo), writer.token);
  clients.push(editor);
  const uid = appendParagraph(editor.doc, 'The buffer was prepared at pH 7.4 today.');
  await eventually(() => editor.allDurable(), 'durable');
  const saved = await writer.call(api.notes.saveVersion, { labNoteNo, version: 0, blockList: [] });
  expect(saved.body.status).toBe('0000');
  return { labNoteNo, editor, uid };
}

const sign = (who: Person, labNoteNo: number) =>
  who.call(api.signatures.respond, { labNoteNo, status: 'T', password: who.user.password, name: who.user.name, timeZone: 'Asia/Seoul' });

const threadsOf = async (who: Caller, labNoteNo: number) => {
  const answer = await who(api.comments.list, { labNoteNo });
  expect(answer.body.status).toBe('0000');
  return answer.body.data;
};
const auditOf = async (action: string) =>
  (await server.database.db.select().from(auditLog).where(eq(auditLog.action, action)).orderBy(desc(auditLog.seq)).limit(1))[0];
const commentCount = async (labNoteNo: number) =>
  (await server.database.db.select().from(comments).where(eq(comments.noteNo, labNoteNo))).length;

describe('threads and replies', () => {
  it('opens a thread on a text range, answers it one level deep, and lists both with what each reader may do', async () => {
    const { labNoteNo, editor, uid } = await savedNote('Threads');
    const anchor = rangeAnchor(editor.doc, uid, 4, 10);
    expect(anchor.quote).toBe('buffer');
    const opened = await reviewer.call(api.comments.create, { labNoteNo, anchor, body: 'Which lot was this buffer from?' });
    expect(opened.body.status).toBe('0000');
    const threadId = opened.body.data.commentId;
    const reply = await writer.call(api.comments.create, { labNoteNo, replyTo: threadId, body: 'Lot 42.' });
    expect(reply.body.status).toBe('0000');

    const seen = await threadsOf(writer.call, labNoteNo);
    expect(seen.abilities).toEqual({ comment: true });
    expect(seen.threads).toHaveLength(1);
    const [thread] = seen.threads;
    expect(thread).toMatchObject({
      commentId: threadId,
      author: { userId: reviewer.user.userId, name: 'Reviewer Ryu' },
      body: 'Which lot was this buffer from?',
      anchor,
      onDeletedText: false,
      resolved: null,
      deleted: false,
      abilities: { edit: false, delete: false },
      threadAbilities: { reply: true, resolve: true, reopen: false },
    });
    expect(thread?.replies.map((r) => [r.body, r.author.name, r.abilities])).toEqual([
      ['Lot 42.', 'Writer Woo', { edit: true, delete: true }],
    ]);
    // A participant who neither writes nor signs the note nor leads the project comments, but does not resolve.
    const byColleague = (await threadsOf(colleague.call, labNoteNo)).threads[0];
    expect(byColleague?.threadAbilities).toEqual({ reply: true, resolve: false, reopen: false });

    // One level: a reply answers the thread's first comment, never another reply, nor a thread of another note.
    const deeper = await colleague.call(api.comments.create, { labNoteNo, replyTo: reply.body.data.commentId, body: 'And this?' });
    expect(deeper.body.status).toBe(ERR.commentReplyTarget);
    const other = await savedNote('Other note');
    const elsewhere = await colleague.call(api.comments.create, { labNoteNo: other.labNoteNo, replyTo: threadId, body: 'Wrong note' });
    expect(elsewhere.body.status).toBe(ERR.commentReplyTarget);
    expect(await commentCount(labNoteNo)).toBe(2);
    expect(await commentCount(other.labNoteNo)).toBe(0);

    expect(await auditOf('comment.created')).toMatchObject({
      targetType: 'note',
      targetId: String(labNoteNo),
      actorUserId: writer.user.userId,
      after: { replyTo: threadId, body: 'Lot 42.' },
    });
  });

  it('comments on a whole block, with no range', async () => {
    const { labNoteNo, uid } = await savedNote('Block comment');
    const opened = await colleague.call(api.comments.create, {
      labNoteNo,
      anchor: { blockUid: uid, start: null, end: null, quote: '' },
      body: 'Add the blank.',
    });
    expect(opened.body.status).toBe('0000');
    expect((await threadsOf(colleague.call, labNoteNo)).threads[0]).toMatchObject({
      anchor: { blockUid: uid, start: null, end: null },
      onDeletedText: false,
    });
  });

  it('refuses what is not a comment: no place or two, no text, too long a text, an anchor with one end, an anchor that cannot be read', async () => {
    const { labNoteNo, editor, uid } = await savedNote('Refusals');
    const anchor = rangeAnchor(editor.doc, uid, 0, 3);
    const refusals = [
      { anchor, body: 'No place' },
      { labNoteNo, templateNo: 1, anchor, body: 'Two places' },
      { labNoteNo, anchor, body: '   ' },
      { labNoteNo, anchor, body: 'x'.repeat(COMMENT_LIMITS.body + 1) },
      { labNoteNo, body: 'Neither anchor nor reply' },
      { labNoteNo, anchor, replyTo: 1, body: 'Both anchor and reply' },
      { labNoteNo, anchor: { ...anchor, end: null }, body: 'One end' },
      { labNoteNo, anchor: { ...anchor, start: 'not base64!' }, body: 'Not base64' },
      { labNoteNo, anchor, body: 'Unknown field', extra: true },
    ];
    for (const body of refusals) {
      const refused = await writer.call(api.comments.create.path, body);
      expect(refused.http, JSON.stringify(body).slice(0, 80)).toBe(400);
    }
    const unreadable = await writer.call(api.comments.create, {
      labNoteNo,
      anchor: { ...anchor, start: 'AAAA' },
      body: 'Garbage position',
    });
    expect(unreadable.body.status).toBe(ERR.commentAnchorInvalid);
    expect(await commentCount(labNoteNo)).toBe(0);
    // The longest text there may be is taken.
    const longest = await writer.call(api.comments.create, { labNoteNo, anchor, body: 'y'.repeat(COMMENT_LIMITS.body) });
    expect(longest.body.status).toBe('0000');
  });

  it('lets only readers see and write comments: an outsider is told the note does not exist, an administrator reads and comments', async () => {
    const { labNoteNo, uid } = await savedNote('Readers only');
    const anchor = { blockUid: uid, start: null, end: null, quote: '' };
    expect((await outsider.call(api.comments.list, { labNoteNo })).body.status).toBe(ERR.noteMissing);
    expect((await outsider.call(api.comments.create, { labNoteNo, anchor, body: 'Let me in' })).body.status).toBe(ERR.noteMissing);
    expect((await admin(api.comments.create, { labNoteNo, anchor, body: 'From the administrator' })).body.status).toBe('0000');
    expect((await threadsOf(admin, labNoteNo)).threads).toHaveLength(1);
    expect((await writer.call(api.comments.list, { labNoteNo: 999_999 })).body.status).toBe(ERR.noteMissing);
  });

  it('keeps to the limits of threads per note and replies per thread, counting only those not deleted', async () => {
    const { labNoteNo, uid } = await savedNote('Limits');
    const anchor = { blockUid: uid, start: null, end: null, quote: '' };
    const thread = (await writer.call(api.comments.create, { labNoteNo, anchor, body: 'First' })).body.data.commentId;
    const rows = (n: number, extra: Partial<typeof comments.$inferInsert>) =>
      Array.from({ length: n }, () => ({ noteNo: labNoteNo, authorUserNo: writer.user.userNo, body: 'filler', ...extra }));
    await server.database.db.insert(comments).values(rows(COMMENT_LIMITS.threadsPerPlace - 1, { blockUid: uid }));
    await server.database.db.insert(comments).values(rows(COMMENT_LIMITS.repliesPerThread, { replyTo: thread }));
    const tooManyThreads = await writer.call(api.comments.create, { labNoteNo, anchor, body: 'One too many' });
    expect(tooManyThreads.body).toMatchObject({ status: ERR.commentThreadLimit });
    expect(tooManyThreads.body.message).toContain(String(COMMENT_LIMITS.threadsPerPlace));
    expect((await writer.call(api.comments.create, { labNoteNo, replyTo: thread, body: 'One reply too many' })).body.status).toBe(
      ERR.commentReplyLimit,
    );
    // A deleted reply makes room for one more.
    const [reply] = await server.database.db
      .select()
      .from(comments)
      .where(and(eq(comments.replyTo, thread), like(comments.body, 'filler')));
    await server.database.db.update(comments).set({ deletedAt: new Date() }).where(eq(comments.commentId, reply!.commentId));
    expect((await writer.call(api.comments.create, { labNoteNo, replyTo: thread, body: 'Now it fits' })).body.status).toBe('0000');
  });
});

describe('editing and deleting', () => {
  it('lets the author alone edit and delete, and keeps the text before and after in the audit trail', async () => {
    const { labNoteNo, uid } = await savedNote('Edits');
    const anchor = { blockUid: uid, start: null, end: null, quote: '' };
    const threadId = (await colleague.call(api.comments.create, { labNoteNo, anchor, body: 'Frist remark' })).body.data.commentId;
    const replyId = (await writer.call(api.comments.create, { labNoteNo, replyTo: threadId, body: 'Noted.' })).body.data.commentId;

    expect((await writer.call(api.comments.update, { commentId: threadId, body: 'Not mine' })).body.status).toBe(ERR.commentNotAuthor);
    expect((await leader.call(api.comments.delete, { commentId: threadId })).body.status).toBe(ERR.commentNotAuthor);
    expect((await colleague.call(api.comments.update, { commentId: threadId, body: 'First remark' })).body.status).toBe('0000');
    const updated = await auditOf('comment.updated');
    expect(updated).toMatchObject({
      actorUserId: colleague.user.userId,
      targetType: 'note',
      targetId: String(labNoteNo),
      before: { commentId: threadId, body: 'Frist remark' },
      after: { commentId: threadId, body: 'First remark' },
    });
    const thread = (await threadsOf(writer.call, labNoteNo)).threads[0];
    expect(thread?.body).toBe('First remark');
    expect(thread?.editedAt).not.toBeNull();

    // The first comment deleted while a reply remains: a mark with its replies; its text only in the audit trail.
    expect((await colleague.call(api.comments.delete, { commentId: threadId })).body.status).toBe('0000');
    expect(await auditOf('comment.deleted')).toMatchObject({
      before: { commentId: threadId, body: 'First remark', replyTo: null },
      after: { commentId: threadId, deleted: true },
    });
    const marked = (await threadsOf(writer.call, labNoteNo)).threads[0];
    expect(marked).toMatchObject({ deleted: true, body: '', abilities: { edit: false, delete: false } });
    expect(marked?.replies.map((r) => r.body)).toEqual(['Noted.']);
    const [stored] = await server.database.db.select().from(comments).where(eq(comments.commentId, threadId));
    expect(stored?.body).toBe('');
    expect((await colleague.call(api.comments.update, { commentId: threadId, body: 'Back' })).body.status).toBe(ERR.commentMissing);
    expect((await colleague.call(api.comments.delete, { commentId: threadId })).body.status).toBe(ERR.commentMissing);

    // Its last reply gone, the thread leaves the list.
    expect((await writer.call(api.comments.delete, { commentId: replyId })).body.status).toBe('0000');
    expect((await threadsOf(writer.call, labNoteNo)).threads).toEqual([]);
    expect((await writer.call(api.comments.update, { commentId: 987_654, body: 'Nothing' })).body.status).toBe(ERR.commentMissing);
  });
});

describe('resolving and reopening', () => {
  it("lets the note's writer, a signer asked on it and the project leader resolve and reopen; others are refused", async () => {
    const { labNoteNo, uid } = await savedNote('Resolutions');
    const anchor = { blockUid: uid, start: null, end: null, quote: '' };
    await writer.call(api.signatures.request, { labNoteNo, signers: [{ userId: reviewer.user.userId, type: 'reviewer' }] });
    const threadId = (await colleague.call(api.comments.create, { labNoteNo, anchor, body: 'Add the blank' })).body.data.commentId;
    const replyId = (await colleague.call(api.comments.create, { labNoteNo, replyTo: threadId, body: 'Please' })).body.data.commentId;

    // The colleague wrote the thread but neither writes nor signs the note, nor leads: not theirs to resolve.
    expect((await colleague.call(api.comments.resolve, { commentId: threadId })).body.status).toBe(ERR.commentNotResolver);
    expect((await admin(api.comments.resolve, { commentId: threadId })).body.status).toBe(ERR.commentNotResolver);

    for (const who of [writer, reviewer, leader]) {
      expect((await who.call(api.comments.resolve, { commentId: threadId })).body.status).toBe('0000');
      const resolved = (await threadsOf(colleague.call, labNoteNo)).threads[0];
      expect(resolved?.resolved?.by.name).toBe(who.user.name);
      expect(resolved?.threadAbilities).toEqual({ reply: false, resolve: false, reopen: false });
      expect((await threadsOf(who.call, labNoteNo)).threads[0]?.threadAbilities).toEqual({ reply: false, resolve: false, reopen: true });
      expect((await who.call(api.comments.resolve, { commentId: threadId })).body.status).toBe(ERR.commentAlreadyResolved);
      expect((await colleague.call(api.comments.create, { labNoteNo, replyTo: threadId, body: 'More' })).body.status).toBe(
        ERR.commentResolvedNoReply,
      );
      expect((await colleague.call(api.comments.reopen, { commentId: threadId })).body.status).toBe(ERR.commentNotResolver);
      // A reply's number names its thread too.
      expect((await who.call(api.comments.reopen, { commentId: replyId })).body.status).toBe('0000');
      expect((await who.call(api.comments.reopen, { commentId: threadId })).body.status).toBe(ERR.commentAlreadyOpen);
    }
    expect(await auditOf('comment.resolved')).toMatchObject({
      actorUserId: leader.user.userId,
      before: { resolved: false },
      after: { resolved: true },
    });
    expect(await auditOf('comment.reopened')).toMatchObject({
      actorUserId: leader.user.userId,
      before: { resolved: true },
      after: { resolved: false },
    });
  });
});

describe('comments beside the signed record', () => {
  it('takes comments on a signed note without changing its blocks, its version, its SHA-256 or its signature', async () => {
    const { labNoteNo, editor, uid } = await savedNote('Signed and commented');
    await writer.call(api.signatures.request, { labNoteNo, signers: [{ userId: reviewer.user.userId, type: 'reviewer' }] });
    expect((await sign(reviewer, labNoteNo)).body.status).toBe('0000');
    const before = {
      blocks: (await writer.call(api.notes.blockList, { labNoteNo })).body.data,
      version: (await writer.call(api.noteHistory.detail, { labNoteNo, version: 1 })).body.data,
      state: Y.encodeStateVector(editor.doc),
    };
    expect(before.blocks.note.status).toBe('T');

    const anchor = rangeAnchor(editor.doc, uid, 4, 10);
    const threadId = (await reviewer.call(api.comments.create, { labNoteNo, anchor, body: 'Seen after signing: fine.' })).body.data
      .commentId;
    expect((await writer.call(api.comments.create, { labNoteNo, replyTo: threadId, body: 'Thanks' })).body.status).toBe('0000');
    expect((await reviewer.call(api.comments.update, { commentId: threadId, body: 'Seen after signing: all fine.' })).body.status).toBe(
      '0000',
    );
    expect((await writer.call(api.comments.resolve, { commentId: threadId })).body.status).toBe('0000');

    const after = {
      blocks: (await writer.call(api.notes.blockList, { labNoteNo })).body.data,
      version: (await writer.call(api.noteHistory.detail, { labNoteNo, version: 1 })).body.data,
    };
    expect(after.blocks.note.version).toBe(before.blocks.note.version);
    expect(after.blocks.blockList).toEqual(before.blocks.blockList);
    expect(after.version.blocksHash).toBe(before.version.blocksHash);
    expect(after.version).toEqual(before.version);
    expect(after.blocks.note.signatureList.map((s) => [s.status, s.intact])).toEqual([['T', true]]);
    // Nothing reached the live document either.
    await roundTrip(editor, editor);
    expect(Y.encodeStateVector(editor.doc)).toEqual(before.state);
  });

  it("refuses every change to comments on a closed project's notes, saying why, and still lists them", async () => {
    const closing = await project('Closed work');
    const { labNoteNo, uid } = await savedNote('Finished', closing);
    const anchor = { blockUid: uid, start: null, end: null, quote: '' };
    const threadId = (await colleague.call(api.comments.create, { labNoteNo, anchor, body: 'Before the close' })).body.data.commentId;
    await writer.call(api.signatures.request, { labNoteNo, signers: [{ userId: reviewer.user.userId, type: 'reviewer' }] });
    expect((await sign(reviewer, labNoteNo)).body.status).toBe('0000');
    expect((await leader.call(api.projects.finish, { projectNo: closing })).body.status).toBe('0000');

    const refused = [
      await colleague.call(api.comments.create, { labNoteNo, anchor, body: 'After the close' }),
      await colleague.call(api.comments.create, { labNoteNo, replyTo: threadId, body: 'After the close' }),
      await colleague.call(api.comments.update, { commentId: threadId, body: 'Changed' }),
      await colleague.call(api.comments.delete, { commentId: threadId }),
      await leader.call(api.comments.resolve, { commentId: threadId }),
    ];
    for (const answer of refused) {
      expect(answer.http).toBe(422);
      expect(answer.body.status).toBe(ERR.commentProjectClosed);
    }
    expect((await colleague.call(api.comments.create, { labNoteNo, anchor, body: 'x' }, { language: 'ko' })).body.message).toContain(
      '종료된 프로젝트',
    );
    const listed = await threadsOf(leader.call, labNoteNo);
    expect(listed.abilities).toEqual({ comment: false });
    expect(listed.threads[0]).toMatchObject({
      body: 'Before the close',
      abilities: { edit: false, delete: false },
      threadAbilities: { reply: false, resolve: false, reopen: false },
    });
  });
});

describe('mentions', () => {
  it('notifies each person newly mentioned, once, linking to the note, and shows the tokens as names', async () => {
    const { labNoteNo, uid } = await savedNote('Mentions');
    const anchor = { blockUid: uid, start: null, end: null, quote: '' };
    const body = `${mentionToken(reviewer.user.userId)} please check, and ${mentionToken(leader.user.userId)} too`;
    const threadId = (await writer.call(api.comments.create, { labNoteNo, anchor, body })).body.data.commentId;
    const mentionsOf = async (who: Person) =>
      (await who.call(api.notifications.list, { page: 1, pageSize: 50 })).body.data.list.filter(
        (n) => n.event === 'mentioned' && n.note?.labNoteNo === labNoteNo,
      );
    const [told] = await mentionsOf(reviewer);
    expect(told).toMatchObject({
      actorName: 'Writer Woo',
      link: `/note/${labNoteNo}?comment=${threadId}`,
      excerpt: '@Reviewer Ryu please check, and @Leader Lee too',
      read: false,
    });
    // Its mail (mentions are mailed by default) says the comment with names, never the tokens.
    const [queued] = await server.database.db.select().from(mailOutbox).where(eq(mailOutbox.notificationId, told!.id));
    const mail = await composeMail(server.database.db, queued!, { publicUrl: 'http://eln.test', timeZone: 'UTC' });
    expect('content' in mail && mail.content.text).toContain('> @Reviewer Ryu please check, and @Leader Lee too');
    expect('content' in mail && mail.content.text).toContain(`http://eln.test/note/${labNoteNo}?comment=${threadId}`);
    expect('content' in mail && mail.content.html).not.toContain(reviewer.user.userId);
    expect(await mentionsOf(leader)).toHaveLength(1);
    expect(await mentionsOf(colleague)).toHaveLength(0);
    const listed = await threadsOf(colleague.call, labNoteNo);
    expect(listed.people).toEqual(
      expect.arrayContaining([
        { userId: reviewer.user.userId, name: 'Reviewer Ryu' },
        { userId: leader.user.userId, name: 'Leader Lee' },
      ]),
    );

    // Editing: only someone mentioned for the first time hears of it.
    const edited = `${body} and ${mentionToken(colleague.user.userId)}`;
    expect((await writer.call(api.comments.update, { commentId: threadId, body: edited })).body.status).toBe('0000');
    expect(await mentionsOf(reviewer)).toHaveLength(1);
    expect(await mentionsOf(colleague)).toHaveLength(1);
    // Mentioning oneself tells nobody.
    await writer.call(api.comments.create, { labNoteNo, replyTo: threadId, body: `${mentionToken(writer.user.userId)} noted` });
    expect(await mentionsOf(writer)).toHaveLength(0);
  });

  it('refuses to mention someone who cannot read the note, naming them and saying the leader can add them, and stores nothing', async () => {
    const { labNoteNo, uid } = await savedNote('Refused mentions');
    const anchor = { blockUid: uid, start: null, end: null, quote: '' };
    const refused = await writer.call(
      api.comments.create,
      { labNoteNo, anchor, body: `${mentionToken(outsider.user.userId)} and ${mentionToken('nobody@lab.test')}, look` },
      { language: 'en' },
    );
    expect(refused.http).toBe(422);
    expect(refused.body).toMatchObject({
      status: ERR.commentMentionUnreadable,
      data: { userIds: [outsider.user.userId, 'nobody@lab.test'] },
    });
    expect(refused.body.message).toContain('Outsider Oh, nobody@lab.test');
    expect(refused.body.message).toContain('participants');
    const inJapanese = await writer.call(
      api.comments.create,
      { labNoteNo, anchor, body: mentionToken(outsider.user.userId) },
      { language: 'ja' },
    );
    expect(inJapanese.body.message).toContain('Outsider Oh');
    expect(inJapanese.body.message).toContain('プロジェクトリーダー');
    expect(await commentCount(labNoteNo)).toBe(0);
    // An administrator reads every note: mentioning one is allowed, though the suggestions offer the project's people.
    expect(
      (await writer.call(api.comments.create, { labNoteNo, anchor, body: `${mentionToken(server.admin.userId)} FYI` })).body.status,
    ).toBe('0000');
    const offered = (await writer.call(api.comments.mentionable, { labNoteNo })).body.data.list.map((p) => p.userId);
    expect(offered.sort()).toEqual([leader, writer, reviewer, colleague].map((p) => p.user.userId).sort());
    expect((await outsider.call(api.comments.mentionable, { labNoteNo })).body.status).toBe(ERR.noteMissing);
  });

  it(`refuses more than ${MENTION_LIMITS.perText} mentions in one comment`, async () => {
    const { labNoteNo, uid } = await savedNote('Crowded');
    const tokens = Array.from({ length: MENTION_LIMITS.perText + 1 }, (_, i) => mentionToken(`person${i}@lab.test`)).join(' ');
    const refused = await writer.call(api.comments.create, {
      labNoteNo,
      anchor: { blockUid: uid, start: null, end: null, quote: '' },
      body: tokens,
    });
    expect(refused.body.status).toBe(ERR.commentTooManyMentions);
    expect(refused.body.message).toContain(String(MENTION_LIMITS.perText));
    expect(await commentCount(labNoteNo)).toBe(0);
  });
});

describe('anchors in the live document', () => {
  it('follows its text when text is inserted before it, and says "on deleted text" once the text is deleted', async () => {
    const { labNoteNo, editor, uid } = await savedNote('Moving anchors');
    const anchor = rangeAnchor(editor.doc, uid, 4, 10);
    const threadId = (await writer.call(api.comments.create, { labNoteNo, anchor, body: 'On "buffer"' })).body.data.commentId;
    // Another reader, on their own connection, sees the same range move with the text typed before it.
    const reader = await connectWriter(url, noteDocumentName(labNoteNo), colleague.token);
    clients.push(reader);
    textOf(editor.doc, uid).insert(0, 'Note: ');
    await roundTrip(editor, reader);
    const resolve = (doc: Y.Doc, encoded: string) =>
      Y.createAbsolutePositionFromRelativePosition(Y.decodeRelativePosition(Buffer.from(encoded, 'base64')), doc)?.index;
    for (const doc of [editor.doc, reader.doc]) {
      const [from, to] = [resolve(doc, anchor.start!), resolve(doc, anchor.end!)];
      expect([from, to]).toEqual([10, 16]);
      expect(textOf(doc, uid).toString().slice(from, to)).toBe('buffer');
    }
    await eventually(() => editor.allDurable(), 'durable');
    expect((await threadsOf(writer.call, labNoteNo)).threads[0]?.onDeletedText).toBe(false);

    // The anchored word deleted: the thread stays, "on deleted text", in the live answer and once the note is unloaded.
    textOf(editor.doc, uid).delete(8, 10);
    await eventually(() => editor.allDurable(), 'durable');
    expect((await threadsOf(writer.call, labNoteNo)).threads[0]).toMatchObject({
      commentId: threadId,
      onDeletedText: true,
      anchor: { quote: 'buffer' },
    });
  });

  it('says "on deleted text" of a whole block\'s comment once the block is gone, read from the stored document', async () => {
    const { labNoteNo, editor, uid } = await savedNote('Removed block');
    const second = appendParagraph(editor.doc, 'A second paragraph');
    await eventually(() => editor.allDurable(), 'durable');
    await writer.call(api.comments.create, { labNoteNo, anchor: rangeAnchor(editor.doc, second, 0, 8), body: 'On a range' });
    await writer.call(api.comments.create, {
      labNoteNo,
      anchor: { blockUid: uid, start: null, end: null, quote: '' },
      body: 'On the block',
    });
    const fragment = editor.doc.getXmlFragment('default');
    fragment.delete(0, fragment.length);
    await eventually(() => editor.allDurable(), 'durable');
    editor.destroy();
    clients.splice(clients.indexOf(editor), 1);
    // The note is no longer open anywhere: read from the store.
    const listed = await threadsOf(writer.call, labNoteNo);
    expect(listed.threads.map((t) => [t.body, t.onDeletedText])).toEqual([
      ['On a range', true],
      ['On the block', true],
    ]);
  });

  it('tells every reader with the note open that its comments changed, and nothing else', async () => {
    const { labNoteNo, editor, uid } = await savedNote('Live panel');
    const reader = await connectWriter(url, noteDocumentName(labNoteNo), colleague.token);
    clients.push(reader);
    const told = (client: LiveClient) => client.stateless().filter((m) => (m as { type?: string }).type === COMMENTS_CHANGED_MESSAGE);
    const threadId = (
      await writer.call(api.comments.create, { labNoteNo, anchor: { blockUid: uid, start: null, end: null, quote: '' }, body: 'Live' })
    ).body.data.commentId;
    await eventually(() => told(reader).length === 1 && told(editor).length === 1, 'both told');
    expect(told(reader)).toEqual([{ type: COMMENTS_CHANGED_MESSAGE }]);
    await writer.call(api.comments.resolve, { commentId: threadId });
    await eventually(() => told(reader).length === 2, 'told of the resolution');
    // A refused change tells nobody.
    await colleague.call(api.comments.resolve, { commentId: threadId });
    await roundTrip(reader, reader);
    expect(told(reader)).toHaveLength(2);
  });
});

describe('comments on a template draft', () => {
  it('lets those who manage templates comment on a draft through the same calls; its author resolves; others cannot see it', async () => {
    const author = await person('Template Author', { auth: { project: 'Y', schema: 'N', dropbox: 'N', template: 'Y' } });
    const manager = await person('Template Manager', { auth: { project: 'Y', schema: 'N', dropbox: 'N', template: 'Y' } });
    const { templateNo } = (await author.call(api.templates.create, { title: `Buffer ${Date.now() % 100000}` })).body.data;
    const draft = await connectWriter(url, templateDocumentName(templateNo), author.token);
    clients.push(draft);
    const uid = appendParagraph(draft.doc, 'Weigh the salts.');
    await eventually(() => draft.allDurable(), 'durable');

    const anchor = rangeAnchor(draft.doc, uid, 0, 5);
    const opened = await manager.call(api.comments.create, {
      templateNo,
      anchor,
      body: `Which balance? ${mentionToken(author.user.userId)}`,
    });
    expect(opened.body.status).toBe('0000');
    const listed = (await author.call(api.comments.list, { templateNo })).body.data;
    expect(listed.threads[0]).toMatchObject({ anchor: { quote: 'Weigh' }, threadAbilities: { resolve: true } });
    expect((await manager.call(api.comments.list, { templateNo })).body.data.threads[0]?.threadAbilities.resolve).toBe(false);
    expect((await author.call(api.comments.resolve, { commentId: opened.body.data.commentId })).body.status).toBe('0000');
    expect(await auditOf('comment.resolved')).toMatchObject({ targetType: 'template', targetId: String(templateNo) });

    // The author hears of the mention, which opens the thread beside the template.
    const told = (await author.call(api.notifications.list, { page: 1, pageSize: 10 })).body.data.list.find((n) => n.event === 'mentioned');
    expect(told).toMatchObject({
      note: null,
      template: { templateNo },
      link: `/template/note/${templateNo}?comment=${opened.body.data.commentId}`,
    });

    // Someone who does not manage templates cannot open the draft: not its comments either, nor be mentioned in them.
    expect((await writer.call(api.comments.list, { templateNo })).body.status).toBe(ERR.notFound);
    const refused = await manager.call(api.comments.create, { templateNo, anchor, body: mentionToken(writer.user.userId) });
    expect(refused.body.status).toBe(ERR.commentMentionNoTemplate);
    expect(refused.body.message).toContain('Writer Woo');
  });
});

describe('comments in exports', () => {
  it("prints a note's threads as an appendix, marked as not part of the signed content, and the .eln archive carries them as Comments", async () => {
    const exporting = await project('Exported comments');
    const { labNoteNo, editor, uid } = await savedNote('Exported', exporting);
    const threadId = (
      await reviewer.call(api.comments.create, {
        labNoteNo,
        anchor: rangeAnchor(editor.doc, uid, 4, 10),
        body: `${mentionToken(writer.user.userId)} which lot?`,
      })
    ).body.data.commentId;
    const replyId = (await writer.call(api.comments.create, { labNoteNo, replyTo: threadId, body: 'Lot 42.' })).body.data.commentId;
    await writer.call(api.comments.resolve, { commentId: threadId });
    // The anchored word deleted afterwards: the thread is exported "on deleted text".
    textOf(editor.doc, uid).delete(4, 6);
    await eventually(() => editor.allDurable(), 'durable');

    const threads = await exportThreads(server.database.db, labNoteNo);
    expect(threads).toMatchObject([
      {
        commentId: threadId,
        quote: 'buffer',
        onDeletedText: true,
        resolved: { by: 'Writer Woo' },
        first: { text: '@Writer Woo which lot?', author: { name: 'Reviewer Ryu' } },
        replies: [{ commentId: replyId, text: 'Lot 42.' }],
      },
    ]);

    // The PDF's page: the appendix only when asked for, in the export's language.
    const exportedProject = (await loadExportProject(server.database.db, exporting))!;
    const note = (await loadExportNote(server.database.db, labNoteNo, server.config.filesDir))!;
    const options = { lang: 'en' as const, timeZone: 'UTC', exportedAt: new Date(), exportedBy: { userId: 'x@lab.test', name: 'X' } };
    const page = notePageHtml(exportedProject, note, note.latest, options, () => null, undefined, threads);
    expect(page).toContain('Comments are remarks beside the note. They are not part of the saved versions or of the signed content.');
    expect(page).toContain('@Writer Woo which lot?');
    expect(page).toContain('On deleted text:');
    expect(page).toContain('Resolved by Writer Woo');
    expect(notePageHtml(exportedProject, note, note.latest, options, () => null)).not.toContain('class="pdf-section pdf-comments"');
    const inKorean = notePageHtml(exportedProject, note, note.latest, { ...options, lang: 'ko' }, () => null, undefined, threads);
    expect(inKorean).toContain('서명된 내용에 포함되지 않습니다');

    // The export form's choice is kept with the job; an .eln has no such choice (it always carries them).
    const job = await leader.call(api.exports.create, { format: 'pdf', projectNos: [exporting], comments: true });
    expect(job.body.data.list[0]?.comments).toBe(true);
    expect((await leader.call(api.exports.create.path, { format: 'eln', projectNos: [exporting], comments: true })).http).toBe(400);

    // The archive: each comment a Comment about the note, a reply's parent its thread's first comment.
    const dir = await mkdtemp(path.join(os.tmpdir(), 'eln-comments-'));
    try {
      const archive = path.join(dir, 'comments.eln');
      await writeElnArchive(
        server.database.db,
        {
          projectNo: exporting,
          noteNos: [labNoteNo],
          filesDir: server.config.filesDir,
          exportedAt: new Date(),
          exportedBy: options.exportedBy,
          lang: 'en',
          keysUrl: `${server.config.publicUrl}${WELL_KNOWN_KEYS}`,
        },
        createWriteStream(archive),
      );
      const { stdout } = await promisify(execFile)('unzip', ['-p', archive, '*/ro-crate-metadata.json'], { maxBuffer: 64 << 20 });
      const graph = (JSON.parse(stdout) as { '@graph': Array<Record<string, unknown>> })['@graph'];
      const byId = (id: string) => graph.find((entity) => entity['@id'] === id);
      const noteDataset = graph.find((entity) => entity['@type'] === 'Dataset' && entity.identifier === note.labNoteNumber)!;
      const first = byId(`#comment-${threadId}`);
      expect(first).toMatchObject({
        '@type': 'Comment',
        about: { '@id': noteDataset['@id'] },
        parentItem: { '@id': noteDataset['@id'] },
        text: '@Writer Woo which lot?',
        creativeWorkStatus: 'Resolved',
        identifier: uid,
      });
      expect(first?.description).toContain('not part of its saved versions or of the signed content');
      expect(first?.description).toContain('has been deleted');
      expect(byId((first?.author as { '@id': string })['@id'])).toMatchObject({ '@type': 'Person', name: 'Reviewer Ryu' });
      expect(byId(`#comment-${replyId}`)).toMatchObject({
        parentItem: { '@id': `#comment-${threadId}` },
        about: { '@id': noteDataset['@id'] },
        text: 'Lot 42.',
      });
      expect(noteDataset.comment).toEqual(expect.arrayContaining([{ '@id': `#comment-${threadId}` }, { '@id': `#comment-${replyId}` }]));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
