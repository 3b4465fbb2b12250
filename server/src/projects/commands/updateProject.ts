import { and, eq } from 'drizzle-orm';
import { ERR, PROJECT_STATUS, type CallRequest, type api } from '@eln/shared';
import { appendAudit, auditedActor } from '../../audit/audit.js';
import type { Actor } from '../../auth/authUser.js';
import { projects } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import { enforce } from '../../http/verdicts.js';
import type { Services } from '../../services.js';
import { canModifyProject, MODIFY_REFUSALS } from '../policy.js';
import { projectAuditView, projectDetail, replaceMembers, requireReadableProject, titleTaken } from '../queries.js';
import { refusingDuplicateTitles, resolveMembers } from './members.js';

/**
 * Changes a project's title, description and participants (its leader or an administrator, while in
 * progress). Former participants may write no more and no longer see it: their open editors of its notes
 * turn read-only or close now, on every process, not at their next check.
 */
export async function updateProject({ db, live }: Services, actor: Actor, input: CallRequest<typeof api.projects.update>): Promise<null> {
  const { project } = await requireReadableProject(db, actor.user, input.projectNo);
  enforce(canModifyProject(actor.user, project), MODIFY_REFUSALS);
  if (input.title && input.title !== project.title && (await titleTaken(db, input.title, project.projectNo))) {
    throw new AppError(ERR.projectDuplicate);
  }
  const members = await resolveMembers(db, input.signatureList);
  await refusingDuplicateTitles(() =>
    live.transaction(db, async (tx, commands) => {
      const before = await projectDetail(tx, project, actor.user);
      // The status condition makes a concurrent close win: a completed project is never changed.
      const [updated] = await tx
        .update(projects)
        .set({ title: input.title ?? project.title, description: input.description ?? project.description, updatedAt: new Date() })
        .where(and(eq(projects.projectNo, project.projectNo), eq(projects.status, PROJECT_STATUS.inProgress)))
        .returning();
      if (!updated) throw new AppError(ERR.projectModify);
      await replaceMembers(tx, project.projectNo, members.userNos, members.departmentCodes);
      const after = await projectDetail(tx, updated, actor.user);
      await appendAudit(tx, {
        ...auditedActor(actor),
        action: 'project.updated',
        target: { type: 'project', id: project.projectNo },
        before: projectAuditView(before),
        after: projectAuditView(after),
      });
      commands.recheckUsers(before.participants.map((p) => p.userNo).filter((userNo) => !members.userNos.includes(userNo)));
    }),
  );
  return null;
}
