import { count, sql } from 'drizzle-orm';
import { canonicalRecordNo, parseDocumentName } from '../collab/documents/documentKinds.js';
import type { Db, Queryable, Tx } from '../db/client.js';
import { Drains } from '../db/drains.js';
import { fixedStatement } from '../db/fixedStatement.js';
import { searchQueue } from '../db/schema.js';
import { writeFileUnits } from './fileUnits.js';
import { KINDS, type Indexed, type IndexedKind, type StoredDocuments, type UnitRow } from './records.js';
import { StoredStates } from './storedStates.js';
import { restAfter } from './background.js';

/**
 * How often each process looks at the queue. An edit is findable within 2 s of being stored (issue 46):
 * at most this wait, then one pass (a batch's states read from what was stored since their last read,
 * their changed blocks written: a few ms). On a server whose event loop is busy with live editing the
 * indexer rests longer (background.ts): edits are stored and confirmed first, found later.
 */
const POLL_MS = 250;
/** Documents indexed in one transaction by a rebuild, which runs alone. */
const BATCH = 50;
/**
 * Documents indexed in one transaction while the server serves: the indexer rests after each batch
 * (restAfter), so a smaller batch is a shorter hold of the event loop. A pass takes at most 1,000.
 */
const LIVE_BATCH = 10;
const BATCHES_PER_PASS = 100;

/** Where the indexer reports a document it could not index (the server's logger, or the console). */
export interface IndexerLog {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

interface QueueEntry {
  document_name: string;
  /** bigint: text or a number, whichever the driver answers. */
  seq: string | number | bigint;
}

/** The oldest entries not among those given. */
const oldestQueued = fixedStatement<QueueEntry>(
  'search_oldest_queued',
  'select document_name, seq from search_queue where not (document_name = any($1::text[])) order by seq limit $2',
);

/**
 * The documents' advisory locks, in one order whoever takes them (two processes' batches may share
 * documents), so that neither waits for the other in a cycle.
 */
const lockDocuments = fixedStatement(
  'search_lock_documents',
  `select pg_advisory_xact_lock(k) from (
    select distinct hashtext('search:' || name) as k from unnest($1::text[]) as name order by k) as keys`,
);

const queueEntries = fixedStatement<QueueEntry>(
  'search_queue_entries',
  'select document_name, seq from search_queue where document_name = any($1::text[])',
);

/** Removes each entry only if it is still the one read: an update stored since renewed its seq, and it stays. */
const removeEntries = fixedStatement(
  'search_remove_entries',
  `delete from search_queue q using unnest($1::text[], $2::bigint[]) as e(document_name, seq)
    where q.document_name = e.document_name and q.seq = e.seq`,
);

/** The records' stored units, their text as its md5 (what a unit's text is compared by). */
const storedUnits = fixedStatement<{
  kind: IndexedKind;
  record_no: number;
  block_uid: string;
  block_order: number;
  project_no: number | null;
  saved_version: number | null;
  digest: string;
}>(
  'search_stored_units',
  `select s.kind, s.record_no, s.block_uid, s.block_order, s.project_no, s.saved_version, md5(s.text) as digest
    from unnest($1::text[], $2::int[]) as r(kind, record_no)
      cross join lateral (select * from search_units where kind = r.kind and record_no = r.record_no and file_id is null) as s`,
);

const deleteUnits = fixedStatement(
  'search_delete_units',
  `delete from search_units s using unnest($1::text[], $2::int[], $3::text[]) as g(kind, record_no, block_uid)
    where s.kind = g.kind and s.record_no = g.record_no and s.block_uid = g.block_uid`,
);

const upsertUnits = fixedStatement(
  'search_upsert_units',
  `insert into search_units (kind, record_no, block_uid, project_no, block_order, text, vector, saved_version)
    select kind, record_no, block_uid, project_no, block_order, text, vector::tsvector, saved_version
    from unnest($1::text[], $2::int[], $3::text[], $4::int[], $5::int[], $6::text[], $7::text[], $8::int[])
      as u(kind, record_no, block_uid, project_no, block_order, text, vector, saved_version)
    on conflict (kind, record_no, block_uid) do update set project_no = excluded.project_no, block_order = excluded.block_order,
      text = excluded.text, vector = excluded.vector, saved_version = excluded.saved_version,
      indexed_at = case when search_units.text = excluded.text then search_units.indexed_at else now() end`,
);

/** Queues a document to be indexed again (a note deleted: its rows go at the next pass). */
export async function queueForSearch(q: Queryable, documentName: string): Promise<void> {
  await q
    .insert(searchQueue)
    .values({ documentName })
    .onConflictDoUpdate({ target: searchQueue.documentName, set: { seq: sql`excluded.seq` } });
}

/**
 * Queues every note, template, project, schema type and dropbox, and every record the index holds rows
 * of (so the rows of one gone are removed): `npm run search:rebuild`. Answers how many are queued.
 */
export async function queueEverything(db: Db): Promise<number> {
  const indexed = sql.join(
    // A note's attachments are indexed with the note (search/fileUnits.ts).
    [...Object.entries(KINDS).map(([prefix, { kind }]) => sql`when ${kind} then ${prefix}`), sql`when 'file' then 'labnote'`],
    sql` `,
  );
  await db.execute(sql`insert into search_queue (document_name)
    select 'labnote.' || note_no from lab_notes
    union select 'template.' || template_no from templates
    union select 'project.' || project_no from projects
    union select 'schema.' || schemas_type_no from schema_types
    union select 'dropbox.' || dropbox_no from dropboxes
    union select (case kind ${indexed} end) || '.' || record_no from search_units
    on conflict (document_name) do update set seq = excluded.seq`);
  const [queued] = await db.select({ n: count() }).from(searchQueue);
  return Number(queued?.n ?? 0);
}

/**
 * What else follows from a note's stored content, looked at as the indexer reads it: in the indexing
 * transaction, under the notes' locks, with the live (not deleted) notes read. Answers the documents to
 * look at again at a later pass (queued anew once the transaction is over).
 */
export interface StoredNoteWatcher {
  notesStored(tx: Tx, noteNos: readonly number[], stored: StoredDocuments): Promise<string[]>;
}

interface Derived {
  kind: IndexedKind;
  recordNo: number;
  record: Indexed | null;
  files: (typeof KINDS)[string]['files'];
}

/**
 * Derives the search index from the live documents, in every server process: the queue (search_queue)
 * is filled in the same transaction as each stored update (a trigger), so nothing stored is missed across
 * restarts and crashes; any process may take any entry. A batch of documents is indexed in one
 * transaction under their advisory locks, reading the queue entries' `seq` first; each entry is removed
 * after the commit, and only if it is still that one: an update stored during the pass renews it, and the
 * document is indexed again. The notes' states are kept between passes (StoredStates), so a note being
 * edited costs each pass what was stored since the one before, not its whole state.
 */
export class SearchIndexer {
  private stopped = false;
  /** Ends a rest at once when the indexer stops. */
  private resting = new AbortController();
  private readonly states = new StoredStates();
  private readonly drains = new Drains(
    () => this.drain(),
    (error: unknown) => this.log.error({ err: error }, 'search indexing failed'),
  );

