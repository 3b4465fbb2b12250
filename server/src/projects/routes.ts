import { and, eq, inArray, isNull, ne } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  ERR,
  NOTE_STATUS,
  noteDocumentName,
  PROJECT_STATUS,
  projectCreateRequest,
  projectListRequest,
  projectNoRequest,
  projectUpdateRequest,
  splitList,
  type ProjectDetail,
  type ProjectEditorAnswer,
} from '@eln/shared';
import { appendAudit } from '../audit/audit.js';
import type { AuthUser } from '../auth/authUser.js';
import type { Queryable } from '../db/client.js';
import { isUniqueViolation } from '../db/errors.js';
import { labNotes, noteHolds, projects } from '../db/schema.js';
import { AppError } from '../http/errors.js';
import { defineRoute } from '../http/route.js';
import type { Services } from '../services.js';
import { enforce } from '../http/verdicts.js';
import { canCreateProject, canFinishProject, canModifyProject, CREATE_REFUSALS, MODIFY_REFUSALS } from './policy.js';
import { listProjectNotes } from '../notes/queries.js';
import {
  hasReviewerSignature,
  requireReadableProject,
  listProjects,
  projectDetail,
  replaceMembers,
  resolveSignatureList,
} from './queries.js';

/** What the audit trail keeps of a project. */
const auditView = (detail: ProjectDetail) => ({
  title: detail.title,
  description: detail.description,
  status: detail.status,
  signatureList: detail.signatureList,
});

async function resolveMembers(q: Queryable, signatureList: { department: string; user: string }) {
  const resolved = await resolveSignatureList(q, splitList(signatureList.user), splitList(signatureList.department));
  if (resolved.missingUsers.length) throw new AppError(ERR.participantMissing, { data: { missing: resolved.missingUsers } });
  if (resolved.missingDepartments.length) throw new AppError(ERR.departmentMissing, { data: { missing: resolved.missingDepartments } });
  return { userNos: resolved.userNos, departmentCodes: splitList(signatureList.department) };
}

async function titleTaken(q: Queryable, title: string, exceptProjectNo?: number): Promise<boolean> {
  const [row] = await q
    .select({ no: projects.projectNo })
    .from(projects)
    .where(and(eq(projects.title, title), exceptProjectNo ? ne(projects.projectNo, exceptProjectNo) : undefined));
  return row !== undefined;
}

async function visibleOrMissing(q: Queryable, user: AuthUser, projectNo: number) {
  return (await requireReadableProject(q, user, projectNo)).project;
}

