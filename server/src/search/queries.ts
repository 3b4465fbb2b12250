import { and, asc, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { PgSelect } from 'drizzle-orm/pg-core';
import { NOTE_STATUS, type CallRequest, type SearchHit, type api } from '@eln/shared';
import type { AuthUser } from '../auth/authUser.js';
import type { Queryable } from '../db/client.js';
import { offsetOf, withinDates } from '../db/paging.js';
import { labNotes, projects, searchUnits, users } from '../db/schema.js';
import { searchableNotesSql } from './policy.js';
import { parseQuery } from './query.js';
import { snippetOf } from './snippet.js';

/** ts_rank's weights of D, C, B and A words: a title's or heading's word counts ten times a body's. */
const WEIGHTS = sql.raw(`'{0.1, 0.2, 0.4, 1.0}'::float4[]`);
/** A unit edited this many seconds ago ranks half as far above an old one as one edited now (30 days). */
const RECENCY_SECONDS = 30 * 24 * 3600;

/**
 * `/v1/search`: the units whose words match, of the notes the caller may read (search/policy.ts), ranked
 * by weight (titles and headings first), whole words above prefixes (a second rank with no prefixes
 * added), and recent edits above old ones.
 */
export async function search(q: Queryable, user: AuthUser, input: CallRequest<typeof api.search.search>, timeZone: string) {
  const parsed = parseQuery(input.q);
  if (!parsed.tsquery || (input.kinds && !input.kinds.includes('note'))) return { list: [], totalCount: 0 };
  const query = sql`${parsed.tsquery}::tsquery`;
  const exact = sql`${parsed.exactTsquery}::tsquery`;
  const where = and(
    eq(searchUnits.kind, 'note'),
    sql`${searchUnits.vector} @@ ${query}`,
    searchableNotesSql(user),
    input.projectNo ? eq(labNotes.projectNo, input.projectNo) : undefined,
    input.status ? eq(labNotes.status, input.status) : undefined,
    input.writer ? eq(users.userId, input.writer) : undefined,
    withinDates(labNotes.createdAt, input, timeZone),
  );
  const score: SQL<number> = sql`(ts_rank(${WEIGHTS}, ${searchUnits.vector}, ${query}) + ts_rank(${WEIGHTS}, ${searchUnits.vector}, ${exact}))
    * (1 + 1 / (1 + extract(epoch from (now() - ${searchUnits.indexedAt})) / ${RECENCY_SECONDS}))`;
  const matching = <T extends PgSelect>(select: T) =>
    select
      .innerJoin(labNotes, eq(labNotes.noteNo, searchUnits.recordNo))
      .innerJoin(projects, eq(projects.projectNo, labNotes.projectNo))
      .innerJoin(users, eq(users.userNo, labNotes.writerUserNo))
      .where(where);
  const [total] = await matching(q.select({ n: count() }).from(searchUnits).$dynamic());
  const rows = await matching(
    q
      .select({
        noteNo: labNotes.noteNo,
        labNoteNumber: labNotes.labNoteNumber,
        title: labNotes.title,
        version: labNotes.version,
        status: labNotes.status,
        projectNo: projects.projectNo,
        projectTitle: projects.title,
        blockUid: searchUnits.blockUid,
        text: searchUnits.text,
      })
      .from(searchUnits)
      .$dynamic(),
  )
    .orderBy(desc(score), desc(searchUnits.indexedAt), desc(searchUnits.recordNo), asc(searchUnits.blockOrder))
    .limit(input.pageSize)
    .offset(offsetOf(input));
  const list: SearchHit[] = rows.map((row) => ({
    kind: 'note',
    no: row.noteNo,
    labNoteNo: row.noteNo,
    labNoteNumber: row.labNoteNumber,
    title: row.title,
    projectNo: row.projectNo,
    projectTitle: row.projectTitle,
    uid: row.blockUid || null,
    snippet: snippetOf(row.text, parsed.marks),
    version: row.version,
    status: row.status,
    signed: row.status === NOTE_STATUS.signed,
    finished: row.status === NOTE_STATUS.finished,
  }));
  return { list, totalCount: Number(total?.n ?? 0) };
}
