import { afterAll, beforeAll, expect, it } from 'vitest';
import * as Y from 'yjs';
import { api, noteDocumentName, type CallInput, type CallSpec } from '@eln/shared';
import {
  appendMention,
  appendParagraph,
  blockElement,
  connectWriter,
  eventually,
  removeMentions,
  type LiveClient,
} from '../../server/src/testing/live.js';
import { ServerProcess } from './serverProcess.js';

/**
 * A mention typed in a real editor session reaches its person once: the writer types text, `@ki` and then
 * picks Kim (the query replaced by the mention node, as the editor's suggestions do), deletes the mention
 * and types it again, all through a real Hocuspocus connection to the real server process, which is
 * killed with SIGKILL as soon as the last edit is confirmed stored. After the restart, Kim has exactly one
 * `mentioned` notification, opening the block: what is stored is looked at after a crash, and a mention
 * typed again is not told twice.
 */
const PASSWORD = 'mention-password-1';
let server: ServerProcess;
const tokens: Record<'writer' | 'kim' | 'lee', string> = { writer: '', kim: '', lee: '' };
const ids = { writer: 'writer@mention.test', kim: 'kim@mention.test', lee: 'lee@mention.test' };
let labNoteNo: number;

const call = <C extends CallSpec>(spec: C, body: CallInput<C>, token?: string) => server.call(spec, body, token);
const signIn = async (who: keyof typeof ids) => (await call(api.auth.signIn, { userId: ids[who], password: PASSWORD })).accessToken;

beforeAll(async () => {
  server = await ServerProcess.create();
  await server.start();
  const admin = await call(api.auth.signIn, { userId: 'admin@eln.local', password: ServerProcess.adminPassword });
  for (const [who, name] of [
    ['writer', 'Writer Woo'],
    ['kim', 'Kim Minji'],
    ['lee', 'Lee Jun'],
  ] as const)
    await call(
      api.users.create,
      { userId: ids[who], name, password: PASSWORD, auth: { project: 'Y', schema: 'N', dropbox: 'N', template: 'N' } },
      admin.accessToken,
    );
  tokens.writer = await signIn('writer');
  const { projectNo } = await call(
    api.projects.create,
    { title: 'Mentions', signatureList: { department: '', user: Object.values(ids).join(',') } },
    tokens.writer,
  );
  labNoteNo = (await call(api.notes.create, { projectNo, title: 'Who checks' }, tokens.writer)).labNoteNo;
}, 120_000);

afterAll(async () => {
  await server?.dispose();
});

async function mentionsOf(token: string) {
  const { list } = await call(api.notifications.list, { page: 1, pageSize: 50 }, token);
  return list.filter((item) => item.event === 'mentioned');
}

/** The paragraph's last text run (what the caret types into). */
const lastText = (paragraph: Y.XmlElement) => paragraph.get(paragraph.length - 1) as Y.XmlText;

it('tells the person mentioned once, after a crash right after the mention was stored', { timeout: 180_000 }, async () => {
  let writer: LiveClient = await connectWriter(server.url, noteDocumentName(labNoteNo), tokens.writer);
  const blockUid = appendParagraph(writer.doc, '');
  const paragraph = blockElement(writer.doc, blockUid);
  for (const char of 'Please check @ki') lastText(paragraph).insert(lastText(paragraph).length, char);
  await eventually(() => writer.allDurable(), 'the typing stored');
  // Picking Kim: the query `@ki` gives way to the mention node.
  writer.doc.transact(() => {
    const text = lastText(paragraph);
    text.delete(text.length - 3, 3);
  });
  appendMention(writer.doc, blockUid, { userId: ids.kim, label: 'Kim Minji' });
  removeMentions(writer.doc, ids.kim, paragraph);
  appendMention(writer.doc, blockUid, { userId: ids.kim, label: 'Kim Minji' });
  await eventually(() => writer.allDurable(), 'the mention stored');
  writer.destroy();
  await server.stop('SIGKILL');

  await server.start();
  tokens.kim = await signIn('kim');
  tokens.lee = await signIn('lee');
  tokens.writer = await signIn('writer');
  await eventually(async () => (await mentionsOf(tokens.kim)).length > 0, 'Kim to hear of the mention', 30_000);
  // Another mention, told after every look at Kim's: Kim's is still told once.
  writer = await connectWriter(server.url, noteDocumentName(labNoteNo), tokens.writer);
  const second = appendParagraph(writer.doc, 'And ');
  appendMention(writer.doc, second, { userId: ids.lee, label: 'Lee Jun' });
  await eventually(async () => (await mentionsOf(tokens.lee)).length > 0, 'Lee to hear of the second mention', 30_000);
  writer.destroy();
  const heard = await mentionsOf(tokens.kim);
  expect(heard).toHaveLength(1);
  expect(heard[0]).toMatchObject({ actorName: 'Writer Woo', link: `/note/${labNoteNo}?block=${blockUid}` });
  expect(heard[0]!.note?.labNoteNo).toBe(labNoteNo);
});
