import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { constants, deflateRaw, inflateRawSync } from 'node:zlib';
import { and, asc, eq, gte, sql } from 'drizzle-orm';
import type { Block, TempAnswer } from '@eln/shared';
import type { Db, Queryable } from '../db/client.js';
import { builtOnce } from '../db/builtOnce.js';
import { noteDraftBlocks, noteDrafts } from '../db/schema.js';

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
  return a.content === b.content && a.blockUid === b.blockUid && a.blockStatus === b.blockStatus && a.blockOdr === b.blockOdr && a.type === b.type && a.blockClass === b.blockClass;
}

const deflate = promisify(deflateRaw);

/**
 * The rows of the blocks at `positions`, each block's JSON deflated (off the event loop, in parallel).
 * At the fastest level: a 30 x 30 table's 150 kB deflate four times faster than at the default, into
 * a row a tenth larger (6.2 kB instead of 5.5), and a temp save waits for it.
 */
function rowsOf(noteNo: number, blocks: readonly Block[], positions: number[]) {
  return Promise.all(
    positions.map(async (position) => ({ noteNo, position, blockDeflated: await deflate(JSON.stringify(blocks[position]), { level: constants.Z_BEST_SPEED }) })),
  );
}

const inflated = (deflated: Uint8Array): Block => JSON.parse(inflateRawSync(deflated).toString('utf8')) as Block;

/**
 * Stores a note's temp save. When the stored draft is the one this process last wrote (its key still
 * matches), only the blocks that differ are written, so typing in one paragraph rewrites that paragraph;
 * otherwise (another process wrote it, a version was saved, the process started) the draft is written
 * whole. An unchanged list only moves the time and saver. The key check and the writes are one
 * transaction holding the draft row, so concurrent saves never mix two lists.
 *
 * The draft is derived from the live document, which is already stored with a synchronous commit, so
 * it is written through `Services.draftsDb`, whose commits do not wait for the disk: a crash can cost
 * the last draft (the next temp save writes it again), never the note's content.
 */
export async function storeDraft(db: Db, noteNo: number, blocks: readonly Block[], savedByUserNo: number, savedAt: Date): Promise<void> {
  const previous = written.get(noteNo);
  const changed = previous ? blocks.flatMap((block, position) => (previous.blocks[position] && sameBlock(previous.blocks[position], block) ? [] : [position])) : [];
  if (previous && !changed.length && previous.blocks.length === blocks.length && (await touchDraft(db, noteNo, previous.key, savedByUserNo, savedAt))) return;
  const key = randomUUID();
  const everyPosition = blocks.map((_, position) => position);
  // Deflated before the transaction, so the draft row is held for the writes only.
  const rows = await rowsOf(noteNo, blocks, previous ? changed : everyPosition);
  await db.transaction(async (tx) => {
    const header = { blocksKey: key, blockCount: blocks.length, savedByUserNo, savedAt };
    const matched = previous
      ? await tx
          .update(noteDrafts)
          .set(header)
          .where(and(eq(noteDrafts.noteNo, noteNo), eq(noteDrafts.blocksKey, previous.key)))
          .returning({ noteNo: noteDrafts.noteNo })
      : [];
    if (matched.length) {
      if (rows.length) {
        await tx
          .insert(noteDraftBlocks)
          .values(rows)
          .onConflictDoUpdate({ target: [noteDraftBlocks.noteNo, noteDraftBlocks.position], set: { blockDeflated: sql`excluded.block_deflated` } });
      }
      if (blocks.length < previous!.blocks.length) await tx.delete(noteDraftBlocks).where(and(eq(noteDraftBlocks.noteNo, noteNo), gte(noteDraftBlocks.position, blocks.length)));
      return;
    }
    await tx.insert(noteDrafts).values({ noteNo, ...header }).onConflictDoUpdate({ target: noteDrafts.noteNo, set: header });
    await tx.delete(noteDraftBlocks).where(eq(noteDraftBlocks.noteNo, noteNo));
    // Someone else's draft is stored (rare): this one is written whole after all.
    const whole = previous ? await rowsOf(noteNo, blocks, everyPosition) : rows;
    if (whole.length) await tx.insert(noteDraftBlocks).values(whole);
  });
  remember(noteNo, { key, blocks });
}

/** Moves the time and saver of the stored draft if it is still the one stored under `key`; one statement. */
async function touchDraft(db: Db, noteNo: number, key: string, savedByUserNo: number, savedAt: Date): Promise<boolean> {
  const touched = await builtOnce(db, 'touchDraft', touchDraftQuery).execute({ noteNo, key, savedByUserNo, savedAt: savedAt.toISOString() });
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
      const rows = await tx.select({ deflated: noteDraftBlocks.blockDeflated }).from(noteDraftBlocks).where(eq(noteDraftBlocks.noteNo, noteNo)).orderBy(asc(noteDraftBlocks.position));
      return { blocks: rows.map((row) => inflated(row.deflated)), blocksKey: header.blocksKey, savedByUserNo: header.savedByUserNo, savedAt: header.savedAt };
    },
    { isolationLevel: 'repeatable read' },
  );
}

/** What a temp save answers (notes and templates alike). */
export function tempAnswer(blocks: readonly Block[], changed: boolean, savedAt: Date): TempAnswer {
  return { blockStatuses: blocks.map(({ blockUid, blockStatus }) => ({ blockUid, blockStatus })), changed, savedAt: savedAt.toISOString() };
}
