import { z } from 'zod';
import { emailField, newPassword, passwordInput, phoneField, requiredText, text, yesNo } from '../validation.js';
import { LIMITS } from '../limits.js';
import { API_BASE } from '../envelope.js';

/**
 * Where the refresh token travels. `cookie` (the browser client): only in an httpOnly, SameSite=Strict
 * cookie scoped to the refresh call, never in an answer a script can read. `body` (other API clients,
 * the default): in the answer, and back in the refresh call's body.
 */
export const refreshTransport = z.enum(['cookie', 'body']);
export type RefreshTransport = z.infer<typeof refreshTransport>;

/** The refresh token's cookie: sent by the browser to the refresh call only. */
export const REFRESH_COOKIE = { name: 'eln_refresh', path: `${API_BASE}/v1/user/refresh` } as const;

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

export interface SessionUser {
  userId: string;
  name: string;
  level: number;
}

export interface SignInAnswer {
  accessToken: string;
  /** Empty when it travels in the cookie (`refreshIn: 'cookie'`). */
  refreshToken: string;
  /** Seconds until the access token expires. */
  expiresIn: number;
  user: SessionUser;
  auth: AuthFlags;
}

export interface FindIdAnswer {
  /** The email with most characters hidden, e.g. "ad***@e***.local". */
  maskedUserId: string;
}

/** Hides most of an email so that find ID helps its owner without handing the address to anyone else. */
export function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@');
  const dot = domain.lastIndexOf('.');
  const host = dot > 0 ? domain.slice(0, dot) : domain;
  const tld = dot > 0 ? domain.slice(dot) : '';
  const keep = (text: string, n: number) => text.slice(0, Math.min(n, Math.max(1, text.length - 1))) + '***';
  return `${keep(local, 2)}@${keep(host, 1)}${tld}`;
}
