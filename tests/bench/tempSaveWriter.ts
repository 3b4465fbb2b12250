import * as Y from 'yjs';
import { yXmlFragmentToProsemirrorJSON } from '@tiptap/y-tiptap';
import {
  api,
  CONTENT_FIELD,
  docToBlocks,
  docToSavedBlocks,
  noteDocumentName,
  type PmNode,
  type SavedBlock,
  type CallInput,
  type CallSpec,
} from '@eln/shared';
import { appendParagraph, appendTable, connectWriter, eventually, type LiveClient } from '../../server/src/testing/live.js';
import { answerParent } from './forked.js';

/**
 * The writer of the temp-save benchmark (tempSave.bench.ts), forked apart from the server: it fills the
 * note, saves it once, then for each case edits and temp-saves as the editor does, with its own block
 * list in every call, so none of its CPU counts as the server's time.
 */

export type EditKind = 'none' | 'text' | 'cell';
export type ParentMessage =
  { type: 'open'; url: string; labNoteNo: number; token: string } | { type: 'run'; edit: EditKind; calls: number } | { type: 'close' };
export type ChildMessage = { type: 'ready' } | { type: 'done' } | { type: 'error'; message: string } | { type: 'closed' };

/** Where each kind of keystroke goes: the second block (a paragraph), and the middle cell of the table. */
const EDIT_PATH: Record<Exclude<EditKind, 'none'>, number[]> = { text: [1], cell: [0, 14, 14, 0] };

let writer: LiveClient | null = null;
let access: { url: string; labNoteNo: number; token: string } | null = null;
let savedBlocks: SavedBlock[] = [];

const content = () => yXmlFragmentToProsemirrorJSON(writer!.doc.getXmlFragment(CONTENT_FIELD)) as PmNode;

async function post<C extends CallSpec>(spec: C, body: CallInput<C>): Promise<void> {
  const response = await fetch(`${access!.url}/server${spec.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${access!.token}` },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as { status: string };
  if (answer.status !== '0000') throw new Error(`${spec.path}: ${JSON.stringify(answer)}`);
}

/** Types one character at the end of the text at `path` and waits until the server has stored it. */
async function keystroke(path: number[], i: number): Promise<void> {
  let node: Y.XmlElement | Y.XmlFragment = writer!.doc.getXmlFragment(CONTENT_FIELD);
  for (const index of path) node = node.get(index) as Y.XmlElement;
  const text = node.get(0) as Y.XmlText;
  text.insert(text.length, String.fromCharCode(97 + (i % 26)));
  await eventually(() => writer!.allDurable(), 'the keystroke to be stored');
}

answerParent<ParentMessage, ChildMessage>('close', async (message) => {
  if (message.type === 'open') {
    access = message;
    writer = await connectWriter(message.url, noteDocumentName(message.labNoteNo), message.token);
    appendTable(writer.doc, 30, 30);
    for (let i = 0; i < 20; i += 1)
      appendParagraph(writer.doc, `Observation ${i}: the solution turned pale yellow after ${i} minutes at 37 °C.`);
    await eventually(() => writer!.allDurable(), 'the note to be stored', 30_000);
    await post(api.notes.saveVersion, { labNoteNo: message.labNoteNo, version: 0, blockList: docToBlocks(content(), 'LABNOTE', []) });
    savedBlocks = docToSavedBlocks(content(), 'LABNOTE');
    return { type: 'ready' };
  }
  if (message.type === 'run') {
    for (let i = 0; i < message.calls; i += 1) {
      if (message.edit !== 'none') await keystroke(EDIT_PATH[message.edit], i);
      await post(api.notes.saveDraft, { labNoteNo: access!.labNoteNo, blockList: docToBlocks(content(), 'LABNOTE', savedBlocks) });
    }
    return { type: 'done' };
  }
  writer?.destroy();
  return null;
});
