import { and, asc, eq, exists, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import { MENTION_LIMITS, type CallRequest, type MentionCandidatesAnswer, type MentionPerson, type api } from '@eln/shared';
import type { AuthUser } from '../auth/authUser.js';
import type { Queryable } from '../db/client.js';
import { escapeLike } from '../db/like.js';
import { departments, projectDepartments, projectParticipants, users } from '../db/schema.js';
import { requireVisibleNote, type NoteContext } from '../notes/queries.js';
import { canModifyProject } from '../projects/policy.js';
import { toMentionPerson, type PersonRow } from './presenters.js';

/** Whether the person of the row is listed as a participant of the project. */
const listedIn = (projectNo: number) =>
  exists(
    sql`(select 1 from ${projectParticipants} where ${projectParticipants.projectNo} = ${projectNo} and ${projectParticipants.userNo} = ${users.userNo})`,
  );

/** The people of a project: its leader, its listed participants and the people of its departments. */
function memberOf(ctx: NoteContext): SQL {
  const { projectNo, leaderUserNo } = ctx.project;
  return or(
    eq(users.userNo, leaderUserNo),
    listedIn(projectNo),
    inArray(
      users.departmentCode,
      sql`(select ${projectDepartments.departmentCode} from ${projectDepartments} where ${projectDepartments.projectNo} = ${projectNo})`,
    ),
  ) as SQL;
}

function people(q: Queryable, ctx: NoteContext, where: SQL | undefined) {
  return q
    .select({
      userNo: users.userNo,
      userId: users.userId,
      name: users.name,
      level: users.level,
      active: users.active,
      department: departments.name,
      listed: sql<boolean>`${listedIn(ctx.project.projectNo)}`.mapWith(Boolean),
    })
    .from(users)
    .leftJoin(departments, eq(departments.code, users.departmentCode))
    .where(where)
    .orderBy(asc(users.name), asc(users.userId));
}

/**
 * Whom `@` offers in a note: the project's active members (leader, listed participants, people of its
 * departments) whose name or ID holds what was typed, by name, each with the notes policy's verdict on
 * whether they may read the note; and whether the caller may add a participant (the projects policy).
 */
export async function mentionCandidates(
  q: Queryable,
  user: AuthUser,
  body: CallRequest<typeof api.mentions.candidates>,
): Promise<MentionCandidatesAnswer> {
  const ctx = await requireVisibleNote(q, user, body.labNoteNo);
  const pattern = body.q ? `%${escapeLike(body.q)}%` : null;
  const rows: PersonRow[] = await people(
    q,
    ctx,
    and(eq(users.active, true), memberOf(ctx), pattern ? or(ilike(users.name, pattern), ilike(users.userId, pattern)) : undefined),
  ).limit(MENTION_LIMITS.candidates);
  const [leader] = await q.select({ userId: users.userId, name: users.name }).from(users).where(eq(users.userNo, ctx.project.leaderUserNo));
  return {
    list: rows.map((row) => toMentionPerson(row, ctx)),
    projectNo: ctx.project.projectNo,
    leader: leader ?? { userId: '', name: '' },
    abilities: { addParticipants: canModifyProject(user, ctx.project) === 'allowed' },
  };
}

/** The people a note's mentions name, each as the suggestions show them (members or not, active or not). */
export async function mentionedPeople(
  q: Queryable,
  user: AuthUser,
  body: CallRequest<typeof api.mentions.people>,
): Promise<{ list: MentionPerson[] }> {
  const ctx = await requireVisibleNote(q, user, body.labNoteNo);
  const userIds = [...new Set(body.userIds.map((id) => id.toLowerCase()))];
  if (!userIds.length) return { list: [] };
  const rows: PersonRow[] = await people(q, ctx, inArray(users.userId, userIds));
  return { list: rows.map((row) => toMentionPerson(row, ctx)) };
}
