import { ERR, type CallRequest, type api } from '@eln/shared';
import { appendAudit, auditedActor } from '../../audit/audit.js';
import type { Actor } from '../../auth/authUser.js';
import { projects } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import { enforce } from '../../http/verdicts.js';
import type { Services } from '../../services.js';
import { canCreateProject, CREATE_REFUSALS } from '../policy.js';
import { projectAuditView, projectDetail, replaceMembers, titleTaken } from '../queries.js';
import { refusingDuplicateTitles, resolveMembers } from './members.js';

/** A new project led by the caller, with its participants; audited with what it holds. */
export async function createProject(
  { db }: Services,
  actor: Actor,
  input: CallRequest<typeof api.projects.create>,
): Promise<{ projectNo: number }> {
  enforce(canCreateProject(actor.user), CREATE_REFUSALS);
  if (await titleTaken(db, input.title)) throw new AppError(ERR.projectDuplicate);
  const members = await resolveMembers(db, input.signatureList);
  return refusingDuplicateTitles(() =>
    db.transaction(async (tx) => {
      const [created] = await tx
        .insert(projects)
        .values({ title: input.title, description: input.description, leaderUserNo: actor.user.userNo })
        .returning();
      if (!created) throw new Error('project insert returned nothing');
      await replaceMembers(tx, created.projectNo, members.userNos, members.departmentCodes);
      const detail = await projectDetail(tx, created, actor.user);
      await appendAudit(tx, {
        ...auditedActor(actor),
        action: 'project.created',
        target: { type: 'project', id: created.projectNo },
        after: projectAuditView(detail),
      });
      return { projectNo: created.projectNo };
    }),
  );
}