  constructor(
    private readonly db: Db,
    private readonly log: IndexerLog,
    /** What follows from stored notes besides their words (the mentions they notify of). */
    private readonly watchers: readonly StoredNoteWatcher[] = [],
  ) {}

  start(): void {
    this.stopped = false;
    this.resting = new AbortController();
    this.drains.start(POLL_MS);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.resting.abort();
    await this.drains.stop();
  }

  /**
   * Indexes what is queued, oldest first, a bounded number of batches a pass (the next poll goes on),
   * resting after each batch (restAfter). Each document at most once a pass: one queued again while the
   * pass ran (it is being edited) waits for the next poll, rather than being taken again at once for as
   * long as the editing lasts.
   */
  private async drain(): Promise<void> {
    const done: string[] = [];
    for (let batch = 0; batch < BATCHES_PER_PASS; batch += 1) {
      if (this.stopped) return;
      const began = performance.now();
      const { taken } = await this.indexBatch(done, LIVE_BATCH);
      done.push(...taken);
      if (taken.length) await restAfter(performance.now() - began, this.resting.signal);
      if (taken.length < LIVE_BATCH) return;
    }
  }

  /**
   * Indexes one batch of the queue, oldest first, leaving out `skip`; answers the documents it took and
   * those that failed. When the batch fails, each document is indexed alone: one that fails is queued
   * again behind the others and logged, so it never holds up the rest.
   */
  private async indexBatch(skip: readonly string[], size: number): Promise<{ taken: string[]; failed: string[] }> {
    const taken = (await oldestQueued(this.db, [skip, size])).map((entry) => entry.document_name);
    if (!taken.length) return { taken, failed: [] };
    try {
      await this.indexCommitted(taken);
      return { taken, failed: [] };
    } catch {
      const failed: string[] = [];
      for (const documentName of taken) {
        try {
          await this.indexCommitted([documentName]);
        } catch (error) {
          this.log.warn({ err: error, documentName }, 'search: a document could not be indexed; queued again');
          await queueForSearch(this.db, documentName);
          failed.push(documentName);
        }
      }
      return { taken, failed };
    }
  }

  /**
   * Indexes everything queued, until the queue is empty (other processes may take entries meanwhile),
   * telling `progress` how many are left after each batch. A document that fails stays queued, is tried
   * no more here, and is answered.
   */
  async indexAll(progress: (left: number) => void): Promise<string[]> {
    const failed: string[] = [];
    for (;;) {
      const batch = await this.indexBatch(failed, BATCH);
      failed.push(...batch.failed);
      const [left] = await this.db.select({ n: count() }).from(searchQueue);
      progress(Math.max(0, Number(left?.n ?? 0) - failed.length));
      if (batch.taken.length === 0) return failed;
    }
  }

