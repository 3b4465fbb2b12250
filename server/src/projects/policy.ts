import { eq, exists, or, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { ERR, PROJECT_STATUS, type ProjectAbilities } from '@eln/shared';
import type { AuthUser } from '../auth/authUser.js';
import { projectParticipants, projects } from '../db/schema.js';
import type { Refusals } from '../http/verdicts.js';
import type { ProjectRecord } from './record.js';
import { isAdministrator } from '../users/policy.js';
import { canManageWebhooks } from '../webhooks/policy.js';

/*
 * Who may do what with a project: every rule once, as a verdict with its reason. Routes enforce the
 * verdicts with the codes below; answers carry them to the client as `abilities`.
 */

/** What the rules need to know of a project. */
export type ProjectFacts = Pick<ProjectRecord, 'leaderUserNo' | 'status'>;
export type Caller = Pick<AuthUser, 'userNo' | 'level'>;

export type ReadVerdict = 'allowed' | 'hidden';
export type CreateVerdict = 'allowed' | 'noProjectFlag';
export type ModifyVerdict = 'allowed' | 'notLeader' | 'completed';
export type CreateNoteVerdict = 'allowed' | 'notParticipant' | 'completed';
export type ClearHoldsVerdict = 'allowed' | 'notLeader';

/** A project the caller may not see answers 404, so that others' projects cannot even be probed. */
export const READ_REFUSALS: Refusals<ReadVerdict> = { hidden: ERR.notFound };
export const CREATE_REFUSALS: Refusals<CreateVerdict> = { noProjectFlag: ERR.forbidden };
export const MODIFY_REFUSALS: Refusals<ModifyVerdict> = { notLeader: ERR.forbidden, completed: ERR.projectModify };
/** A closed project says so (2026): "could not be modified" (2002) would not tell the caller why. */
export const CREATE_NOTE_REFUSALS: Refusals<CreateNoteVerdict> = { notParticipant: ERR.forbidden, completed: ERR.projectClosed };
export const CLEAR_HOLDS_REFUSALS: Refusals<ClearHoldsVerdict> = { notLeader: ERR.forbidden };

export const leads = (user: Pick<Caller, 'userNo'>, project: Pick<ProjectFacts, 'leaderUserNo'>) => project.leaderUserNo === user.userNo;
export const inProgress = (project: Pick<ProjectFacts, 'status'>) => project.status === PROJECT_STATUS.inProgress;

/** An administrator sees every project; others those they lead or take part in. */
export function canReadProject(user: Caller, project: ProjectFacts, participant: boolean): ReadVerdict {
  return isAdministrator(user) || leads(user, project) || participant ? 'allowed' : 'hidden';
}

/** Users whose account carries the project flag create projects (and lead them). */
export function canCreateProject(user: Pick<AuthUser, 'auth'>): CreateVerdict {
  return user.auth.project === 'Y' ? 'allowed' : 'noProjectFlag';
}

/**
 * Whether the user is listed as a participant of the project of the row being read (an SQL subquery).
 * The user's number may be a placeholder, bound when a query built once runs (db/builtOnce.ts).
 */
export function participantSql(userNo: number | Placeholder): SQL {
  return sql`(select 1 from ${projectParticipants} where ${projectParticipants.projectNo} = ${projects.projectNo} and ${projectParticipants.userNo} = ${userNo})`;
}

/**
 * Whether the user takes part in the project of the row being read: its leader always does, listed or
 * not (docs/decisions.md); anyone else when listed as a participant.
 */
export function takesPartSql(userNo: number | Placeholder): SQL {
  return sql`(${or(eq(projects.leaderUserNo, userNo), exists(participantSql(userNo)))})`;
}

/** `takesPartSql` for a project already read: the leader, or a listed participant. */
export const takesPart = (user: Pick<Caller, 'userNo'>, project: Pick<ProjectFacts, 'leaderUserNo'>, listed: boolean) =>
  leads(user, project) || listed;

/** `canReadProject` as the condition that lists and look-ups filter by (undefined: every project). */
export function visibleProjectsSql(user: Caller): SQL | undefined {
  if (isAdministrator(user)) return undefined;
  return takesPartSql(user.userNo);
}

/** Only the leader or an administrator changes a project, and nobody changes a completed one. */
export function canModifyProject(user: Caller, project: ProjectFacts): ModifyVerdict {
  if (!isAdministrator(user) && !leads(user, project)) return 'notLeader';
  if (!inProgress(project)) return 'completed';
  return 'allowed';
}

/**
 * Closing is the leader's alone (not an administrator's): it is the leader who answers for the work.
 * Its precondition on the record, a reviewer's signature (2022), is checked by the command.
 */
export function canFinishProject(user: Caller, project: ProjectFacts): ModifyVerdict {
  if (!leads(user, project)) return 'notLeader';
  if (!inProgress(project)) return 'completed';
  return 'allowed';
}

/** Those who take part (the leader and the participants) write the notes, so they create them; a completed project takes no new ones. */
export function canCreateNote(project: ProjectFacts, participant: boolean): CreateNoteVerdict {
  if (!participant) return 'notParticipant';
  if (!inProgress(project)) return 'completed';
  return 'allowed';
}

/** Releasing everyone's hold on the project's notes: the leader's or an administrator's. */
export function canClearAllHolds(user: Caller, project: ProjectFacts): ClearHoldsVerdict {
  return isAdministrator(user) || leads(user, project) ? 'allowed' : 'notLeader';
}

/** Whoever may read a project may take it out (PDF, .eln): administrators, its leader and its participants. */
export function canExportProject(user: Caller, project: ProjectFacts, participant: boolean): ReadVerdict {
  return canReadProject(user, project, participant);
}

export function projectAbilities(user: Caller, project: ProjectFacts, participant: boolean): ProjectAbilities {
  return {
    modify: canModifyProject(user, project) === 'allowed',
    finish: canFinishProject(user, project) === 'allowed',
    createNote: canCreateNote(project, participant) === 'allowed',
    clearHolds: canClearAllHolds(user, project) === 'allowed',
    export: canExportProject(user, project, participant) === 'allowed',
    webhooks: canManageWebhooks(user, { projectNo: 0, leaderUserNo: project.leaderUserNo }) === 'allowed',
  };
}
