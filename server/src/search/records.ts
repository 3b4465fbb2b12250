import { createHash } from 'node:crypto';
import { and, asc, eq, inArray, type SQL } from 'drizzle-orm';
import type * as Y from 'yjs';
import {
  blockSearchText,
  noteDocumentName,
  SCHEMA_STATUS,
  TEMPLATE_STATE,
  templateDocumentName,
  type PmNode,
  type SavedBlock,
} from '@eln/shared';
import { contentSnapshot } from '../collab/documents/contentSnapshots.js';
import type { Tx } from '../db/client.js';
import { fixedStatement } from '../db/fixedStatement.js';
import {
  dropboxes,
  dropboxRows,
  projects,
  schemaEntries,
  schemas,
  schemaTypes,
  files,
  searchUnits,
  templateRevisions,
  templates,
} from '../db/schema.js';
import { fileBlocksOf, type FileBlock } from './fileUnits.js';
import { vectorLiteral } from './tokens.js';
import { Turns } from './background.js';

/**
 * What the index holds of each kind of record, read from the database and the stored live documents:
 * a record's units (its title, and its blocks or parts), each with its text and words.
 */

export interface UnitRow {
  blockUid: string;
  blockOrder: number;
  text: string;
  vector: string;
  /** md5 of the text (hex, as PostgreSQL's md5 writes it): compared with the stored unit's, not the whole text. */
  digest: string;
  /** A note's: its last saved version when the unit is as that version holds it; null when only its live draft does (or another kind). */
  savedVersion: number | null;
}

/** What a record is indexed as: its project (notes and projects), its units and its file blocks (notes and templates); null when it is gone. */
export interface Indexed {
  projectNo: number | null;
  units: UnitRow[];
  files?: FileBlock[];
}

export type IndexedKind = (typeof searchUnits.$inferSelect)['kind'];

/** Stored live documents by name (null: nothing stored), read in the indexing transaction. */
export type StoredDocuments = (documentNames: string[]) => Promise<Map<string, Y.Doc | null>>;

/** Reads records of one kind: each number asked gets its answer (null: gone). */
type ReadRecords = (tx: Tx, recordNos: number[], stored: StoredDocuments) => Promise<Map<number, Indexed | null>>;

/**
 * Each indexed kind: the prefix of its queue entries (a note's and a template's: their live document's),
 * how it is read, and for notes and templates, the kind their file blocks are indexed as and the files
 * they own (search/fileUnits.ts).
 */
export const KINDS: Record<
  string,
  { kind: IndexedKind; read: ReadRecords; files?: { kind: 'file' | 'template'; owns: (no: number) => SQL } }
> = {
  labnote: { kind: 'note', read: readNotes, files: { kind: 'file', owns: (no) => eq(files.noteNo, no) } },
  template: { kind: 'template', read: oneByOne(readTemplate), files: { kind: 'template', owns: (no) => eq(files.templateNo, no) } },
  project: { kind: 'project', read: oneByOne(readProject) },
  schema: { kind: 'schema', read: oneByOne(readSchemaType) },
  dropbox: { kind: 'dropbox', read: oneByOne(readDropbox) },
};

/** A template's draft block is indexed under this prefix of its uid: only those who read drafts find it (search/queries.ts). */
export const DRAFT_UNIT = 'draft:';

type Weighted = Array<{ text: string; weight: 'A' | 'D' }>;

const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');

/** A unit of the given parts (weighted words first in its text), or none when it holds no words. */
function unitOf(blockUid: string, blockOrder: number, parts: Weighted): UnitRow[] {
  const vector = vectorLiteral(parts);
  if (vector === '') return [];
  const text = parts
    .map((part) => part.text)
    .filter(Boolean)
    .join('\n');
  return [{ blockUid, blockOrder, text, vector, digest: md5(text), savedVersion: null }];
}

/** A title unit (order 0), kept even without words so a record always has its row. */
function titleUnit(parts: Weighted): UnitRow {
  return unitOf('', 0, parts)[0] ?? { blockUid: '', blockOrder: 0, text: '', vector: '', digest: md5(''), savedVersion: null };
}

/** The unit of a block's content (null: no words), as derived last time, by uid. */
type BlockUnitMemo = Map<string, { content: string; unit: UnitRow | null }>;

