import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { constants, deflateRaw, inflateRawSync } from 'node:zlib';
import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import { blockPartsOf, type Block, type PmNode, type TempAnswer } from '@eln/shared';
import type { Db, Queryable } from '../db/client.js';
import { base64, fixedStatement } from '../db/fixedStatement.js';
import { builtOnce } from '../db/builtOnce.js';
import { labNotes, noteDraftBlocks, noteDrafts } from '../db/schema.js';

/**
 * Whether the note being read (`lab_notes`) has changes since its last saved version, or was never saved:
 * its version is 0, or it has a temporary save. The editor temp-saves within half a second of every edit
 * stored (TIMING.tempSaveDebounceMs), and saving a version (or restoring one) removes the temporary save
 * in the same transaction, so a draft row means edits not saved as a version since. Two look-ups by key,
 * where comparing the live document with the version would load and derive every note's document, and
 * the search index's `saved_version` trails the indexer and cannot see a deleted block. What it misses:
 * an edit whose temp save never ran (its tab closed within that half second) until the next one. The
 * project close preview and the home's "My notes" both read it.
 */
export function unsavedNoteSql(): SQL {
  return sql`(${labNotes.version} = 0 or exists (select 1 from ${noteDrafts} where ${noteDrafts.noteNo} = ${labNotes.noteNo}))`;
}

/** The block list this process last stored for a note, and the key it stored it under. */
interface Written {
  key: string;
  blocks: readonly Block[];
}

/** Notes remembered at most; the oldest is forgotten first (a forgotten note's next draft is written whole). */
const REMEMBERED_NOTES = 1000;
const written = new Map<number, Written>();

function remember(noteNo: number, entry: Written): void {
  written.delete(noteNo);
  written.set(noteNo, entry);
  if (written.size > REMEMBERED_NOTES) written.delete(written.keys().next().value as number);
}

/**
 * Whether two blocks at the same position are the same. A block's table is derived from its content,
 * so the content decides; an unchanged block keeps its content string, which makes this cheap.
 */
function sameBlock(a: Block, b: Block): boolean {
  return (
    a.content === b.content &&
    a.blockUid === b.blockUid &&
    a.blockStatus === b.blockStatus &&
    a.blockOdr === b.blockOdr &&
    a.type === b.type &&
    a.blockClass === b.blockClass
  );
}

const deflate = promisify(deflateRaw);

/**
 * The rows of the blocks at `positions`, each block deflated (off the event loop, in parallel). At the
 * fastest level: a 30 x 30 table's content deflates four times faster than at the default, into a row
 * a tenth larger, and a temp save waits for it.
 */
function rowsOf(noteNo: number, blocks: readonly Block[], positions: number[]) {
  return Promise.all(
    positions.map(async (position) => ({
      noteNo,
      position,
      blockDeflated: await deflate(storedBytes(blocks[position]!), { level: constants.Z_BEST_SPEED }),
    })),
  );
}

/**
 * A block as its draft row keeps it: its fields but content and table as JSON, a line break (JSON
 * writes none), then its content as is. The content is JSON text already (a 30 x 30 table's is 150 kB):
 * inside the block's JSON it was escaped, and the table, derived from it, written out beside it, so a
 * keystroke in a cell wrote out and deflated nearly twice the content. As bytes, outside the JavaScript
 * heap, while deflate runs. A deleted block keeps its table: it is the saved version's, as stored then
 * (derived by the code of its day), not derived from the live document now.
 */
function storedBytes(block: Block): Buffer {
  const { content, blockTable, ...fields } = block;
  const header = block.blockStatus === 'DELETE' ? { ...fields, blockTable } : fields;
  return Buffer.from(`${JSON.stringify(header)}\n${content}`);
}

/** A draft row's block; a row written in the earlier format (the whole block's JSON) is read as such. */
function storedBlock(deflated: Uint8Array): Block {
  const text = inflateRawSync(deflated).toString('utf8');
  const cut = text.indexOf('\n');
  if (cut < 0) return JSON.parse(text) as Block;
  const header = JSON.parse(text.slice(0, cut)) as Omit<Block, 'content' | 'blockTable'> & { blockTable?: Block['blockTable'] };
  const content = text.slice(cut + 1);
  const blockTable = 'blockTable' in header ? header.blockTable! : blockPartsOf(JSON.parse(content) as PmNode).blockTable;
  return { ...header, blockTable, content };
}

/**
 * Stores a note's temp save. When the stored draft is the one this process last wrote (its key still
 * matches), only the blocks that differ are written, in one statement, so typing in one paragraph
 * rewrites that paragraph; otherwise (another process wrote it, a version was saved, the process
 * started) the draft is written whole. An unchanged list only moves the time and saver. Each write
 * holds the draft row from its key check to its commit, so concurrent saves never mix two lists.
 *
 * The draft is derived from the live document, which is already stored with a synchronous commit, so
 * it is written through `Services.draftsDb`, whose commits do not wait for the disk: a crash can cost
 * the last draft (the next temp save writes it again), never the note's content.
 */
