import { and, asc, count, desc, eq, ilike, inArray, isNull, ne, or, sql, type Placeholder, type SQL, type SQLWrapper } from 'drizzle-orm';
import {
  joinList,
  PROJECT_STATUS,
  SIGNATURE_STATUS,
  type ProjectClosePreview,
  type ProjectDetail,
  type ProjectListStatus,
  type ProjectRow,
} from '@eln/shared';
import type { Queryable } from '../db/client.js';
import { departments, labNotes, noteSignatures, projectDepartments, projectParticipants, projects, users } from '../db/schema.js';
import { escapeLike } from '../db/like.js';
import { unsavedNoteSql } from '../notes/drafts.js';
import { offsetOf, withinDates } from '../db/paging.js';
import type { AuthUser } from '../auth/authUser.js';
import { AppError } from '../http/errors.js';
import { enforce } from '../http/verdicts.js';
import {
  canFinishProject,
  canReadProject,
  MODIFY_REFUSALS,
  projectAbilities,
  READ_REFUSALS,
  takesPart,
  takesPartSql,
  visibleProjectsSql,
} from './policy.js';
import type { ProjectRecord } from './record.js';

export type { ProjectRecord } from './record.js';

/** Whether the caller takes part in the row's project (leads it or is listed), read with the row. */
export const participantColumn = (user: Pick<AuthUser, 'userNo'> | { userNo: Placeholder }) =>
  sql<boolean>`${takesPartSql(user.userNo)}`.mapWith(Boolean);

export interface ProjectFilter {
  type?: 'title' | 'leader';
  value?: string;
  startDate?: string;
  endDate?: string;
  status?: ProjectListStatus;
  page: number;
  pageSize: number;
}

/** The list's status filter as a condition; "closable" is what the dashboard counts as ready to close. */
function statusSql(status: ProjectListStatus | undefined): SQL | undefined {
  if (status === 'closable') return and(eq(projects.status, PROJECT_STATUS.inProgress), reviewerSignedSql(projects.projectNo));
  return status ? eq(projects.status, status) : undefined;
}

export async function listProjects(
  q: Queryable,
  user: AuthUser,
  filter: ProjectFilter,
  timeZone: string,
): Promise<{ list: ProjectRow[]; totalCount: number }> {
  const pattern = filter.value ? `%${escapeLike(filter.value)}%` : null;
  const search = !pattern
    ? undefined
    : filter.type === 'leader'
      ? or(ilike(users.name, pattern), ilike(users.userId, pattern))
      : ilike(projects.title, pattern);
  const where = and(visibleProjectsSql(user), search, withinDates(projects.createdAt, filter, timeZone), statusSql(filter.status));
  const participantCount =
    sql<number>`(select count(*) from ${projectParticipants} where ${projectParticipants.projectNo} = ${projects.projectNo})`.mapWith(
      Number,
    );
  const [total] = await q.select({ n: count() }).from(projects).innerJoin(users, eq(users.userNo, projects.leaderUserNo)).where(where);
  // The page's project numbers first, the rest for those rows only: skipped rows of a deep page then
  // cost an index entry each, not their leader, department and participant subqueries.
  const page = q
    .select({ projectNo: projects.projectNo })
    .from(projects)
    .innerJoin(users, eq(users.userNo, projects.leaderUserNo))
    .where(where)
    .orderBy(desc(projects.projectNo))
    .limit(filter.pageSize)
    .offset(offsetOf(filter))
    .as('page');
  const rows = await q
    .select({ project: projects, leader: users, departmentName: departments.name, participantCount, participant: participantColumn(user) })
    .from(page)
    .innerJoin(projects, eq(projects.projectNo, page.projectNo))
    .innerJoin(users, eq(users.userNo, projects.leaderUserNo))
    .leftJoin(departments, eq(departments.code, users.departmentCode))
    .orderBy(desc(projects.projectNo));
  return {
    totalCount: Number(total?.n ?? 0),
    list: rows.map(({ project, leader, departmentName, participantCount: n, participant }) => ({
      no: project.projectNo,
      title: project.title,
      description: project.description,
      status: project.status,
      userId: leader.userId,
      leaderName: leader.name,
      department: departmentName,
      participantCount: n,
      createdAt: project.createdAt.toISOString(),
      updatedAt: project.updatedAt.toISOString(),
      abilities: projectAbilities(user, project, participant),
    })),
  };
}

