import {
  AUDIT_SYSTEM_REASONS,
  ERR,
  SSO,
  type api,
  type AuditSystemReason,
  type CallRequest,
  type ErrorCode,
  type SignInAnswer,
} from '@eln/shared';
import { appendAudit, auditAlone } from '../../../audit/audit.js';
import { AppError } from '../../../http/errors.js';
import type { Services } from '../../../services.js';
import { admitSignIn } from '../../admit.js';
import type { Visitor } from '../../authUser.js';
import { findUserById, type UserRow } from '../../queries.js';
import { throttleKeys } from '../../throttle.js';
import { SsoFailure, type ProviderIdentity, type SsoFlow } from '../oidcClient.js';
import { createSsoUser, LicenceRefusal, userIdFromClaims } from '../ssoAccounts.js';
import { setSignOutCookie, takeFlowCookie } from '../ssoCookies.js';
import type { SsoConfig } from '../ssoConfig.js';
import { refusalOfProvider, ssoMethod, type SingleSignOn } from '../singleSignOn.js';

/** What an SSO refusal that may be someone else's doing answers, and why the audit trail says it was refused. */
const SUSPECT_REFUSALS = {
  state: { code: ERR.ssoStateMismatch, reason: 'ssoStateMismatch' },
  nonceMismatch: { code: ERR.ssoAnswerRefused, reason: 'ssoNonceMismatch' },
  answerInvalid: { code: ERR.ssoAnswerRefused, reason: 'ssoAnswerInvalid' },
  codeSpent: { code: ERR.ssoCodeSpent, reason: 'ssoCodeSpent' },
} as const satisfies Record<string, { code: ErrorCode; reason: AuditSystemReason }>;
type SuspectRefusal = keyof typeof SUSPECT_REFUSALS;

/**
 * Finishes a single sign-on with what the provider sent back to the callback page: the answer proven to
 * belong to this browser's flow, the user found (or made, when the settings say so) and let in as a
 * password sign-in would be; the provider's end-session address is kept for the sign-out.
 */
export async function finishSingleSignOn(
  services: Services,
  sso: SingleSignOn,
  visitor: Visitor,
  input: CallRequest<typeof api.sso.finish>,
): Promise<SignInAnswer> {
  const { settings } = sso;
  const { request, reply, clientAddress } = visitor;
  await refuseWhileLocked(services, clientAddress);
  // One flow, one answer: the flow cookie goes now, whatever happens next.
  const flow = takeFlowCookie(request.server.jwt, request, reply);
  // The provider said no (the user cancelled, is not assigned to the notebook, ...): nothing to check.
  if (input.error !== undefined) throw refusalOfProvider(services, new SsoFailure('providerRefused', input.error));
  const { userId, identity } = await identify(services, sso, flow, input, clientAddress);
  const user = (await findUserById(services.db, userId)) ?? (await newAccount(services, settings, userId, identity, clientAddress));
  const admitted = await admitSignIn(services, visitor, { user, refreshIn: input.refreshIn, method: ssoMethod(settings) });
  setSignOutCookie(request.server.jwt, request, reply, admitted.sessionId, identity.endSessionUrl);
  return admitted.answer;
}

/** While the client address is locked (too many failed sign-ins of any kind), SSO answers 1004 too. */
async function refuseWhileLocked(services: Services, clientAddress: string): Promise<void> {
  const addressKey = throttleKeys.address(clientAddress);
  const lockedFor = await services.throttle.lockedForSeconds(services.db, [addressKey]);
  if (lockedFor > 0) {
    await services.throttle.recordRefusal(services.db, [addressKey]);
    throw services.throttle.lockedError(lockedFor);
  }
}

/**
 * Who the provider's answer names, once it is proven to belong to this browser's flow (state), the code
 * is exchanged with the flow's PKCE verifier and the ID token checked (nonce included).
 */
async function identify(
  services: Services,
  { settings, provider }: SingleSignOn,
  flow: SsoFlow | null,
  callback: { code?: string; state?: string; iss?: string },
  clientAddress: string,
): Promise<{ userId: string; identity: ProviderIdentity }> {
  const suspect = (refusal: SuspectRefusal, after?: Record<string, unknown>) =>
    refuseSuspect(services, settings, clientAddress, refusal, after);
  if (!flow || callback.code === undefined || callback.state !== flow.state) {
    throw await suspect('state', { flow: flow ? 'another' : 'none' });
  }
  const identity = await provider
    .complete(flow, { code: callback.code, state: callback.state, iss: callback.iss })
    .catch(async (error: unknown) => {
      if (!(error instanceof SsoFailure)) throw error;
      if (error.kind === 'providerDown' || error.kind === 'providerRefused') throw refusalOfProvider(services, error);
      services.log.warn({ err: error }, 'single sign-on answer refused');
      throw await suspect(error.kind, { detail: error.detail });
    });
  const named = userIdFromClaims(identity.claims, settings.userClaim);
  if ('problem' in named) throw await suspect('answerInvalid', { claim: settings.userClaim, problem: named.problem });
  return { userId: named.userId, identity };
}

/** The account of a provider user the notebook does not know: refused (1017), or made when the settings say so. */
async function newAccount(
  services: Services,
  settings: SsoConfig,
  userId: string,
  identity: ProviderIdentity,
  clientAddress: string,
): Promise<UserRow> {
  const method = ssoMethod(settings);
  if (!settings.createUsers) {
    await auditAlone(services.db, {
      actor: null,
      action: 'user.signInRefused',
      target: { type: 'user', id: userId },
      after: method,
      reason: AUDIT_SYSTEM_REASONS.ssoUnknownUser,
      clientAddress,
    });
    throw new AppError(ERR.ssoUnknownUser, { params: { userId } });
  }
  try {
    const created = await createSsoUser(services.db, {
      userId,
      claims: identity.claims,
      departmentCode: settings.newUserDepartment,
      trustedLicenceKeys: services.config.trustedLicenceKeys,
      clientAddress,
    });
    if (!created.departmentFound)
      services.log.warn(
        { department: settings.newUserDepartment, userId },
        'OIDC_NEW_USER_DEPARTMENT names no department: the new account has none',
      );
    return created.row;
  } catch (error) {
    if (!(error instanceof LicenceRefusal)) throw error;
    await auditAlone(services.db, {
      actor: null,
      action: 'user.signInRefused',
      target: { type: 'user', id: userId },
      after: method,
      reason: error.message,
      clientAddress,
    });
    throw new AppError(ERR.licence);
  }
}

/**
 * A refusal that may be an attack (a forged or replayed answer, another browser's flow): audited as a
 * failed sign-in and counted against the client address like a wrong password, so that it cannot be
 * tried endlessly.
 */
async function refuseSuspect(
  services: Services,
  settings: SsoConfig,
  clientAddress: string,
  refusal: SuspectRefusal,
  after?: Record<string, unknown>,
): Promise<AppError> {
  const { code, reason } = SUSPECT_REFUSALS[refusal];
  const failures = await services.db.transaction(async (tx) => {
    await appendAudit(tx, {
      actor: null,
      action: 'user.signInFailed',
      target: { type: 'sso', id: settings.issuer },
      after: { method: 'sso', ...after },
      reason: AUDIT_SYSTEM_REASONS[reason],
      clientAddress,
    });
    return services.throttle.recordAddressFailure(tx, throttleKeys.address(clientAddress));
  });
  if (failures === 0) return services.throttle.lockedError();
  return new AppError(code, code === ERR.ssoStateMismatch ? { params: { minutes: SSO.flowSeconds / 60 } } : {});
}