/**
 * Per stored document, its blocks' units as derived at the previous read: a block whose content is the
 * same string is not parsed and tokenised again (an unchanged block's content is the very same string,
 * see contentSnapshot).
 */
const unitMemos = new WeakMap<Y.Doc, BlockUnitMemo>();

/** The units of a document's saved blocks (a note's, a template's), each with its heading words weighted A. */
function blockUnits(blocks: readonly SavedBlock[], memo: BlockUnitMemo = new Map()): { units: UnitRow[]; memo: BlockUnitMemo } {
  const units: UnitRow[] = [];
  const next: BlockUnitMemo = new Map();
  for (const block of blocks) {
    // A pasted block can repeat a uid until the editor renews it; the first one stands for it.
    if (next.has(block.blockUid)) continue;
    const known = memo.get(block.blockUid);
    const unit = known?.content === block.content ? known.unit : blockUnit(block);
    next.set(block.blockUid, { content: block.content, unit });
    if (unit) units.push(unit.blockOrder === block.blockOdr ? unit : { ...unit, blockOrder: block.blockOdr });
  }
  return { units, memo: next };
}

function blockUnit(block: SavedBlock): UnitRow | null {
  const { heading, body } = blockSearchText(JSON.parse(block.content) as PmNode);
  return (
    unitOf(block.blockUid, block.blockOdr, [
      { text: heading, weight: 'A' },
      { text: body, weight: 'D' },
    ])[0] ?? null
  );
}

/**
 * The units of a live document's blocks as stored now, deriving again only blocks changed since its last
 * read, and its file blocks.
 */
function storedBlockUnits(doc: Y.Doc | null | undefined, noteType: 'LABNOTE' | 'TEMPLATE'): { units: UnitRow[]; files: FileBlock[] } {
  if (!doc) return { units: [], files: [] };
  const blocks = contentSnapshot(doc).savedBlocks(noteType);
  const { units, memo } = blockUnits(blocks, unitMemos.get(doc));
  unitMemos.set(doc, memo);
  return { units, files: fileBlocksOf(blocks) };
}

function oneByOne(read: (tx: Tx, recordNo: number, stored: StoredDocuments) => Promise<Indexed | null>): ReadRecords {
  return async (tx, recordNos, stored) => {
    const records = new Map<number, Indexed | null>();
    for (const recordNo of recordNos) records.set(recordNo, await read(tx, recordNo, stored));
    return records;
  };
}

const notesOf = fixedStatement<{
  note_no: number;
  project_no: number;
  title: string;
  version: number;
  blocks_hash: string | null;
  deleted_at: unknown;
}>(
  'search_notes_of',
  `select n.note_no, n.project_no, n.title, n.version, v.blocks_hash, n.deleted_at from lab_notes n
    left join note_versions v on v.note_no = n.note_no and v.version = n.version
    where n.note_no = any($1::int[])`,
);

/** What a saved version holds, as the index compares it: its units' digests and its file blocks' files, by uid. */
interface SavedVersionUnits {
  digests: Map<string, string>;
  files: Map<string, string>;
}

/**
 * Saved versions never change: what one holds is kept for the notes indexed most recently, by
 * `<noteNo>.<version>.<blocksHash>` (the hash: so that two databases served by one process, as tests do,
 * never share an entry).
 */
const savedVersions = new Map<string, SavedVersionUnits>();
const SAVED_VERSIONS_KEPT = 500;

const versionBlocks = fixedStatement<{ note_no: number; version: number; blocks_hash: string; blocks: unknown }>(
  'search_version_blocks',
  `select v.note_no, v.version, v.blocks_hash, v.blocks from unnest($1::int[], $2::int[]) as wanted(note_no, version)
    join note_versions v on v.note_no = wanted.note_no and v.version = wanted.version`,
);

type SavedVersion = [noteNo: number, version: number, blocksHash: string];