/** The project with whether the caller takes part in it, if the caller may see it (`canReadProject`). */
export async function findReadableProject(
  q: Queryable,
  user: AuthUser,
  projectNo: number,
): Promise<{ project: ProjectRecord; participant: boolean } | undefined> {
  const [row] = await q
    .select({ project: projects, participant: participantColumn(user) })
    .from(projects)
    .where(eq(projects.projectNo, projectNo));
  return row && canReadProject(user, row.project, row.participant) === 'allowed' ? row : undefined;
}

/** The project with the caller's part in it if the caller may see it, else 9002 (`READ_REFUSALS`). */
export async function requireReadableProject(
  q: Queryable,
  user: AuthUser,
  projectNo: number,
): Promise<{ project: ProjectRecord; participant: boolean }> {
  const found = await findReadableProject(q, user, projectNo);
  if (!found) throw new AppError(READ_REFUSALS.hidden);
  return found;
}

/** What the audit trail keeps of a project. */
export const projectAuditView = (detail: ProjectDetail) => ({
  title: detail.title,
  description: detail.description,
  status: detail.status,
  signatureList: detail.signatureList,
});

/** Whether another project (not `exceptProjectNo`) has this title. */
export async function titleTaken(q: Queryable, title: string, exceptProjectNo?: number): Promise<boolean> {
  const [row] = await q
    .select({ no: projects.projectNo })
    .from(projects)
    .where(and(eq(projects.title, title), exceptProjectNo ? ne(projects.projectNo, exceptProjectNo) : undefined));
  return row !== undefined;
}

export async function projectDetail(q: Queryable, project: ProjectRecord, user: AuthUser): Promise<ProjectDetail> {
  const [leader] = await q.select().from(users).where(eq(users.userNo, project.leaderUserNo));
  const participants = await q
    .select({
      userNo: users.userNo,
      userId: users.userId,
      name: users.name,
      departmentCode: departments.code,
      departmentName: departments.name,
    })
    .from(projectParticipants)
    .innerJoin(users, eq(users.userNo, projectParticipants.userNo))
    .leftJoin(departments, eq(departments.code, users.departmentCode))
    .where(eq(projectParticipants.projectNo, project.projectNo))
    .orderBy(asc(users.name));
  const depts = await q
    .select({ code: departments.code, name: departments.name })
    .from(projectDepartments)
    .innerJoin(departments, eq(departments.code, projectDepartments.departmentCode))
    .where(eq(projectDepartments.projectNo, project.projectNo))
    .orderBy(asc(departments.name));
  const abilities = projectAbilities(
    user,
    project,
    takesPart(
      user,
      project,
      participants.some((p) => p.userNo === user.userNo),
    ),
  );
  const leaderDepartmentName = leader ? await departmentName(q, leader.departmentCode) : null;
  const leaderMember = leader
    ? [
        {
          userNo: leader.userNo,
          userId: leader.userId,
          name: leader.name,
          departmentCode: leaderDepartmentName === null ? null : leader.departmentCode,
          departmentName: leaderDepartmentName,
        },
      ]
    : [];
  const reviewed = abilities.finish ? await hasReviewerSignature(q, project.projectNo) : true;
  return {
    finishBlockedBy: reviewed ? null : 'noReviewerSignature',
    no: project.projectNo,
    title: project.title,
    description: project.description,
    status: project.status,
    userId: leader?.userId ?? '',
    leaderName: leader?.name ?? '',
    signatureList: { department: joinList(depts.map((d) => d.code)), user: joinList(participants.map((p) => p.userId)) },
    participants,
    members: [...leaderMember, ...participants.filter((p) => p.userNo !== project.leaderUserNo)],
    departments: depts,
    createdAt: project.createdAt.toISOString(),
    updatedAt: project.updatedAt.toISOString(),
    abilities,
  };
}

/** Resolves the signatureList's IDs and codes; answers what is missing so the caller can refuse. */
export async function resolveSignatureList(q: Queryable, userIds: string[], departmentCodes: string[]) {
  const found = userIds.length
    ? await q
        .select({ userNo: users.userNo, userId: users.userId })
        .from(users)
        .where(
          and(
            inArray(
              users.userId,
              userIds.map((id) => id.toLowerCase()),
            ),
            eq(users.active, true),
          ),
        )
    : [];
  const foundDepartments = departmentCodes.length
    ? await q.select({ code: departments.code }).from(departments).where(inArray(departments.code, departmentCodes))
    : [];
  const foundIds = new Set(found.map((u) => u.userId));
  const foundCodes = new Set(foundDepartments.map((d) => d.code));
  return {
    userNos: found.map((u) => u.userNo),
    missingUsers: userIds.filter((id) => !foundIds.has(id.toLowerCase())),
    missingDepartments: departmentCodes.filter((code) => !foundCodes.has(code)),
  };
}

