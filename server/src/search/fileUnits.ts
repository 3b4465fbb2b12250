import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { and, eq, inArray, isNotNull, sql, type SQL } from 'drizzle-orm';
import { NODE, type FileTextStatus, type PmNode, type SavedBlock } from '@eln/shared';
import { z } from 'zod';
import { rawRows, type Tx } from '../db/client.js';
import { files, fileTexts, searchUnits } from '../db/schema.js';
import { normalise, tokensOf, vectorLiteral } from './tokens.js';

/**
 * Attachments in the search index (issue 46): each file block of a note (kind `file`) or of a template
 * (kind `template`) is indexed as its file's name and extracted text, in parts: `<blockUid>#<part>`, part
 * 0 beginning with the name. The parts are made once per stored content (file_text_parts, when its text
 * is extracted) and copied here in SQL, so indexing a note does not read or split its attachments' text.
 */

/** Words a part holds at most: positions stay below PostgreSQL's 16383 with the file's name before part 0's text. */
const PART_WORDS = 15_000;
/** Characters a part holds at most: its words are made in one turn of the event loop (~15 ms for 30,000 characters). */
const PART_CHARS = 30_000;
/** A line longer than this (a PDF page with no line ends) is cut, at a space where there is one. */
const LONG_LINE = 4_000;
/** Lines split between two yields to the event loop (live editing runs on the same thread). */
const LINES_PER_TURN = 500;

/** Separates a file block's uid from its part's number in a unit's uid. */
export const FILE_PART = '#';

/** The block uid of a file part's unit (its block's uid), or the unit's uid as it is. */
export const blockUidOfPart = (unitUid: string): string => unitUid.split(FILE_PART)[0] ?? unitUid;

function* linesOf(text: string): Generator<string> {
  for (const line of text.split('\n')) {
    let rest = line;
    while (rest.length > LONG_LINE) {
      const space = rest.lastIndexOf(' ', LONG_LINE);
      const cut = space > LONG_LINE / 2 ? space : /[\uDC00-\uDFFF]/.test(rest[LONG_LINE] ?? '') ? LONG_LINE - 1 : LONG_LINE;
      yield rest.slice(0, cut);
      rest = rest.slice(cut).trimStart();
    }
    if (rest) yield rest;
  }
}

/**
 * An extracted text's parts, whole lines each, with their words (weight D): yielding to the event loop
 * as it goes, since a text at LIMITS.fileTextChars takes ~0.7 s to split and index.
 */
export async function textParts(text: string): Promise<Array<{ text: string; vector: string }>> {
  const parts: Array<{ text: string; vector: string }> = [];
  let lines: string[] = [];
  let words = 0;
  let chars = 0;
  const close = async () => {
    if (!lines.length) return;
    const partText = lines.join('\n');
    parts.push({ text: partText, vector: vectorLiteral([{ text: partText, weight: 'D' }]) });
    lines = [];
    words = 0;
    chars = 0;
    await yieldToEventLoop();
  };
  let count = 0;
  for (const line of linesOf(text)) {
    const lineWords = tokensOf(normalise(line)).length;
    if (words + lineWords > PART_WORDS || chars + line.length > PART_CHARS) await close();
    lines.push(line);
    words += lineWords;
    chars += line.length + 1;
    count += 1;
    if (count % LINES_PER_TURN === 0) await yieldToEventLoop();
  }
  await close();
  return parts;
}

const FILE_ID = z.uuid();

/** Text a LIKE pattern matches as it is. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, '\\$&');

/** A file block: where it is (uid, with a template draft's prefix) and the file it shows. */
export interface FileBlock {
  blockUid: string;
  blockOrder: number;
  fileId: string;
  /** A note's: its last saved version when that version shows this file here; null otherwise (see UnitRow). */
  savedVersion?: number | null;
}

/** The file blocks of a document's saved blocks, their uids prefixed by `uidPrefix`. */
export function fileBlocksOf(blocks: readonly SavedBlock[], uidPrefix = ''): FileBlock[] {
  const found = new Map<string, FileBlock>();
  for (const block of blocks) {
    if (block.type !== 'file' || found.has(block.blockUid)) continue;
    const node = JSON.parse(block.content) as PmNode;
    const fileId = node.type === NODE.file ? node.attrs?.fileId : undefined;
    // Only a stored file's id (a uuid) names a file; anything else a document holds names none.
    if (typeof fileId === 'string' && FILE_ID.safeParse(fileId).success)
      found.set(block.blockUid, { blockUid: `${uidPrefix}${block.blockUid}`, blockOrder: block.blockOdr, fileId });
  }
  return [...found.values()];
}

type FileUnitKind = 'file' | 'template';

