import { ADMIN_LEVEL, PROJECT_STATUS } from '@eln/shared';
import type { AuthUser } from '../auth/authUser.js';
import type { ProjectRecord } from './queries.js';

export type ModifyVerdict = 'allowed' | 'notLeader' | 'completed';

/** Only the leader or an administrator changes a project, and nobody changes a completed one. */
export function canModifyProject(user: AuthUser, project: Pick<ProjectRecord, 'leaderUserNo' | 'status'>): ModifyVerdict {
  if (user.level !== ADMIN_LEVEL && project.leaderUserNo !== user.userNo) return 'notLeader';
  if (project.status !== PROJECT_STATUS.inProgress) return 'completed';
  return 'allowed';
}
