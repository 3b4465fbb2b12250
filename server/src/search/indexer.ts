import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { blockSearchText, noteDocumentName, type PmNode } from '@eln/shared';
import { snapshotOfState } from '../collab/documents/contentSnapshots.js';
import { canonicalRecordNo, parseDocumentName } from '../collab/documents/documentKinds.js';
import { loadDocumentState } from '../collab/persistence/documentStore.js';
import type { Db, Queryable, Tx } from '../db/client.js';
import { Drains } from '../db/drains.js';
import { labNotes, searchQueue, searchUnits } from '../db/schema.js';
import { vectorLiteral } from './tokens.js';

/**
 * How often each process looks at the queue. An edit is findable within 2 s of being stored (issue 46):
 * at most this wait, then one pass (a note's state read and its changed blocks written, a few ms).
 */
const POLL_MS = 250;
/** Documents taken per look at the queue. */
const BATCH = 20;
const BATCHES_PER_PASS = 50;
const NOTE_PREFIX = 'labnote';

interface UnitRow {
  blockUid: string;
  blockOrder: number;
  text: string;
  vector: string;
}

/** Queues a document to be indexed again (a note deleted: its rows go at the next pass). */
export async function queueForSearch(q: Queryable, documentName: string): Promise<void> {
  await q
    .insert(searchQueue)
    .values({ documentName })
    .onConflictDoUpdate({ target: searchQueue.documentName, set: { seq: sql`excluded.seq` } });
}

/** A note's units: its title (order 0) and each block with words, as the live document holds them now. */
function noteUnits(title: string, state: Uint8Array | null): UnitRow[] {
  const units: UnitRow[] = [{ blockUid: '', blockOrder: 0, text: title, vector: vectorLiteral([{ text: title, weight: 'A' }]) }];
  if (!state) return units;
  const seen = new Set<string>();
  for (const block of snapshotOfState(state).savedBlocks('LABNOTE')) {
    // A pasted block can repeat a uid until the editor renews it; the first one stands for it.
    if (seen.has(block.blockUid)) continue;
    seen.add(block.blockUid);
    const { heading, body } = blockSearchText(JSON.parse(block.content) as PmNode);
    const vector = vectorLiteral([
      { text: heading, weight: 'A' },
      { text: body, weight: 'D' },
    ]);
    if (vector === '') continue;
    units.push({ blockUid: block.blockUid, blockOrder: block.blockOdr, text: [heading, body].filter(Boolean).join('\n'), vector });
  }
  return units;
}

/**
 * Derives the search index from the live documents, in every server process: the queue (search_queue)
 * is filled in the same transaction as each stored update (a trigger), so nothing stored is missed across
 * restarts and crashes; any process may take any entry. A document is indexed under its own advisory
 * lock, reading the queue entry's `seq` first and removing the entry only if it is still that one: an
 * update stored during the pass renews it, and the document is indexed again.
 */
export class SearchIndexer {
  private stopped = false;
  private readonly drains = new Drains(
    () => this.drain(),
    (error: unknown) => this.log.error({ err: error }, 'search indexing failed'),
  );

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
  ) {}

  start(): void {
    this.stopped = false;
    this.drains.start(POLL_MS);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.drains.stop();
  }

  /**
   * Indexes what is queued, oldest first, a bounded number of batches a pass (the next poll goes on). A
   * document that fails is queued again behind the others and logged, so it never holds up the rest.
   */
  private async drain(): Promise<void> {
    for (let batch = 0; batch < BATCHES_PER_PASS; batch += 1) {
      if (this.stopped) return;
      const queued = await this.db.select().from(searchQueue).orderBy(asc(searchQueue.seq)).limit(BATCH);
      for (const { documentName } of queued) {
        try {
          await this.db.transaction((tx) => this.indexDocument(tx, documentName));
        } catch (error) {
          this.log.warn({ err: error, documentName }, 'search: a document could not be indexed; queued again');
          await queueForSearch(this.db, documentName);
        }
      }
      if (queued.length < BATCH) return;
    }
  }

  private async indexDocument(tx: Tx, documentName: string): Promise<void> {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`search:${documentName}`}))`);
    const [entry] = await tx.select().from(searchQueue).where(eq(searchQueue.documentName, documentName));
    if (!entry) return;
    const parsed = parseDocumentName(documentName);
    const noteNo = parsed?.prefix === NOTE_PREFIX ? canonicalRecordNo(parsed.id) : null;
    if (noteNo !== null && noteDocumentName(noteNo) === documentName) await this.indexNote(tx, noteNo);
    await tx.delete(searchQueue).where(and(eq(searchQueue.documentName, documentName), eq(searchQueue.seq, entry.seq)));
  }

  /** Writes the note's changed units and removes those gone (all of them when the note is deleted). */
  private async indexNote(tx: Tx, noteNo: number): Promise<void> {
    const [note] = await tx
      .select({ projectNo: labNotes.projectNo, title: labNotes.title, deletedAt: labNotes.deletedAt })
      .from(labNotes)
      .where(eq(labNotes.noteNo, noteNo));
    const ofNote = and(eq(searchUnits.kind, 'note'), eq(searchUnits.recordNo, noteNo));
    if (!note || note.deletedAt) {
      await tx.delete(searchUnits).where(ofNote);
      return;
    }
    const wanted = noteUnits(note.title, await loadDocumentState(tx, noteDocumentName(noteNo)));
    const existing = await tx
      .select({
        blockUid: searchUnits.blockUid,
        blockOrder: searchUnits.blockOrder,
        text: searchUnits.text,
        projectNo: searchUnits.projectNo,
      })
      .from(searchUnits)
      .where(ofNote);
    const had = new Map(existing.map((row) => [row.blockUid, row]));
    const gone = existing.filter((row) => !wanted.some((unit) => unit.blockUid === row.blockUid)).map((row) => row.blockUid);
    if (gone.length) await tx.delete(searchUnits).where(and(ofNote, inArray(searchUnits.blockUid, gone)));
    const changed = wanted.filter((unit) => {
      const before = had.get(unit.blockUid);
      return !before || before.text !== unit.text || before.blockOrder !== unit.blockOrder || before.projectNo !== note.projectNo;
    });
    if (!changed.length) return;
    await tx
      .insert(searchUnits)
      .values(changed.map((unit) => ({ kind: 'note' as const, recordNo: noteNo, projectNo: note.projectNo, ...unit })))
      .onConflictDoUpdate({
        target: [searchUnits.kind, searchUnits.recordNo, searchUnits.blockUid],
        set: {
          projectNo: sql`excluded.project_no`,
          blockOrder: sql`excluded.block_order`,
          text: sql`excluded.text`,
          vector: sql`excluded.vector`,
          indexedAt: sql`now()`,
        },
      });
  }
}
