import type { FastifyInstance } from 'fastify';
import {
  AUDIT_SYSTEM_REASONS,
  emptyRequest,
  ERR,
  SSO,
  ssoFinishRequest,
  ssoStartRequest,
  type AuditSystemReason,
  type ErrorCode,
  type SignInAnswer,
  type SsoConfigAnswer,
  type SsoStartAnswer,
} from '@eln/shared';
import { appendAudit, auditAlone } from '../../audit/audit.js';
import { AppError } from '../../http/errors.js';
import { languageOf } from '../../http/envelope.js';
import { defineRoute } from '../../http/route.js';
import type { Services } from '../../services.js';
import { admitSignIn, findUserById, type UserRow } from '../admit.js';
import { throttleKeys } from '../throttle.js';
import { OidcClient, SsoFailure, type ProviderIdentity, type SsoFlow } from './oidcClient.js';
import { createSsoUser, LicenceRefusal, userIdFromClaims } from './ssoAccounts.js';
import { setFlowCookie, setSignOutCookie, takeFlowCookie } from './ssoCookies.js';
import type { SsoConfig } from './ssoConfig.js';

/** What an SSO refusal that may be someone else's doing answers, and why the audit trail says it was refused. */
const SUSPECT_REFUSALS = {
  state: { code: ERR.ssoStateMismatch, reason: 'ssoStateMismatch' },
  nonceMismatch: { code: ERR.ssoAnswerRefused, reason: 'ssoNonceMismatch' },
  answerInvalid: { code: ERR.ssoAnswerRefused, reason: 'ssoAnswerInvalid' },
  codeSpent: { code: ERR.ssoCodeSpent, reason: 'ssoCodeSpent' },
} as const satisfies Record<string, { code: ErrorCode; reason: AuditSystemReason }>;
type SuspectRefusal = keyof typeof SUSPECT_REFUSALS;

/**
 * Single sign-on (OpenID Connect, authorization code with PKCE). `/v1/user/login/okta/config` always
 * exists and tells the sign-in page whether to offer SSO; the start and finish calls exist only when a
 * provider is configured.
 */
export function registerSsoRoutes(app: FastifyInstance, services: Services): void {
  const settings = services.config.sso;

  defineRoute(app, services, {
    path: '/v1/user/login/okta/config',
    access: 'public',
    body: emptyRequest,
    handler: async (): Promise<SsoConfigAnswer> => ({ enabled: settings !== null }),
  });

  if (!settings) return;
  const provider = new OidcClient(settings);

  defineRoute(app, services, {
    path: '/v1/user/login/okta/start',
    access: 'public',
    body: ssoStartRequest,
    async handler({ request, reply }): Promise<SsoStartAnswer> {
      const { flow, authorizationUrl } = await provider.begin(languageOf(request)).catch((error: unknown) => {
        throw error instanceof SsoFailure ? refusalOfProvider(services, error) : error;
      });
      setFlowCookie(app.jwt, request, reply, flow);
      return { authorizationUrl };
    },
  });

  defineRoute(app, services, {
    path: '/v1/user/login/okta',
    access: 'public',
    failure: ERR.tokenIssue,
    body: ssoFinishRequest,
    async handler({ body, request, reply, clientAddress }): Promise<SignInAnswer> {
      await refuseWhileLocked(services, clientAddress);
      // One flow, one answer: the flow cookie goes now, whatever happens next.
      const flow = takeFlowCookie(app.jwt, request, reply);
      // The provider said no (the user cancelled, is not assigned to the notebook, ...): nothing to check.
      if (body.error !== undefined) throw refusalOfProvider(services, new SsoFailure('providerRefused', body.error));
      const { userId, identity } = await identify(services, settings, provider, flow, body, clientAddress);
      const user = (await findUserById(services.db, userId)) ?? (await newAccount(services, settings, userId, identity, clientAddress));
      const admitted = await admitSignIn(services, {
        user,
        request,
        reply,
        clientAddress,
        refreshIn: body.refreshIn,
        method: ssoMethod(settings),
      });
      setSignOutCookie(app.jwt, request, reply, admitted.sessionId, identity.endSessionUrl);
      return admitted.answer;
    },
  });
}

/** How a sign-in proved who it is, as the audit records say it (`after`). */
const ssoMethod = (settings: SsoConfig) => ({ method: 'sso', issuer: settings.issuer });

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
  settings: SsoConfig,
  provider: OidcClient,
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

/** The provider is down (1022) or said no (1021): logged, not audited (no one was identified). */
function refusalOfProvider(services: Services, error: SsoFailure): AppError {
  if (error.kind === 'providerRefused') {
    // Warn: besides a user's cancel, this is how a wrong client secret or an unassigned user shows.
    services.log.warn({ providerError: error.detail }, 'single sign-on refused by the provider');
    return new AppError(ERR.ssoProviderRefused, { params: { reason: error.detail } });
  }
  services.log.warn({ err: error }, 'single sign-on provider unreachable');
  return new AppError(ERR.ssoProviderDown);
}