/** Projects: lists, creation by users with the project flag, participants kept by the leader. */
export function registerProjectRoutes(app: FastifyInstance, services: Services): void {
  const { db, config } = services;

  defineRoute(app, services, {
    path: '/v1/project/list',
    access: 'user',
    failure: ERR.projectLookup,
    body: projectListRequest,
    handler: ({ body, user }) => listProjects(db, user, body, config.timeZone),
  });

  defineRoute(app, services, {
    path: '/v1/project/create',
    access: 'user',
    body: projectCreateRequest,
    async handler({ body, user, clientAddress }) {
      enforce(canCreateProject(user), CREATE_REFUSALS);
      if (await titleTaken(db, body.title)) throw new AppError(ERR.projectDuplicate);
      const members = await resolveMembers(db, body.signatureList);
      try {
        return await db.transaction(async (tx) => {
          const [created] = await tx
            .insert(projects)
            .values({ title: body.title, description: body.description, leaderUserNo: user.userNo })
            .returning();
          if (!created) throw new Error('project insert returned nothing');
          await replaceMembers(tx, created.projectNo, members.userNos, members.departmentCodes);
          const detail = await projectDetail(tx, created, user);
          await appendAudit(tx, {
            actor: user,
            action: 'project.created',
            target: { type: 'project', id: created.projectNo },
            after: auditView(detail),
            clientAddress,
          });
          return { projectNo: created.projectNo };
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw new AppError(ERR.projectDuplicate);
        throw error;
      }
    },
  });

  defineRoute(app, services, {
    path: '/v1/project/update',
    access: 'user',
    body: projectUpdateRequest,
    async handler({ body, user, clientAddress }) {
      const project = await visibleOrMissing(db, user, body.projectNo);
      enforce(canModifyProject(user, project), MODIFY_REFUSALS);
      if (body.title && body.title !== project.title && (await titleTaken(db, body.title, project.projectNo)))
        throw new AppError(ERR.projectDuplicate);
      const members = await resolveMembers(db, body.signatureList);
      try {
        // Former participants may write no more (and may no longer see the project): their open editors
        // of its notes turn read-only or close now, on every process, not at their next check.
        await services.live.transaction(db, async (tx, commands) => {
          const before = await projectDetail(tx, project, user);
          // The status condition makes a concurrent close win: a completed project is never changed.
          const [updated] = await tx
            .update(projects)
            .set({ title: body.title ?? project.title, description: body.description ?? project.description, updatedAt: new Date() })
            .where(and(eq(projects.projectNo, project.projectNo), eq(projects.status, PROJECT_STATUS.inProgress)))
            .returning();
          if (!updated) throw new AppError(ERR.projectModify);
          await replaceMembers(tx, project.projectNo, members.userNos, members.departmentCodes);
          const after = await projectDetail(tx, updated, user);
          await appendAudit(tx, {
            actor: user,
            action: 'project.updated',
            target: { type: 'project', id: project.projectNo },
            before: auditView(before),
            after: auditView(after),
            clientAddress,
          });
          commands.recheckUsers(before.participants.map((p) => p.userNo).filter((userNo) => !members.userNos.includes(userNo)));
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw new AppError(ERR.projectDuplicate);
        throw error;
      }
      return null;
    },
  });

  defineRoute(app, services, {
    path: '/v1/project/check',
    access: 'user',
    failure: ERR.participantLookup,
    body: projectNoRequest,
    async handler({ body, user }) {
      return projectDetail(db, await visibleOrMissing(db, user, body.projectNo), user);
    },
  });

  defineRoute(app, services, {
    path: '/v1/project/finish',
    access: 'user',
    body: projectNoRequest,
    async handler({ body, user, clientAddress }) {
      const project = await visibleOrMissing(db, user, body.projectNo);
      enforce(canFinishProject(user, project), MODIFY_REFUSALS);
      if (!(await hasReviewerSignature(db, project.projectNo))) throw new AppError(ERR.noReviewerSignature);
      // Read-only everywhere, at once: open editors of its notes stop writing now.
      await services.live.transaction(db, async (tx, commands) => {
        const [finished] = await tx
          .update(projects)
          .set({ status: PROJECT_STATUS.completed, finishedAt: new Date(), updatedAt: new Date() })
          .where(and(eq(projects.projectNo, project.projectNo), eq(projects.status, PROJECT_STATUS.inProgress)))
          .returning();
        if (!finished) throw new AppError(ERR.projectModify);
        // Updating the notes' rows waits for appends of live updates in flight (they hold the rows
        // `share`, see the lab note DocumentKind); later appends see the notes finished and are refused.
        const closed = await tx
          .update(labNotes)
          .set({ status: NOTE_STATUS.finished, updatedAt: new Date() })
          .where(and(eq(labNotes.projectNo, project.projectNo), isNull(labNotes.deletedAt)))
          .returning({ noteNo: labNotes.noteNo });
        await tx.delete(noteHolds).where(inArray(noteHolds.noteNo, closed.length ? closed.map((n) => n.noteNo) : [-1]));
        await appendAudit(tx, {
          actor: user,
          action: 'project.finished',
          target: { type: 'project', id: project.projectNo },
          before: { status: project.status },
          after: { status: PROJECT_STATUS.completed, notes: closed.length },
          clientAddress,
        });
        for (const { noteNo } of closed) commands.endWriting(noteDocumentName(noteNo), null, 'finished');
      });
      return null;
    },
  });

  defineRoute(app, services, {
    path: '/v1/project/editor',
    access: 'user',
    failure: ERR.noteLookup,
    body: projectNoRequest,
    async handler({ body, user }): Promise<ProjectEditorAnswer> {
      const project = await visibleOrMissing(db, user, body.projectNo);
      return { info: await projectDetail(db, project, user), list: await listProjectNotes(db, project, user) };
    },
  });
}