/** Where a record's file blocks' units are indexed, and which files it owns (a block naming another record's file finds nothing). */
export interface FileUnitsOf {
  kind: FileUnitKind;
  recordNo: number;
  projectNo: number | null;
  owns: SQL | undefined;
}

interface ExistingBlock {
  fileId: string | null;
  fileText: FileTextStatus | null;
  blockOrder: number;
  projectNo: number | null;
  savedVersion: number | null;
}

/**
 * Writes a record's file units as its file blocks are now: a block whose file or text state changed is
 * written again from its content's parts, one only moved gets its new place, one gone loses its units.
 * A file whose text is not extracted (yet, or at all) is one unit of its name, saying so.
 */
export async function writeFileUnits(tx: Tx, of: FileUnitsOf, blocks: readonly FileBlock[]): Promise<void> {
  const ofRecord = and(eq(searchUnits.kind, of.kind), eq(searchUnits.recordNo, of.recordNo), isNotNull(searchUnits.fileId));
  const ids = [...new Set(blocks.map((block) => block.fileId))];
  const owned = ids.length
    ? await tx
        .select({ fileId: files.fileId, name: files.originName, sha256: files.sha256, status: fileTexts.status })
        .from(files)
        .leftJoin(fileTexts, eq(fileTexts.sha256, files.sha256))
        .where(and(inArray(files.fileId, ids), eq(files.kind, 'file'), of.owns))
    : [];
  const fileOf = new Map(owned.map((file) => [file.fileId, file]));
  const existing = new Map<string, ExistingBlock>();
  for (const unit of await tx
    .select({
      blockUid: searchUnits.blockUid,
      fileId: searchUnits.fileId,
      fileText: searchUnits.fileText,
      blockOrder: searchUnits.blockOrder,
      projectNo: searchUnits.projectNo,
      savedVersion: searchUnits.savedVersion,
    })
    .from(searchUnits)
    .where(ofRecord))
    existing.set(blockUidOfPart(unit.blockUid), unit);
  const partsOf = (blockUid: string) => and(ofRecord, sql`${searchUnits.blockUid} like ${`${likeLiteral(blockUid)}${FILE_PART}%`}`);
  const wanted = new Set<string>();
  for (const block of blocks) {
    const file = fileOf.get(block.fileId);
    if (!file) continue;
    wanted.add(block.blockUid);
    const before = existing.get(block.blockUid);
    const status = file.status ?? 'pending';
    const savedVersion = block.savedVersion ?? null;
    if (before && before.fileId === file.fileId && before.fileText === status) {
      if (before.blockOrder !== block.blockOrder || before.projectNo !== of.projectNo || before.savedVersion !== savedVersion)
        await tx
          .update(searchUnits)
          .set({ blockOrder: block.blockOrder, projectNo: of.projectNo, savedVersion })
          .where(partsOf(block.blockUid));
      continue;
    }
    if (before) await tx.delete(searchUnits).where(partsOf(block.blockUid));
    await insertParts(tx, of, block, { ...file, status });
  }
  const gone = [...existing.keys()].filter((blockUid) => !wanted.has(blockUid));
  for (const blockUid of gone) await tx.delete(searchUnits).where(partsOf(blockUid));
}

/** A file block's units: its name (weight A) before the first part of its text, each part a unit; its name alone when there is no text. */
async function insertParts(
  tx: Tx,
  of: FileUnitsOf,
  block: FileBlock,
  file: { fileId: string; name: string; sha256: string; status: FileTextStatus },
): Promise<void> {
  const name = vectorLiteral([{ text: file.name, weight: 'A' }]);
  const common = sql`${of.kind}, ${of.recordNo}, ${of.projectNo}::integer, ${block.blockOrder}::integer, ${file.fileId}::uuid, ${file.status}, ${block.savedVersion ?? null}::integer`;
  const columns = sql`(kind, record_no, project_no, block_order, file_id, file_text, saved_version, block_uid, text, vector)`;
  if (file.status === 'extracted') {
    const [copied] = await rawRows<{ n: number }>(
      tx,
      sql`with inserted as (insert into search_units ${columns}
      select ${common}, ${block.blockUid} || ${FILE_PART} || part,
        case when part = 0 then ${file.name} || E'\n' || text else text end,
        case when part = 0 then ${name}::tsvector || vector else vector end
      from file_text_parts where sha256 = ${file.sha256} returning 1) select count(*)::integer as n from inserted`,
    );
    if (Number(copied?.n ?? 0) > 0) return;
  }
  await tx.execute(sql`insert into search_units ${columns}
    values (${common}, ${`${block.blockUid}${FILE_PART}0`}, ${file.name}, ${name}::tsvector)`);
}