/** The last saved versions of the notes given, read once each and kept. */
async function savedVersionUnits(tx: Tx, saved: SavedVersion[]): Promise<Map<number, SavedVersionUnits>> {
  const key = ([noteNo, version, blocksHash]: SavedVersion) => `${noteNo}.${version}.${blocksHash}`;
  const missing = saved.filter((pair) => !savedVersions.has(key(pair)));
  if (missing.length) {
    const rows = await versionBlocks(tx, [missing.map(([noteNo]) => noteNo), missing.map(([, version]) => version)]);
    for (const row of rows) {
      const blocks = row.blocks as SavedBlock[];
      savedVersions.set(key([row.note_no, row.version, row.blocks_hash]), {
        digests: new Map(blockUnits(blocks).units.map((unit) => [unit.blockUid, unit.digest])),
        files: new Map(fileBlocksOf(blocks).map((file) => [file.blockUid, file.fileId])),
      });
    }
  }
  const found = new Map<number, SavedVersionUnits>();
  for (const pair of saved) {
    const units = savedVersions.get(key(pair));
    if (!units) continue;
    // Kept most recently used last, so the first ones are the ones to forget.
    savedVersions.delete(key(pair));
    savedVersions.set(key(pair), units);
    found.set(pair[0], units);
  }
  for (const oldest of savedVersions.keys()) {
    if (savedVersions.size <= SAVED_VERSIONS_KEPT) break;
    savedVersions.delete(oldest);
  }
  return found;
}

/**
 * Notes: each one's title and each block with words, as its live document is stored now, each unit
 * marked with the last saved version when that version holds it as it is (the title: when there is one).
 */
async function readNotes(tx: Tx, noteNos: number[], stored: StoredDocuments): Promise<Map<number, Indexed | null>> {
  const rows = new Map((await notesOf(tx, [noteNos])).map((row) => [row.note_no, row]));
  const live = noteNos.filter((noteNo) => {
    const row = rows.get(noteNo);
    return row && !row.deleted_at;
  });
  const docs = await stored(live.map(noteDocumentName));
  const saved = await savedVersionUnits(
    tx,
    live.flatMap((noteNo) => {
      const { version, blocks_hash: blocksHash } = rows.get(noteNo)!;
      return blocksHash === null ? [] : [[noteNo, version, blocksHash] as SavedVersion];
    }),
  );
  const records = new Map<number, Indexed | null>(noteNos.map((noteNo) => [noteNo, null]));
  const turns = new Turns();
  for (const noteNo of live) {
    // A batch of notes read whole (after a restart, or past the kept states) takes hundreds of ms.
    await turns.next();
    const { project_no: projectNo, title, version } = rows.get(noteNo)!;
    const { units, files } = storedBlockUnits(docs.get(noteDocumentName(noteNo)), 'LABNOTE');
    const inVersion = saved.get(noteNo);
    const savedIf = (held: boolean) => (held && inVersion ? version : null);
    records.set(noteNo, {
      projectNo,
      units: [
        { ...titleUnit([{ text: title, weight: 'A' }]), savedVersion: savedIf(true) },
        ...units.map((unit) => ({ ...unit, savedVersion: savedIf(inVersion?.digests.get(unit.blockUid) === unit.digest) })),
      ],
      files: files.map((file) => ({ ...file, savedVersion: savedIf(inVersion?.files.get(file.blockUid) === file.fileId) })),
    });
  }
  return records;
}

/**
 * A template: its title and description, the blocks of its latest approved version (what everyone who
 * may read it reads), and, while a draft or a checked-in revision is open, the draft's blocks that differ
 * from them (`draft:<uid>`), read only by those who manage templates.
 */
async function readTemplate(tx: Tx, templateNo: number, stored: StoredDocuments): Promise<Indexed | null> {
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
    approved = blockUnits(blocks).units;
    approvedFiles = fileBlocksOf(blocks);
  }
  let draft: UnitRow[] = [];
  let draftFiles: FileBlock[] = [];
  if (template.state !== TEMPLATE_STATE.approved) {
    const name = templateDocumentName(templateNo);
    const live = storedBlockUnits((await stored([name])).get(name), 'TEMPLATE');
    const published = new Set(approved.map((unit) => `${unit.blockUid}\n${unit.text}`));
    draft = live.units
      .filter((unit) => !published.has(`${unit.blockUid}\n${unit.text}`))
      .map((unit) => ({ ...unit, blockUid: `${DRAFT_UNIT}${unit.blockUid}` }));
    const publishedFiles = new Set(approvedFiles.map((file) => `${file.blockUid}\n${file.fileId}`));
    draftFiles = live.files
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
