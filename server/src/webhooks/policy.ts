import { ERR, NOTEBOOK_WIDE_WEBHOOK_EVENTS, type WebhookDeliveryStatus, type WebhookEvent } from '@eln/shared';
import type { AuthUser } from '../auth/authUser.js';
import type { Refusals } from '../http/verdicts.js';
import { isAdministrator } from '../users/policy.js';

/*
 * Who may do what with webhooks: administrators with every endpoint (and alone with those that hear of the
 * whole notebook), a project's leader with the project's endpoints. Deliveries are checked again when they
 * go (`mayStillReceive`): an owner who is no longer an administrator, or no longer leads the project, is
 * sent nothing more.
 */

type Caller = Pick<AuthUser, 'userNo' | 'level'>;
/** The scope of an endpoint: the whole notebook (projectNo null) or one project and its leader. */
export interface WebhookScope {
  projectNo: number | null;
  /** The project's leader (null for the whole notebook). */
  leaderUserNo: number | null;
}

export type ManageVerdict = 'allowed' | 'notLeader';
export type EventsVerdict = 'allowed' | 'notebookWide';
export type RedeliverVerdict = 'allowed' | 'underway';

export const MANAGE_REFUSALS: Refusals<ManageVerdict> = { notLeader: ERR.forbidden };
/** Someone who may not manage an endpoint is told it does not exist: endpoints cannot be probed. */
export const ENDPOINT_REFUSALS: Refusals<ManageVerdict> = { notLeader: ERR.webhookMissing };
export const EVENTS_REFUSALS: Refusals<EventsVerdict> = { notebookWide: ERR.webhookProjectEvents };
export const REDELIVER_REFUSALS: Refusals<RedeliverVerdict> = { underway: ERR.webhookDeliveryUnderway };

/** Administrators manage every scope; a leader their project's endpoints. */
export function canManageWebhooks(user: Caller, scope: WebhookScope): ManageVerdict {
  if (isAdministrator(user)) return 'allowed';
  return scope.projectNo !== null && scope.leaderUserNo === user.userNo ? 'allowed' : 'notLeader';
}

/** Who can own an endpoint at all (and so be told when one is turned off): administrators and project leaders. */
export function mayOwnWebhooks(user: Caller, facts: { leadsAProject: boolean }): boolean {
  return isAdministrator(user) || facts.leadsAProject;
}

/** A project's endpoint hears only of what happens in the project. */
export function canChooseEvents(scope: Pick<WebhookScope, 'projectNo'>, events: readonly WebhookEvent[]): EventsVerdict {
  return scope.projectNo !== null && events.some((event) => NOTEBOOK_WIDE_WEBHOOK_EVENTS.includes(event)) ? 'notebookWide' : 'allowed';
}

/** A delivery still on its way is not sent again: it would arrive twice. */
export function canRedeliver(delivery: { status: WebhookDeliveryStatus }): RedeliverVerdict {
  return delivery.status === 'pending' || delivery.status === 'sending' ? 'underway' : 'allowed';
}

/** Whether an endpoint's owner, as they are now, may still be sent what its scope tells of. */
export function mayStillReceive(owner: Caller & { active: boolean }, scope: WebhookScope): boolean {
  return owner.active && canManageWebhooks(owner, scope) === 'allowed';
}
