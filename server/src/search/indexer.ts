import { and, asc, count, eq, inArray, isNull, notInArray, sql, type SQL } from 'drizzle-orm';
import {
  blockSearchText,
  noteDocumentName,
  SCHEMA_STATUS,
  TEMPLATE_STATE,
  templateDocumentName,
  type PmNode,
  type SavedBlock,
} from '@eln/shared';
import { snapshotOfState } from '../collab/documents/contentSnapshots.js';
import { canonicalRecordNo, parseDocumentName } from '../collab/documents/documentKinds.js';
import { loadDocumentState } from '../collab/persistence/documentStore.js';
import type { Db, Queryable, Tx } from '../db/client.js';
import { Drains } from '../db/drains.js';
import {
  dropboxes,
  dropboxRows,
  files,
  labNotes,
  projects,
  schemaEntries,
  schemas,
  schemaTypes,
  searchQueue,
  searchUnits,
  templateRevisions,
  templates,
} from '../db/schema.js';
import { fileBlocksOf, writeFileUnits, type FileBlock } from './fileUnits.js';
import { vectorLiteral } from './tokens.js';

/**
 * How often each process looks at the queue. An edit is findable within 2 s of being stored (issue 46):
 * at most this wait, then one pass (a note's state read and its changed blocks written, a few ms).
 */
const POLL_MS = 250;
/** Documents taken per look at the queue. */
const BATCH = 20;
const BATCHES_PER_PASS = 50;

interface UnitRow {
  blockUid: string;
  blockOrder: number;
  text: string;
  vector: string;
}