export async function replaceMembers(q: Queryable, projectNo: number, userNos: number[], departmentCodes: string[]): Promise<void> {
  await q.delete(projectParticipants).where(eq(projectParticipants.projectNo, projectNo));
  await q.delete(projectDepartments).where(eq(projectDepartments.projectNo, projectNo));
  if (userNos.length) await q.insert(projectParticipants).values(userNos.map((userNo) => ({ projectNo, userNo })));
  if (departmentCodes.length)
    await q.insert(projectDepartments).values(departmentCodes.map((departmentCode) => ({ projectNo, departmentCode })));
}

/** A signed reviewer signature on a live note of the project: the condition for closing it. */
export function reviewerSignedSql(projectNo: SQLWrapper | number): SQL {
  return sql`exists (select 1 from ${noteSignatures} inner join ${labNotes} on ${labNotes.noteNo} = ${noteSignatures.noteNo}
    where ${labNotes.projectNo} = ${projectNo} and ${labNotes.deletedAt} is null and ${noteSignatures.removedAt} is null
    and ${noteSignatures.type} = 'reviewer' and ${noteSignatures.status} = 'T')`;
}

export async function hasReviewerSignature(q: Queryable, projectNo: number): Promise<boolean> {
  const [row] = await q
    .select({ yes: sql<boolean>`${reviewerSignedSql(projectNo)}` })
    .from(projects)
    .where(eq(projects.projectNo, projectNo));
  return Boolean(row?.yes);
}

async function departmentName(q: Queryable, code: string | null): Promise<string | null> {
  if (!code) return null;
  const [row] = await q.select({ name: departments.name }).from(departments).where(eq(departments.code, code));
  return row?.name ?? null;
}

/** The project's signature requests nobody has answered (nor removed): the ones closing cancels. */
export function pendingSignaturesOf(q: Queryable, projectNo: number) {
  return q
    .select({ signature: noteSignatures, note: labNotes, signer: { userId: users.userId, name: users.name } })
    .from(noteSignatures)
    .innerJoin(labNotes, eq(labNotes.noteNo, noteSignatures.noteNo))
    .innerJoin(users, eq(users.userNo, noteSignatures.userNo))
    .where(
      and(
        eq(labNotes.projectNo, projectNo),
        isNull(labNotes.deletedAt),
        isNull(noteSignatures.removedAt),
        eq(noteSignatures.status, SIGNATURE_STATUS.pending),
      ),
    )
    .orderBy(asc(labNotes.noteNo), asc(noteSignatures.signatureId));
}

/**
 * What closing the project would leave unfinished (`projectClosePreview`): its pending signature
 * requests, and its notes never saved as a version, or changed since their last one (`unsavedNoteSql`).
 */
async function closePreview(q: Queryable, projectNo: number): Promise<ProjectClosePreview> {
  const [pending, unsaved] = await Promise.all([
    pendingSignaturesOf(q, projectNo),
    q
      .select({ note: labNotes, writer: users.name })
      .from(labNotes)
      .innerJoin(users, eq(users.userNo, labNotes.writerUserNo))
      .where(and(eq(labNotes.projectNo, projectNo), isNull(labNotes.deletedAt), unsavedNoteSql()))
      .orderBy(asc(labNotes.noteNo)),
  ]);
  const named = (note: typeof labNotes.$inferSelect) => ({ labNoteNo: note.noteNo, labNoteNumber: note.labNoteNumber, title: note.title });
  return {
    pendingSignatures: pending.map(({ signature, note, signer }) => ({
      ...named(note),
      signatureId: signature.signatureId,
      userId: signer.userId,
      name: signer.name,
      type: signature.type,
      requestedAt: signature.requestedAt.toISOString(),
    })),
    unsavedNotes: unsaved.map(({ note, writer }) => ({
      ...named(note),
      version: note.version,
      writer,
      reason: note.version === 0 ? ('neverSaved' as const) : ('changedSinceSave' as const),
    })),
  };
}

/** The close preview, for whoever may close the project now (its leader, while it is in progress). */
export async function closePreviewFor(q: Queryable, user: AuthUser, projectNo: number): Promise<ProjectClosePreview> {
  const { project } = await requireReadableProject(q, user, projectNo);
  enforce(canFinishProject(user, project), MODIFY_REFUSALS);
  return closePreview(q, project.projectNo);
}