  /**
   * Indexes the documents in one transaction, then removes their entries. Removed after the commit, in a
   * statement of their own: the store's trigger renews these same rows with every stored update, and
   * a row removed inside the transaction would hold those appends (every note of their group commit)
   * until it ended.
   */
  private async indexCommitted(documentNames: string[]): Promise<void> {
    const { entries, again } = await this.db.transaction((tx) => this.indexDocuments(tx, documentNames));
    if (entries.length)
      await removeEntries(this.db, [entries.map((entry) => entry.document_name), entries.map((entry) => String(entry.seq))]);
    for (const documentName of again) await queueForSearch(this.db, documentName);
  }

  /**
   * Writes the queued documents' units under their locks, and shows the notes read to the watchers;
   * answers the entries read, to be removed, and the documents a watcher wants to look at again.
   */
  private async indexDocuments(tx: Tx, documentNames: string[]): Promise<{ entries: QueueEntry[]; again: string[] }> {
    await lockDocuments(tx, [documentNames]);
    const entries = await queueEntries(tx, [documentNames]);
    const recordsByPrefix = new Map<string, Set<number>>();
    for (const { document_name: name } of entries) {
      const parsed = parseDocumentName(name);
      const recordNo = parsed ? canonicalRecordNo(parsed.id) : null;
      // Names of no indexed kind are only removed from the queue.
      if (!parsed || recordNo === null || !Object.hasOwn(KINDS, parsed.prefix)) continue;
      recordsByPrefix.set(parsed.prefix, (recordsByPrefix.get(parsed.prefix) ?? new Set()).add(recordNo));
    }
    const stored: StoredDocuments = (names) => this.states.load(tx, names);
    const derived: Derived[] = [];
    for (const [prefix, recordNos] of recordsByPrefix) {
      const { kind, read } = KINDS[prefix]!;
      for (const [recordNo, record] of await read(tx, [...recordNos], stored)) {
        derived.push({ kind, recordNo, record, files: KINDS[prefix]!.files });
        if (!record) this.states.forget(`${prefix}.${recordNo}`);
      }
    }
    await writeUnits(tx, derived);
    const notes = derived.filter((d) => d.kind === 'note' && d.record).map((d) => d.recordNo);
    const again: string[] = [];
    for (const watcher of this.watchers) again.push(...(await watcher.notesStored(tx, notes, stored)));
    // A record's file blocks: their units are copied from the contents' parts (search/fileUnits.ts).
    for (const { recordNo, record, files } of derived) {
      if (files)
        await writeFileUnits(
          tx,
          { kind: files.kind, recordNo, projectNo: record?.projectNo ?? null, owns: files.owns(recordNo) },
          record?.files ?? [],
        );
    }
    return { entries, again: [...new Set(again)] };
  }
}

interface StoredUnit {
  blockOrder: number;
  projectNo: number | null;
  savedVersion: number | null;
  digest: string;
}

/** The records' stored units, by record (`kind.no`) and block uid. */
async function unitsStored(tx: Tx, derived: Derived[]): Promise<Map<string, Map<string, StoredUnit>>> {
  const byRecord = new Map<string, Map<string, StoredUnit>>();
  for (const row of await storedUnits(tx, [derived.map((d) => d.kind), derived.map((d) => d.recordNo)])) {
    const key = `${row.kind}.${row.record_no}`;
    const units = byRecord.get(key) ?? new Map<string, StoredUnit>();
    units.set(row.block_uid, {
      blockOrder: row.block_order,
      projectNo: row.project_no,
      savedVersion: row.saved_version,
      digest: row.digest,
    });
    byRecord.set(key, units);
  }
  return byRecord;
}

interface UnitToWrite extends UnitRow {
  kind: IndexedKind;
  recordNo: number;
  projectNo: number | null;
}

/** Writes the records' changed units and removes those gone (all of a record's when it is gone). */
async function writeUnits(tx: Tx, derived: Derived[]): Promise<void> {
  if (!derived.length) return;
  const stored = await unitsStored(tx, derived);
  const gone: Array<{ kind: IndexedKind; recordNo: number; blockUid: string }> = [];
  const changed: UnitToWrite[] = [];
  for (const { kind, recordNo, record } of derived) {
    const had = stored.get(`${kind}.${recordNo}`) ?? new Map<string, StoredUnit>();
    const wanted = new Set(record?.units.map((unit) => unit.blockUid));
    for (const blockUid of had.keys()) if (!wanted.has(blockUid)) gone.push({ kind, recordNo, blockUid });
    if (!record) continue;
    const { projectNo } = record;
    for (const unit of record.units) {
      const before = had.get(unit.blockUid);
      if (
        !before ||
        before.digest !== unit.digest ||
        before.blockOrder !== unit.blockOrder ||
        before.projectNo !== projectNo ||
        before.savedVersion !== unit.savedVersion
      )
        changed.push({ ...unit, kind, recordNo, projectNo });
    }
  }
  if (gone.length) await deleteUnits(tx, [gone.map((g) => g.kind), gone.map((g) => g.recordNo), gone.map((g) => g.blockUid)]);
  if (changed.length)
    await upsertUnits(
      tx,
      (['kind', 'recordNo', 'blockUid', 'projectNo', 'blockOrder', 'text', 'vector', 'savedVersion'] as const).map((column) =>
        changed.map((unit) => unit[column]),
      ),
    );
}
