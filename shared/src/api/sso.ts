import { z } from 'zod';
import { API_BASE } from '../envelope.js';
import { ERR } from '../errors.js';
import { text } from '../validation.js';
import { defineCall } from './call.js';
import { authCalls, emptyRequest, refreshTransport, signInAnswer } from './identity.js';

/**
 * Single sign-on through OpenID Connect (authorization code with PKCE). The browser starts the flow with
 * `/v1/user/login/okta/start`, goes to the provider, comes back to SSO.callbackRoute (a client page),
 * which posts what the provider sent to `/v1/user/login/okta`; that call answers exactly as signIn.
 */
export const SSO = {
  /** The client page the provider sends the browser back to (spec §2). */
  callbackRoute: '/login/okta/auth/callback',
  /**
   * Longest wait for one request to the provider (discovery, token, keys, user info): the spec's
   * identity-provider library timeout (§9, 15000 ms), so a provider that is down or hangs gets a clear
   * answer instead of a spinning page.
   */
  providerTimeoutMs: 15_000,
  /** A flow must come back within the spec's flow timeout (§9, 120 s): state, nonce and verifier expire then. */
  flowSeconds: 120,
  defaultScopes: 'openid email profile',
  /** The claim whose value is the notebook's user ID (an email). */
  defaultUserClaim: 'email',
} as const;

export const ssoConfigAnswer = z.strictObject({
  /** Whether a provider is configured: the sign-in page shows the SSO button only then. */
  enabled: z.boolean(),
});
export type SsoConfigAnswer = z.infer<typeof ssoConfigAnswer>;

export const ssoStartRequest = z.strictObject({});

export const ssoStartAnswer = z.strictObject({
  /** The provider's authorization address the browser goes to next. */
  authorizationUrl: z.string(),
});
export type SsoStartAnswer = z.infer<typeof ssoStartAnswer>;

/**
 * What the provider sent back to the callback page: a code (with state and, from providers that send it,
 * iss) or an error (access_denied, ...). `refreshIn` as in signIn.
 */
export const ssoFinishRequest = z
  .strictObject({
    code: text().min(1, { error: 'required' }).max(4096).optional(),
    state: text().max(1024).optional(),
    iss: text().max(2048).optional(),
    error: text().max(200).optional(),
    errorDescription: text().max(2000).optional(),
    refreshIn: refreshTransport.optional(),
  })
  .refine((request) => request.code !== undefined || request.error !== undefined, { error: 'required', path: ['code'] });
export type SsoFinishRequest = z.input<typeof ssoFinishRequest>;

/**
 * The single sign-on calls (server/src/auth/sso). Without a configured provider, start and finish answer
 * 9005 as calls this server does not have.
 */
export const ssoCalls = {
  config: defineCall({
    path: '/v1/user/login/okta/config',
    auth: 'public',
    kind: 'query',
    summary: 'Whether single sign-on is configured (the sign-in page offers it only then).',
    request: emptyRequest,
    answer: ssoConfigAnswer,
    errors: [],
  }),
  start: defineCall({
    path: '/v1/user/login/okta/start',
    auth: 'public',
    kind: 'command',
    summary: "Starts a single sign-on flow (its secrets kept in a short-lived cookie) and answers the provider's address.",
    request: ssoStartRequest,
    answer: ssoStartAnswer,
    errors: [ERR.ssoProviderDown, ERR.ssoProviderRefused, ERR.unknownCall],
  }),
  finish: defineCall({
    path: '/v1/user/login/okta',
    auth: 'public',
    kind: 'command',
    summary: "Finishes a single sign-on with the provider's answer and signs the user in (answers as signIn).",
    request: ssoFinishRequest,
    answer: signInAnswer,
    errors: [
      ERR.tooManyAttempts,
      ERR.ssoStateMismatch,
      ERR.ssoAnswerRefused,
      ERR.ssoCodeSpent,
      ERR.ssoProviderRefused,
      ERR.ssoProviderDown,
      ERR.ssoUnknownUser,
      ERR.accountDisabled,
      ERR.licence,
      ERR.tokenIssue,
      ERR.unknownCall,
    ],
    failure: ERR.tokenIssue,
  }),
} as const;

/**
 * The browser's flow cookie: state, nonce and PKCE verifier of the one flow under way, signed by the
 * server, httpOnly, sent only to the SSO calls (their paths all begin with the finishing call's), expiring
 * with the flow.
 */
export const SSO_FLOW_COOKIE = { name: 'eln_sso_flow', path: `${API_BASE}${ssoCalls.finish.path}` } as const;

/**
 * After a single sign-on, the provider's end-session address (with the ID token as hint), signed by the
 * server and sent only to the sign-out call, which answers it so that the client can offer it.
 */
export const SSO_SIGN_OUT_COOKIE = { name: 'eln_sso_end', path: `${API_BASE}${authCalls.signOut.path}` } as const;
