import { and, eq, isNotNull, notLike, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { PgSelect } from 'drizzle-orm/pg-core';
import {
  LIMITS,
  NOTE_STATUS,
  PROJECT_STATUS,
  type CallRequest,
  type FileTextStatus,
  type SearchAnswer,
  type SearchHit,
  type SearchKind,
  type api,
} from '@eln/shared';
import type { AuthUser } from '../auth/authUser.js';
import { rawRows, type Queryable } from '../db/client.js';
import { offsetOf, withinDates } from '../db/paging.js';
import { dropboxes, files, labNotes, projects, schemas, schemaTypes, searchUnits, templates, users } from '../db/schema.js';
import { visibleDropboxesSql } from '../dropboxes/policy.js';
import { visibleProjectsSql } from '../projects/policy.js';
import { visibleSchemasSql, visibleSchemaTypesSql } from '../schemas/policy.js';
import { readsTemplateDrafts, visibleTemplatesSql } from '../templates/policy.js';
import { blockUidOfPart, FILE_PART } from './fileUnits.js';
import { DRAFT_UNIT } from './records.js';
import { searchableNotesSql } from './policy.js';
import { parseQuery } from './query.js';
import { snippetOf } from './snippet.js';

/** ts_rank's weights of D, C, B and A words: a title's or heading's word counts ten times a body's. */
const WEIGHTS = sql.raw(`'{0.1, 0.2, 0.4, 1.0}'::float4[]`);
/** A unit edited this many seconds ago ranks half as far above an old one as one edited now (30 days). */
const RECENCY_SECONDS = 30 * 24 * 3600;

type SearchInput = CallRequest<typeof api.search.search>;

/** The columns every kind's part of the query answers, in the same order (the parts are one union). */
const NO_TEXT = sql`null::text`;
const NO_NUMBER = sql`null::integer`;

/** A row of the union of the kinds' parts. */
interface HitRow {
  kind: SearchKind;
  recordNo: number;
  blockUid: string;
  text: string;
  labNoteNumber: string | null;
  title: string;
  version: number | null;
  status: string | null;
  projectNo: number | null;
  projectTitle: string | null;
  fileText: FileTextStatus | null;
}

/** One kind's part: its units joined to its records, filtered by its own read rule and the filters that apply to it. */
interface KindPart {
  kind: (typeof searchUnits.$inferSelect)['kind'];
  /** Joins the kind's records to the units (the select is from search_units). */
  join: (select: PgSelect) => PgSelect;
  /** Who may read, the filters and freshness (a unit whose record is gone is not shown). */
  where: SQL | undefined;
  /** A condition on the query's matches besides: an attachment's parts are one hit, its first part that matches. */
  matchedOnce?: (query: SQL) => SQL;
  fields: Record<'labNoteNumber' | 'title' | 'version' | 'status' | 'projectNo' | 'projectTitle', SQLWrapper>;
}

/**
 * Each kind's part of the query. Notes are read by the notes' rule (search/policy.ts), the others by
 * their own policies; status and writer are a note's, so they leave the other kinds out; a project
 * filter keeps that project's notes and the project itself.
 */
function kindParts(user: AuthUser, input: SearchInput, timeZone: string): KindPart[] {
  const notesOnly = Boolean(input.status || input.writer);
  const librariesOut = notesOnly || Boolean(input.projectNo);
  const parts: Array<KindPart | false> = [
    {
      kind: 'note',
      join: (select) =>
        select
          .innerJoin(labNotes, eq(labNotes.noteNo, searchUnits.recordNo))
          .innerJoin(projects, eq(projects.projectNo, labNotes.projectNo)),
      where: and(
        searchableNotesSql(user),
        input.projectNo ? eq(labNotes.projectNo, input.projectNo) : undefined,
        input.status ? eq(labNotes.status, input.status) : undefined,
        input.writer
          ? sql`${labNotes.writerUserNo} = (select ${users.userNo} from ${users} where ${users.userId} = ${input.writer})`
          : undefined,
        withinDates(labNotes.createdAt, input, timeZone),
      ),
      fields: {
        labNoteNumber: labNotes.labNoteNumber,
        title: labNotes.title,
        version: searchUnits.savedVersion,
        status: labNotes.status,
        projectNo: projects.projectNo,
        projectTitle: projects.title,
      },
    },
    !notesOnly && {
      kind: 'project',
      join: (select) => select.innerJoin(projects, eq(projects.projectNo, searchUnits.recordNo)),
      where: and(
        visibleProjectsSql(user),
        input.projectNo ? eq(projects.projectNo, input.projectNo) : undefined,
        withinDates(projects.createdAt, input, timeZone),
      ),
      fields: {
        labNoteNumber: NO_TEXT,
        title: projects.title,
        version: NO_NUMBER,
        status: projects.status,
        projectNo: projects.projectNo,
        projectTitle: projects.title,
      },
    },
    !librariesOut && {
      kind: 'template',
      join: (select) => select.innerJoin(templates, eq(templates.templateNo, searchUnits.recordNo)),
      where: and(
        visibleTemplatesSql(user),
        readsTemplateDrafts(user) ? undefined : notLike(searchUnits.blockUid, `${DRAFT_UNIT}%`),
        withinDates(templates.createdAt, input, timeZone),
      ),
      fields: libraryFields(templates.title),
    },
    !librariesOut && {
      kind: 'schema',
      join: (select) =>
        select
          .innerJoin(schemaTypes, eq(schemaTypes.schemasTypeNo, searchUnits.recordNo))
          .leftJoin(schemas, sql`${searchUnits.blockUid} <> '' and ${schemas.schemaNo} = nullif(${searchUnits.blockUid}, '')::integer`),
      where: and(
        visibleSchemaTypesSql(user),
        // A schema's unit shows while the schema is there and may be read; the type's own unit has no schema.
        or(eq(searchUnits.blockUid, ''), and(isNotNull(schemas.schemaNo), visibleSchemasSql(user))),
        withinDates(schemaTypes.createdAt, input, timeZone),
      ),
      fields: libraryFields(schemaTypes.title),
    },
    !librariesOut && {
      kind: 'dropbox',
      join: (select) => select.innerJoin(dropboxes, eq(dropboxes.dropboxNo, searchUnits.recordNo)),
      where: and(visibleDropboxesSql(user), withinDates(dropboxes.createdAt, input, timeZone)),
      fields: libraryFields(dropboxes.title),
    },
  ];
  const [notes] = parts as [KindPart];
  return [...parts, attachmentsOf(notes)].filter(
    (part): part is KindPart => part !== false && (!input.kinds || input.kinds.includes(part.kind)),
  );
}

/**
 * The attachments' part: a note's file blocks (search/fileUnits.ts), read and filtered exactly as their
 * note, titled by the file's name, each block one hit (its first part that matches).
 */
function attachmentsOf(notes: KindPart): KindPart {
  return {
    kind: 'file',
    join: (select) =>
      notes.join(select).innerJoin(files, and(eq(files.fileId, searchUnits.fileId), eq(files.noteNo, searchUnits.recordNo))),
    where: notes.where,
    matchedOnce: (query) => sql`not exists (select 1 from ${searchUnits} as earlier where earlier.kind = 'file'
      and earlier.record_no = ${searchUnits.recordNo} and earlier.block_uid < ${searchUnits.blockUid}
      and earlier.block_uid like split_part(${searchUnits.blockUid}, ${FILE_PART}, 1) || ${`${FILE_PART}%`} and earlier.vector @@ ${query})`,
    fields: { ...notes.fields, title: files.originName },
  };
}

function libraryFields(title: SQLWrapper): KindPart['fields'] {
  return { labNoteNumber: NO_TEXT, title, version: NO_NUMBER, status: NO_TEXT, projectNo: NO_NUMBER, projectTitle: NO_TEXT };
}

/**
 * Notes a search lists first and then reads the units of, at most; a caller who reads more (an
 * administrator, a member of many projects, a wide filter) is searched through the words' GIN index.
 * A scope of this many notes is ~20,000 units, matched one by one in ~10 ms.
 */
const SCOPE_NOTES = 1_500;

/**
 * The notes the caller may read that pass the filters, when there are at most SCOPE_NOTES of them
 * (null: more, or every note, an administrator's without a filter). Read by the notes' own rule and
 * filters, the same the note part applies again: a scope only narrows where its units are looked for.
 * `withFiles`: only notes a file is stored in (their attachments' scope, see searchIn).
 */
async function noteScope(q: Queryable, user: AuthUser, input: SearchInput, notes: KindPart, withFiles = false): Promise<number[] | null> {
  const filtered = Boolean(input.projectNo || input.status || input.writer || input.startDate || input.endDate);
  const visible = visibleProjectsSql(user);
  if (!visible && !filtered) return null;
  // The projects the caller reads first (by the projects' own rule: a member's few), then their notes by
  // the notes' project index; read together, the planner went through every note to find a member's.
  const projectNos = visible
    ? (await q.select({ projectNo: projects.projectNo }).from(projects).where(visible)).map((row) => row.projectNo)
    : null;
  if (projectNos?.length === 0) return [];
  const scoped = await q
    .select({ noteNo: labNotes.noteNo })
    .from(labNotes)
    .innerJoin(projects, eq(projects.projectNo, labNotes.projectNo))
    .where(
      and(
        projectNos ? sql`${labNotes.projectNo} = any(${`{${projectNos.join(',')}}`}::integer[])` : undefined,
        notes.where,
        withFiles ? sql`exists (select 1 from ${files} where ${files.noteNo} = ${labNotes.noteNo})` : undefined,
      ),
    )
    .limit(SCOPE_NOTES + 1);
  return scoped.length > SCOPE_NOTES ? null : scoped.map((row) => row.noteNo);
}

/** The columns of a row of the candidates and of the page. */
interface PageRow extends Partial<HitRow> {
  total: number;
}

/**
 * `/v1/search`: the units whose words match, of the records the caller may read (each kind by its own
 * policy), ranked by weight (titles and headings first), whole words above prefixes (a second rank with
 * no prefixes added), and recent edits above old ones. Each kind's part takes the first
 * LIMITS.searchRanked + 1 matches it meets, unordered (so the index is read no further); those are ranked
 * and paged, the count capped at LIMITS.searchRanked with `more` saying there were more.
 */
export function search(q: Queryable, user: AuthUser, input: SearchInput, timeZone: string): Promise<SearchAnswer> {
  return q.transaction(async (tx) => {
    // No parallel workers: on a few busy cores a search's short reads wait for them (the bench's plans:
    // 42 ms through a Gather of two workers, 22 ms without, docs/decisions.md "Search").
    await tx.execute(sql`set local max_parallel_workers_per_gather = 0`);
    return searchIn(tx, user, input, timeZone);
  });
}

async function searchIn(q: Queryable, user: AuthUser, input: SearchInput, timeZone: string): Promise<SearchAnswer> {
  const parsed = parseQuery(input.q);
  const parts = parsed.tsquery ? kindParts(user, input, timeZone) : [];
  if (!parsed.tsquery || !parts.length) return { list: [], totalCount: 0, more: false };
  const query = sql`${parsed.tsquery}::tsquery`;
  const exact = sql`${parsed.exactTsquery}::tsquery`;
  const notes = parts.find((part) => part.kind === 'note' || part.kind === 'file');
  const scope = notes ? await noteScope(q, user, input, notes) : null;
  // Attachments are on few notes: a filter too wide for the notes' scope (an administrator's signed notes
  // of a few days) is mostly narrow enough for the notes with files, whose attachments are then read by
  // their record too, rather than every attachment matching the word checked against the filters (the
  // bench's plans: 33 ms of 44 for 4,750 attachments matching `lot`, none of them in the filter's notes).
  const attachmentScope =
    scope === null && notes && parts.some((part) => part.kind === 'file') ? await noteScope(q, user, input, notes, true) : scope;
  // A scope's units are read by their record (the primary key) and matched one by one (ts_match_vq, which
  // the planner cannot answer from the GIN index): a word in a tenth of all units would otherwise be read
  // from the index whole and filtered down to the caller's few notes.
  const scopeOf = (part: KindPart) => (part.kind === 'note' ? scope : part.kind === 'file' ? attachmentScope : null);
  const wordsMatch = (part: KindPart) => {
    const within = scopeOf(part);
    return within !== null
      ? and(sql`${searchUnits.recordNo} = any(${`{${within.join(',')}}`}::integer[])`, sql`ts_match_vq(${searchUnits.vector}, ${query})`)
      : sql`${searchUnits.vector} @@ ${query}`;
  };
  // The kind as a literal, not a parameter: the planner then reads each kind's matches from that kind's
  // own partial index (db/schema.ts) rather than intersecting every note's with the kind.
  const matches = (part: KindPart) =>
    and(sql`${searchUnits.kind} = ${sql.raw(`'${part.kind}'`)}`, wordsMatch(part), part.where, part.matchedOnce?.(query));
  // A query with no prefix (a phrase, a Korean or Japanese pair) is its own exact query: ranked once, doubled.
  const rank = (tsquery: SQL) => sql`ts_rank(${WEIGHTS}, ${searchUnits.vector}, ${tsquery})`;
  const ranks = parsed.exactTsquery === parsed.tsquery ? sql`2 * ${rank(query)}` : sql`(${rank(query)} + ${rank(exact)})`;
  const score = sql<number>`${ranks} * (1 + 1 / (1 + extract(epoch from (now() - ${searchUnits.indexedAt})) / ${RECENCY_SECONDS}))`;
  const selects = parts.map((part) => {
    const fields = {
      ...part.fields,
      kind: searchUnits.kind,
      recordNo: searchUnits.recordNo,
      blockUid: searchUnits.blockUid,
      fileText: searchUnits.fileText,
    };
    const aliased = Object.fromEntries(Object.entries(fields).map(([name, field]) => [name, sql`${field}`.as(name)])) as Record<
      string,
      SQL.Aliased
    >;
    const select = q
      .select({
        ...aliased,
        blockOrder: sql`${searchUnits.blockOrder}`.as('blockOrder'),
        indexedAt: sql`${searchUnits.indexedAt}`.as('indexedAt'),
        score: score.as('score'),
      })
      .from(searchUnits)
      .$dynamic();
    return sql`(${part
      .join(select)
      .where(matches(part))
      .limit(LIMITS.searchRanked + 1)})`;
  });
  const offset = offsetOf(input);
  const onPage = Math.max(0, Math.min(input.pageSize, LIMITS.searchRanked - offset));
  // One row at least, with the count of the candidates, and the page's hits beside it (none past the
  // last), each with its text: read for the page's hits only (an attachment's part is up to 30,000 characters).
  const order = sql`"score" desc, "indexedAt" desc, "recordNo" desc, "blockOrder" asc`;
  const rows = await rawRows<PageRow>(
    q,
    sql`with candidates as (${sql.join(selects, sql` union all `)})
      select counted.total, hit.*, unit.text from (select count(*)::integer as total from candidates) as counted
      left join lateral (select * from candidates order by ${order} limit ${onPage} offset ${offset}) as hit on true
      left join ${searchUnits} as unit on unit.kind = hit.kind and unit.record_no = hit."recordNo" and unit.block_uid = hit."blockUid"
      order by ${order}`,
  );
  const total = Number(rows[0]?.total ?? 0);
  const hitRows = rows.filter((row): row is PageRow & HitRow => row.kind !== null && row.kind !== undefined);
  const list: SearchHit[] = hitRows.map((row) => {
    const ofNote = row.kind === 'note' || row.kind === 'file';
    // A template's draft block opens at its uid (the draft is the template's live document); an attachment's part at its block.
    const uid = row.kind === 'template' && row.blockUid.startsWith(DRAFT_UNIT) ? row.blockUid.slice(DRAFT_UNIT.length) : row.blockUid;
    return {
      kind: row.kind,
      no: row.recordNo,
      labNoteNo: ofNote ? row.recordNo : null,
      labNoteNumber: row.labNoteNumber,
      title: row.title,
      projectNo: row.projectNo,
      projectTitle: row.projectTitle,
      uid: (row.fileText ? blockUidOfPart(uid) : uid) || null,
      snippet: snippetOf(row.text, parsed.marks),
      version: row.version,
      status: ofNote ? (row.status as SearchHit['status']) : null,
      signed: ofNote && row.status === NOTE_STATUS.signed,
      finished: ofNote ? row.status === NOTE_STATUS.finished : row.kind === 'project' && row.status === PROJECT_STATUS.completed,
      fileText: row.fileText,
    };
  });
  return { list, totalCount: Math.min(total, LIMITS.searchRanked), more: total > LIMITS.searchRanked };
}