/** Where the indexer reports a document it could not index (the server's logger, or the console). */
export interface IndexerLog {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

/** Queues a document to be indexed again (a note deleted: its rows go at the next pass). */
export async function queueForSearch(q: Queryable, documentName: string): Promise<void> {
  await q
    .insert(searchQueue)
    .values({ documentName })
    .onConflictDoUpdate({ target: searchQueue.documentName, set: { seq: sql`excluded.seq` } });
}

type Weighted = Array<{ text: string; weight: 'A' | 'D' }>;

/** A unit of the given parts (weighted words first in its text), or none when it holds no words. */
function unitOf(blockUid: string, blockOrder: number, parts: Weighted): UnitRow[] {
  const vector = vectorLiteral(parts);
  if (vector === '') return [];
  return [
    {
      blockUid,
      blockOrder,
      text: parts
        .map((part) => part.text)
        .filter(Boolean)
        .join('\n'),
      vector,
    },
  ];
}

/** A title unit (order 0), kept even without words so a record always has its row. */
function titleUnit(parts: Weighted): UnitRow {
  return unitOf('', 0, parts)[0] ?? { blockUid: '', blockOrder: 0, text: '', vector: '' };
}

/** The units of a document's saved blocks (a note's, a template's), each with its heading words weighted A. */
function blockUnits(blocks: readonly SavedBlock[]): UnitRow[] {
  const units: UnitRow[] = [];
  const seen = new Set<string>();
  for (const block of blocks) {
    // A pasted block can repeat a uid until the editor renews it; the first one stands for it.
    if (seen.has(block.blockUid)) continue;
    seen.add(block.blockUid);
    const { heading, body } = blockSearchText(JSON.parse(block.content) as PmNode);
    units.push(
      ...unitOf(block.blockUid, block.blockOdr, [
        { text: heading, weight: 'A' },
        { text: body, weight: 'D' },
      ]),
    );
  }
  return units;
}

/** What a record is indexed as: its project (notes and projects), its units and its file blocks (notes and templates); null when it is gone. */
interface Indexed {
  projectNo: number | null;
  units: UnitRow[];
  files?: FileBlock[];
}

type IndexedKind = (typeof searchUnits.$inferSelect)['kind'];

/**
 * Each indexed kind: the prefix of its queue entries (a note's and a template's: their live document's),
 * how it is read, and for notes and templates, the kind their file blocks are indexed as and the files
 * they own.
 */
const KINDS: Record<
  string,
  {
    kind: IndexedKind;
    read: (tx: Tx, no: number) => Promise<Indexed | null>;
    files?: { kind: 'file' | 'template'; owns: (no: number) => SQL };
  }
> = {
  labnote: { kind: 'note', read: readNote, files: { kind: 'file', owns: (no) => eq(files.noteNo, no) } },
  template: { kind: 'template', read: readTemplate, files: { kind: 'template', owns: (no) => eq(files.templateNo, no) } },
  project: { kind: 'project', read: readProject },
  schema: { kind: 'schema', read: readSchemaType },
  dropbox: { kind: 'dropbox', read: readDropbox },
};

/** A note: its title and each block with words, as the live document holds them now. */
async function readNote(tx: Tx, noteNo: number): Promise<Indexed | null> {
  const [note] = await tx
    .select({ projectNo: labNotes.projectNo, title: labNotes.title, deletedAt: labNotes.deletedAt })
    .from(labNotes)
    .where(eq(labNotes.noteNo, noteNo));
  if (!note || note.deletedAt) return null;
  const state = await loadDocumentState(tx, noteDocumentName(noteNo));
  const blocks = state ? snapshotOfState(state).savedBlocks('LABNOTE') : [];
  return {
    projectNo: note.projectNo,
    units: [titleUnit([{ text: note.title, weight: 'A' }]), ...blockUnits(blocks)],
    files: fileBlocksOf(blocks),
  };
}

/** A template's draft block is indexed under this prefix of its uid: only those who read drafts find it (search/queries.ts). */
export const DRAFT_UNIT = 'draft:';

/**
 * A template: its title and description, the blocks of its latest approved version (what everyone who
 * may read it reads), and, while a draft or a checked-in revision is open, the draft's blocks that differ
 * from them (`draft:<uid>`), read only by those who manage templates.
 */
async function readTemplate(tx: Tx, templateNo: number): Promise<Indexed | null> {
  const [template] = await tx.select().from(templates).where(eq(templates.templateNo, templateNo));
  if (!template || template.deletedAt) return null;
  let approved: UnitRow[] = [];
  let approvedFiles: FileBlock[] = [];
  if (template.approvedRevision !== null) {
    const [revision] = await tx
      .select({ blocks: templateRevisions.blocks })
      .from(templateRevisions)
      .where(and(eq(templateRevisions.templateNo, templateNo), eq(templateRevisions.revision, template.approvedRevision)));
    const blocks = (revision?.blocks as SavedBlock[] | undefined) ?? [];
    approved = blockUnits(blocks);
    approvedFiles = fileBlocksOf(blocks);
  }
  let draft: UnitRow[] = [];
  let draftFiles: FileBlock[] = [];
  if (template.state !== TEMPLATE_STATE.approved) {
    const state = await loadDocumentState(tx, templateDocumentName(templateNo));
    const blocks = state ? snapshotOfState(state).savedBlocks('TEMPLATE') : [];
    const published = new Set(approved.map((unit) => `${unit.blockUid}\n${unit.text}`));
    draft = blockUnits(blocks)
      .filter((unit) => !published.has(`${unit.blockUid}\n${unit.text}`))
      .map((unit) => ({ ...unit, blockUid: `${DRAFT_UNIT}${unit.blockUid}` }));
    const publishedFiles = new Set(approvedFiles.map((file) => `${file.blockUid}\n${file.fileId}`));
    draftFiles = fileBlocksOf(blocks)
      .filter((file) => !publishedFiles.has(`${file.blockUid}\n${file.fileId}`))
      .map((file) => ({ ...file, blockUid: `${DRAFT_UNIT}${file.blockUid}` }));
  }
  return {
    projectNo: null,
    units: [
      titleUnit([
        { text: template.title, weight: 'A' },
        { text: template.description, weight: 'D' },
      ]),
      ...approved,
      ...draft,
    ],
    files: [...approvedFiles, ...draftFiles],
  };
}

async function readProject(tx: Tx, projectNo: number): Promise<Indexed | null> {
  const [project] = await tx.select().from(projects).where(eq(projects.projectNo, projectNo));
  if (!project) return null;
  return {
    projectNo,
    units: [
      titleUnit([
        { text: project.title, weight: 'A' },
        { text: project.description, weight: 'D' },
      ]),
    ],
  };
}

/**
 * A schema type: its code, title and description, and each schema (uid: its number) with its title,
 * description and used entries' fields and values, the entries every reader of the schema reads.
 */
async function readSchemaType(tx: Tx, schemasTypeNo: number): Promise<Indexed | null> {
  const [type] = await tx.select().from(schemaTypes).where(eq(schemaTypes.schemasTypeNo, schemasTypeNo));
  if (!type) return null;
  const children = await tx.select().from(schemas).where(eq(schemas.schemasTypeNo, schemasTypeNo)).orderBy(asc(schemas.position));
  const entries = children.length
    ? await tx
        .select()
        .from(schemaEntries)
        .where(
          and(
            inArray(
              schemaEntries.schemaNo,
              children.map((child) => child.schemaNo),
            ),
            eq(schemaEntries.status, SCHEMA_STATUS.used),
          ),
        )
        .orderBy(asc(schemaEntries.position))
    : [];
  const units = [
    titleUnit([
      { text: `${type.code} ${type.title}`, weight: 'A' },
      { text: type.description, weight: 'D' },
    ]),
  ];
  for (const child of children) {
    const fields = entries.filter((entry) => entry.schemaNo === child.schemaNo).map((entry) => `${entry.field}: ${entry.value}`);
    units.push(
      ...unitOf(String(child.schemaNo), child.position + 1, [
        { text: child.title, weight: 'A' },
        { text: [child.description, ...fields].filter(Boolean).join('\n'), weight: 'D' },
      ]),
    );
  }
  return { projectNo: null, units };
}

/** A dropbox: its title, and each row (uid: its code) by code and by name. */
async function readDropbox(tx: Tx, dropboxNo: number): Promise<Indexed | null> {
  const [dropbox] = await tx.select().from(dropboxes).where(eq(dropboxes.dropboxNo, dropboxNo));
  if (!dropbox) return null;
  const rows = await tx.select().from(dropboxRows).where(eq(dropboxRows.dropboxNo, dropboxNo)).orderBy(asc(dropboxRows.position));
  return {
    projectNo: null,
    units: [
      titleUnit([{ text: dropbox.title, weight: 'A' }]),
      ...rows.flatMap((row) => unitOf(row.code, row.position + 1, [{ text: `${row.code} ${row.name}`, weight: 'D' }])),
    ],
  };
}

/**
 * Queues every note, template, project, schema type and dropbox, and every record the index holds rows
 * of (so the rows of one gone are removed): `npm run search:rebuild`. Answers how many are queued.
 */
export async function queueEverything(db: Db): Promise<number> {
  const indexed = sql.join(
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
    private readonly log: IndexerLog,
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
      if ((await this.indexBatch()).taken < BATCH) return;
    }
  }

