import { z } from 'zod';
import { emailField, newPassword, passwordInput, phoneField, requiredText, text, yesNo } from '../validation.js';
import { LIMITS } from '../limits.js';
import { API_BASE } from '../envelope.js';
import { ERR } from '../errors.js';
import { defineCall, noAnswer } from './call.js';

/**
 * Where the refresh token travels. `cookie` (the browser client): only in an httpOnly, SameSite=Strict
 * cookie scoped to the refresh call, never in an answer a script can read. `body` (other API clients,
 * the default): in the answer, and back in the refresh call's body.
 */
export const refreshTransport = z.enum(['cookie', 'body']);
export type RefreshTransport = z.infer<typeof refreshTransport>;

export const signInRequest = z.strictObject({ userId: emailField, password: passwordInput, refreshIn: refreshTransport.optional() });
export type SignInRequest = z.input<typeof signInRequest>;

/** A refresh with the token in the body, or, with `refreshIn: 'cookie'` and no token, from the cookie. */
export const refreshRequest = z
  .strictObject({ refreshToken: text().min(1, { error: 'required' }).max(200).optional(), refreshIn: refreshTransport.optional() })
  .refine((request) => request.refreshIn === 'cookie' || request.refreshToken !== undefined, { error: 'required', path: ['refreshToken'] });
export type RefreshRequest = z.input<typeof refreshRequest>;
export const emptyRequest = z.strictObject({});

export const findIdRequest = z.strictObject({ name: requiredText(LIMITS.userName), phone: phoneField });
export const findPasswordRequest = z.strictObject({ userId: emailField });
export const passwordResetRequest = z.strictObject({ token: text().min(1, { error: 'required' }).max(200), password: newPassword });

export const authFlags = z.strictObject({ project: yesNo, schema: yesNo, dropbox: yesNo, template: yesNo });
export type AuthFlags = z.infer<typeof authFlags>;
export const AUTH_FLAG_NAMES = ['project', 'schema', 'dropbox', 'template'] as const;

export const sessionUser = z.strictObject({ userId: z.string(), name: z.string(), level: z.number() });
export type SessionUser = z.infer<typeof sessionUser>;

/**
 * What the signed-in user may do anywhere in the notebook, as the server's policies decide it
 * (server/src/auth/presenters.ts): the client shows menus, pages and buttons by these, never by the
 * level or the flags themselves.
 */
export const sessionAbilities = z.strictObject({
  /** Use the administration pages (users, departments, audit trail, licence). */
  administer: z.boolean(),
  /** Create projects (and lead them). */
  createProject: z.boolean(),
});
export type SessionAbilities = z.infer<typeof sessionAbilities>;

export const signInAnswer = z.strictObject({
  accessToken: z.string(),
  /** Empty when it travels in the cookie (`refreshIn: 'cookie'`). */
  refreshToken: z.string(),
  /** Seconds until the access token expires. */
  expiresIn: z.number(),
  user: sessionUser,
  auth: authFlags,
  abilities: sessionAbilities,
});
export type SignInAnswer = z.infer<typeof signInAnswer>;

/** `/v1/user/auth/list`: the caller's auth flags as they are now (the spec's answer), with the abilities they give. */
export const authFlagsAnswer = z.strictObject({ ...authFlags.shape, abilities: sessionAbilities });
export type AuthFlagsAnswer = z.infer<typeof authFlagsAnswer>;

export const findIdAnswer = z.strictObject({
  /** The email with most characters hidden, e.g. "ad***@e***.local". */
  maskedUserId: z.string(),
});
export type FindIdAnswer = z.infer<typeof findIdAnswer>;

export const signOutAnswer = z.strictObject({
  /**
   * After a single sign-on whose provider has an end-session endpoint: where the browser can also end
   * the provider's session (the client offers it on the sign-in page). Null otherwise.
   */
  endSessionUrl: z.string().nullable(),
});
export type SignOutAnswer = z.infer<typeof signOutAnswer>;

/** Hides most of an email so that find ID helps its owner without handing the address to anyone else. */
export function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@');
  const dot = domain.lastIndexOf('.');
  const host = dot > 0 ? domain.slice(0, dot) : domain;
  const tld = dot > 0 ? domain.slice(dot) : '';
  const keep = (text: string, n: number) => text.slice(0, Math.min(n, Math.max(1, text.length - 1))) + '***';
  return `${keep(local, 2)}@${keep(host, 1)}${tld}`;
}

/** Sign-in, token refresh, sign-out, the caller's flags and account recovery (server/src/auth). */
export const authCalls = {
  signIn: defineCall({
    path: '/v1/user/signIn',
    auth: 'public',
    kind: 'command',
    summary: 'Signs in with ID and password: a new session, its access token and refresh token, the user and what they may do.',
    request: signInRequest,
    answer: signInAnswer,
    errors: [ERR.badCredentials, ERR.tooManyAttempts, ERR.accountDisabled, ERR.licence, ERR.tokenIssue],
    failure: ERR.tokenIssue,
  }),
  refresh: defineCall({
    path: '/v1/user/refresh',
    auth: 'public',
    kind: 'command',
    summary: 'Spends a refresh token for new tokens of the same session; a spent token presented again ends the session.',
    request: refreshRequest,
    answer: signInAnswer,
    errors: [ERR.refreshInvalid, ERR.tokenIssue],
    failure: ERR.tokenIssue,
  }),
  signOut: defineCall({
    path: '/v1/user/signOut',
    sessionOnly: true,
    auth: 'user',
    kind: 'command',
    summary: "Ends the caller's session (and its open live connections); after a single sign-on, answers the provider's sign-out address.",
    request: emptyRequest,
    answer: signOutAnswer,
    errors: [ERR.signOutFailed],
    failure: ERR.signOutFailed,
  }),
  flags: defineCall({
    path: '/v1/user/auth/list',
    auth: 'user',
    kind: 'query',
    summary: "The caller's auth flags as they are now, and what they let the caller do.",
    request: emptyRequest,
    answer: authFlagsAnswer,
    errors: [],
  }),
  findId: defineCall({
    path: '/v1/user/find/id',
    auth: 'public',
    kind: 'query',
    summary: 'Finds the ID of the active account with this name and phone, mostly hidden.',
    request: findIdRequest,
    answer: findIdAnswer,
    errors: [ERR.noMatchingAccount, ERR.tooManyAttempts, ERR.employeeLookup],
    failure: ERR.employeeLookup,
  }),
  findPassword: defineCall({
    path: '/v1/user/find/password',
    auth: 'public',
    kind: 'command',
    summary: 'Mails a one-time password reset link to the account with this ID, if there is one (the answer never says).',
    request: findPasswordRequest,
    answer: noAnswer,
    errors: [ERR.tooManyAttempts],
  }),
  resetPassword: defineCall({
    path: '/v1/user/password/reset',
    auth: 'public',
    kind: 'command',
    summary: "Sets a new password with a reset link's token; every session of the account ends.",
    request: passwordResetRequest,
    answer: noAnswer,
    errors: [ERR.resetInvalid, ERR.tooManyAttempts],
  }),
} as const;

/** The refresh token's cookie: sent by the browser to the refresh call only. */
export const REFRESH_COOKIE = { name: 'eln_refresh', path: `${API_BASE}${authCalls.refresh.path}` } as const;