export async function storeDraft(db: Db, noteNo: number, blocks: readonly Block[], savedByUserNo: number, savedAt: Date): Promise<void> {
  const previous = written.get(noteNo);
  const key = randomUUID();
  const header = { blocksKey: key, blockCount: blocks.length, savedByUserNo, savedAt };
  if (previous) {
    const changed = blocks.flatMap((block, position) =>
      previous.blocks[position] && sameBlock(previous.blocks[position], block) ? [] : [position],
    );
    if (!changed.length && previous.blocks.length === blocks.length && (await touchDraft(db, noteNo, previous.key, savedByUserNo, savedAt)))
      return;
    if (await writeChangedBlocks(db, noteNo, previous.key, header, await rowsOf(noteNo, blocks, changed))) {
      remember(noteNo, { key, blocks });
      return;
    }
  }
  // Deflated before the transaction, so the draft row is held for the writes only.
  const rows = await rowsOf(
    noteNo,
    blocks,
    blocks.map((_, position) => position),
  );
  await db.transaction(async (tx) => {
    await tx
      .insert(noteDrafts)
      .values({ noteNo, ...header })
      .onConflictDoUpdate({ target: noteDrafts.noteNo, set: header });
    await tx.delete(noteDraftBlocks).where(eq(noteDraftBlocks.noteNo, noteNo));
    if (rows.length) await tx.insert(noteDraftBlocks).values(rows);
  });
  remember(noteNo, { key, blocks });
}

interface DraftHeader {
  blocksKey: string;
  blockCount: number;
  savedByUserNo: number;
  savedAt: Date;
}
type DraftRow = typeof noteDraftBlocks.$inferInsert;

/**
 * Writes the changed blocks of the draft stored under `previousKey` and renames it to the new key, in
 * one statement (one round trip once prepared, its own transaction): the header's update takes the row
 * lock and the block writes and the trimming of positions beyond the new count run only when it
 * matched. A second save racing this one waits for the lock, then finds the key changed and writes
 * nothing. Answers whether the stored draft was the one expected.
 */
async function writeChangedBlocks(db: Db, noteNo: number, previousKey: string, header: DraftHeader, rows: DraftRow[]): Promise<boolean> {
  const positions = rows.map((row) => row.position);
  const blocks = rows.map((row) => base64(row.blockDeflated));
  const [answer] = await writeChangedDraftBlocks(db, [
    noteNo,
    previousKey,
    header.blocksKey,
    header.blockCount,
    header.savedByUserNo,
    header.savedAt.toISOString(),
    positions,
    blocks,
  ]);
  return answer!.matched > 0;
}

/**
 * writeChangedBlocks' statement, of fixed text (see fixedStatement) whatever the number of changed
 * blocks: their positions and deflated blocks go as two arrays (the blocks as base64: postgres.js cannot
 * send `bytea[]`), so it is prepared once per connection, where a statement built per call was described
 * first, a round trip of its own before every keystroke's temp save.
 */
const writeChangedDraftBlocks = fixedStatement<{ matched: number }>(
  'write_changed_draft_blocks',
  `with header as (
     update note_drafts
     set blocks_key = $3, block_count = $4::integer, saved_by_user_no = $5::integer, saved_at = $6::timestamptz
     where note_no = $1::integer and blocks_key = $2
     returning note_no
   ),
   trimmed as (
     delete from note_draft_blocks where note_no = (select note_no from header) and position >= $4::integer
   ),
   changed as (
     insert into note_draft_blocks (note_no, position, block_deflated)
     select header.note_no, changed.position, decode(changed.block, 'base64')
     from header, unnest($7::integer[], $8::text[]) as changed (position, block)
     on conflict (note_no, position) do update set block_deflated = excluded.block_deflated
   )
   select count(*)::integer as matched from header`,
);

/** Moves the time and saver of the stored draft if it is still the one stored under `key`; one statement. */
async function touchDraft(db: Db, noteNo: number, key: string, savedByUserNo: number, savedAt: Date): Promise<boolean> {
  const touched = await builtOnce(db, 'touchDraft', touchDraftQuery).execute({
    noteNo,
    key,
    savedByUserNo,
    savedAt: savedAt.toISOString(),
  });
  return touched.length > 0;
}

/** touchDraft's statement: what most temp saves run (nothing changed since the last), so built once. */
const touchDraftQuery = (q: Queryable) =>
  q
    .update(noteDrafts)
    // The builder takes placeholders in conditions only: the new values go in as SQL holding them.
    .set({ savedByUserNo: sql`${sql.placeholder('savedByUserNo')}::integer`, savedAt: sql`${sql.placeholder('savedAt')}::timestamptz` })
    .where(and(eq(noteDrafts.noteNo, sql.placeholder('noteNo')), eq(noteDrafts.blocksKey, sql.placeholder('key'))))
    .returning({ noteNo: noteDrafts.noteNo })
    .prepare('touch_draft');

export interface StoredDraft {
  blocks: Block[];
  blocksKey: string;
  savedByUserNo: number;
  savedAt: Date;
}

/** A note's stored temp save, its blocks in order, or null when it has none (none since the last version). */
export function readDraft(db: Db, noteNo: number): Promise<StoredDraft | null> {
  // One snapshot for the header and its rows, so a save in between cannot pair one draft's key with another's blocks.
  return db.transaction(
    async (tx) => {
      const [header] = await tx.select().from(noteDrafts).where(eq(noteDrafts.noteNo, noteNo));
      if (!header) return null;
      const rows = await tx
        .select({ deflated: noteDraftBlocks.blockDeflated })
        .from(noteDraftBlocks)
        .where(eq(noteDraftBlocks.noteNo, noteNo))
        .orderBy(asc(noteDraftBlocks.position));
      return {
        blocks: rows.map((row) => storedBlock(row.deflated)),
        blocksKey: header.blocksKey,
        savedByUserNo: header.savedByUserNo,
        savedAt: header.savedAt,
      };
    },
    { isolationLevel: 'repeatable read' },
  );
}

/** What a temp save answers (notes and templates alike). */
export function tempAnswer(blocks: readonly Block[], changed: boolean, savedAt: Date): TempAnswer {
  return { blockStatuses: blocks.map(({ blockUid, blockStatus }) => ({ blockUid, blockStatus })), changed, savedAt: savedAt.toISOString() };
}
