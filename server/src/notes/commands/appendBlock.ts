import Papa from 'papaparse';
import { prosemirrorJSONToYDoc } from '@tiptap/y-tiptap';
import * as Y from 'yjs';
import {
  COLLAB_LIMITS,
  CONTENT_FIELD,
  contentViolations,
  ERR,
  LIMITS,
  newBlockUid,
  noteDocumentName,
  type api,
  type CallRequest,
  type NoteBlockAppendAnswer,
  type PmNode,
} from '@eln/shared';
import { noteSchema, schemaViolation } from '@eln/shared/editor';
import { and, eq } from 'drizzle-orm';
import { appendAudit, auditedActor } from '../../audit/audit.js';
import { files } from '../../db/schema.js';
import { attachmentNode } from '../../exports/eln/importContent.js';
import type { Actor } from '../../auth/authUser.js';
import { AppError } from '../../http/errors.js';
import type { Services } from '../../services.js';
import { documentHasUnstorableText } from '../contentCheck.js';
import { requireWritableNote } from '../queries.js';

type AppendRequest = CallRequest<typeof api.notes.appendBlock>;

/**
 * Appends one block a script or an instrument sends (`/note/block/append`) at the end of the note's
 * live document, as restoring a version changes it: through a direct connection, stored before the
 * answer, seen at once by every open editor. Whoever may write the note (`canWriteNote`: refused on
 * signed, finished and closed-project notes and for non-participants); the block is checked with the
 * editor's schema and content rules before the document changes, so a refusal changes nothing. The
 * append is audited once stored; saving a version stays the writer's act (`/note/save`).
 */
export async function appendBlock(services: Services, actor: Actor, input: AppendRequest): Promise<NoteBlockAppendAnswer> {
  const { db, live } = services;
  const ctx = await requireWritableNote(db, actor.user, input.labNoteNo);
  const noteNo = ctx.note.noteNo;
  const block =
    'table' in input
      ? tableFromCsv(input.table, input.headerRow)
      : 'file' in input
        ? await fileBlock(services, noteNo, input.file)
        : paragraphBlock(input.paragraph);
  const doc: PmNode = { type: 'doc', content: [block.node] };
  if (documentHasUnstorableText(doc)) throw new AppError(ERR.unsupportedCharacters);
  const schemaProblem = schemaViolation(doc);
  if (schemaProblem) throw new AppError(ERR.noteContent, { data: { violations: [{ rule: 'schema', detail: schemaProblem }] } });
  const violations = contentViolations(doc);
  if (violations.length) throw new AppError(ERR.noteContent, { data: { violations } });
  const yDoc = prosemirrorJSONToYDoc(noteSchema(), doc, CONTENT_FIELD);
  const source = Y.encodeStateAsUpdate(yDoc);
  yDoc.destroy();
  await live.appendContent(noteDocumentName(noteNo), source, (stateBytes) => {
    if (stateBytes + source.byteLength > COLLAB_LIMITS.documentBytes) throw new AppError(ERR.appendDocumentTooLarge);
  });
  const answer: NoteBlockAppendAnswer = { blockUid: block.uid, type: block.type, rows: block.rows, columns: block.columns };
  await db.transaction((tx) =>
    appendAudit(tx, { ...auditedActor(actor), action: 'note.blockAppended', target: { type: 'note', id: noteNo }, after: answer }),
  );
  return answer;
}

interface NewBlock {
  node: PmNode;
  uid: string;
  type: NoteBlockAppendAnswer['type'];
  rows: number;
  columns: number;
}

const cellText = (text: string): PmNode[] => (text ? [{ type: 'paragraph', content: [{ type: 'text', text }] }] : [{ type: 'paragraph' }]);

/**
 * CSV text (its delimiter guessed by papaparse: comma, semicolon, tab…) as the editor's table, each row
 * padded to the widest, blank lines skipped; line breaks inside a quoted cell become spaces (a cell is
 * one paragraph). 2050 when a quote is left open or there is no cell, 2051 past LIMITS.tableMaxSide.
 */
export function tableFromCsv(csv: string, headerRow: boolean): NewBlock {
  const parsed = Papa.parse<string[]>(csv.replace(/^\uFEFF/, ''), { skipEmptyLines: 'greedy' });
  if (parsed.errors.some((error) => error.type === 'Quotes')) throw new AppError(ERR.appendCsvUnreadable);
  const rows = parsed.data;
  const columns = Math.max(0, ...rows.map((row) => row.length));
  if (!rows.length || !columns) throw new AppError(ERR.appendCsvUnreadable);
  if (rows.length > LIMITS.tableMaxSide || columns > LIMITS.tableMaxSide)
    throw new AppError(ERR.appendTableTooLarge, { params: { max: LIMITS.tableMaxSide } });
  const uid = newBlockUid();
  const node: PmNode = {
    type: 'table',
    attrs: { blockUid: uid },
    content: rows.map((row, r) => ({
      type: 'tableRow',
      content: Array.from({ length: columns }, (_, c) => ({
        type: headerRow && r === 0 ? 'tableHeader' : 'tableCell',
        attrs: { colspan: 1, rowspan: 1 },
        content: cellText((row[c] ?? '').replace(/\s*[\r\n]+\s*/g, ' ').trim()),
      })),
    })),
  };
  return { node, uid, type: 'table', rows: rows.length, columns };
}

/** The block that shows a file uploaded to this note (9002 for any other file). */
async function fileBlock(services: Services, noteNo: number, fileId: string): Promise<NewBlock> {
  const [file] = await services.db
    .select({ fileId: files.fileId, name: files.originName, kind: files.kind, size: files.size, extension: files.extension })
    .from(files)
    .where(and(eq(files.fileId, fileId), eq(files.noteNo, noteNo)));
  if (!file) throw new AppError(ERR.notFound);
  const node = attachmentNode(file);
  return { node, uid: String(node.attrs?.blockUid), type: file.kind, rows: 0, columns: 0 };
}

/** A paragraph of text; each line break stays a hard break, as Shift+Enter in the editor. */
function paragraphBlock(text: string): NewBlock {
  const uid = newBlockUid();
  const lines = text.split(/\r\n|\r|\n/);
  const content = lines.flatMap((line, index): PmNode[] => [
    ...(index > 0 ? [{ type: 'hardBreak' }] : []),
    ...(line ? [{ type: 'text', text: line }] : []),
  ]);
  return { node: { type: 'paragraph', attrs: { blockUid: uid }, content }, uid, type: 'paragraph', rows: 0, columns: 0 };
}