  /** Indexes one batch of the queue, oldest first, leaving out `skip`; answers how many it took and those that failed. */
  private async indexBatch(skip: readonly string[] = []): Promise<{ taken: number; failed: string[] }> {
    const queued = await this.db
      .select()
      .from(searchQueue)
      .where(skip.length ? notInArray(searchQueue.documentName, [...skip]) : undefined)
      .orderBy(asc(searchQueue.seq))
      .limit(BATCH);
    const failed: string[] = [];
    for (const { documentName } of queued) {
      try {
        await this.db.transaction((tx) => this.indexDocument(tx, documentName));
      } catch (error) {
        this.log.warn({ err: error, documentName }, 'search: a document could not be indexed; queued again');
        await queueForSearch(this.db, documentName);
        failed.push(documentName);
      }
    }
    return { taken: queued.length, failed };
  }

  /**
   * Indexes everything queued, until the queue is empty (other processes may take entries meanwhile),
   * telling `progress` how many are left after each batch. A document that fails stays queued, is tried
   * no more here, and is answered.
   */
  async indexAll(progress: (left: number) => void): Promise<string[]> {
    const failed: string[] = [];
    for (;;) {
      const batch = await this.indexBatch(failed);
      failed.push(...batch.failed);
      const [left] = await this.db.select({ n: count() }).from(searchQueue);
      progress(Math.max(0, Number(left?.n ?? 0) - failed.length));
      if (batch.taken === 0) return failed;
    }
  }

  private async indexDocument(tx: Tx, documentName: string): Promise<void> {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`search:${documentName}`}))`);
    const [entry] = await tx.select().from(searchQueue).where(eq(searchQueue.documentName, documentName));
    if (!entry) return;
    const parsed = parseDocumentName(documentName);
    const indexed = parsed && Object.hasOwn(KINDS, parsed.prefix) ? KINDS[parsed.prefix] : undefined;
    const recordNo = parsed ? canonicalRecordNo(parsed.id) : null;
    if (indexed && recordNo !== null) {
      const record = await indexed.read(tx, recordNo);
      await writeUnits(tx, indexed.kind, recordNo, record);
      if (indexed.files) {
        const of = { kind: indexed.files.kind, recordNo, projectNo: record?.projectNo ?? null, owns: indexed.files.owns(recordNo) };
        await writeFileUnits(tx, of, record?.files ?? []);
      }
    }
    await tx.delete(searchQueue).where(and(eq(searchQueue.documentName, documentName), eq(searchQueue.seq, entry.seq)));
  }
}

/**
 * Writes a record's changed units and removes those gone (all of them when the record is gone). Its file
 * blocks' units are fileUnits.ts's: their text is not read here.
 */
async function writeUnits(tx: Tx, kind: IndexedKind, recordNo: number, record: Indexed | null): Promise<void> {
  if (!record) {
    await tx.delete(searchUnits).where(and(eq(searchUnits.kind, kind), eq(searchUnits.recordNo, recordNo)));
    return;
  }
  const ofRecord = and(eq(searchUnits.kind, kind), eq(searchUnits.recordNo, recordNo), isNull(searchUnits.fileId));
  const wanted = record.units;
  const existing = await tx
    .select({
      blockUid: searchUnits.blockUid,
      blockOrder: searchUnits.blockOrder,
      text: searchUnits.text,
      projectNo: searchUnits.projectNo,
    })
    .from(searchUnits)
    .where(ofRecord);
  const had = new Map(existing.map((row) => [row.blockUid, row]));
  const wantedUids = new Set(wanted.map((unit) => unit.blockUid));
  const gone = existing.filter((row) => !wantedUids.has(row.blockUid)).map((row) => row.blockUid);
  if (gone.length) await tx.delete(searchUnits).where(and(ofRecord, inArray(searchUnits.blockUid, gone)));
  const changed = wanted.filter((unit) => {
    const before = had.get(unit.blockUid);
    return !before || before.text !== unit.text || before.blockOrder !== unit.blockOrder || before.projectNo !== record.projectNo;
  });
  if (!changed.length) return;
  await tx
    .insert(searchUnits)
    .values(changed.map((unit) => ({ kind, recordNo, projectNo: record.projectNo, ...unit })))
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
