import type { FastifyReply, FastifyRequest } from 'fastify';
import { REFRESH_COOKIE, TIMING, type RefreshTransport, type SignInAnswer } from '@eln/shared';

/**
 * The browser's refresh token lives in an httpOnly cookie that only the refresh call receives
 * (SameSite=Strict, path /server/v1/user/refresh, Secure when served over https), so no script on the
 * page can read a credential that outlives the tab; the access token stays in the tab's memory.
 */
const attributes = (request: FastifyRequest) => ({
  httpOnly: true,
  sameSite: 'strict' as const,
  secure: request.protocol === 'https',
  path: REFRESH_COOKIE.path,
});

/** The refresh token the browser sent in its cookie, if any. */
export function refreshTokenFromCookie(request: FastifyRequest): string | undefined {
  return request.cookies[REFRESH_COOKIE.name] || undefined;
}

/**
 * Hands a new session's tokens over the chosen transport: with `cookie`, the refresh token goes into the
 * cookie and the answer carries an empty one.
 */
export function deliverTokens(
  request: FastifyRequest,
  reply: FastifyReply,
  transport: RefreshTransport | undefined,
  answer: SignInAnswer,
): SignInAnswer {
  if (transport !== 'cookie') return answer;
  reply.setCookie(REFRESH_COOKIE.name, answer.refreshToken, { ...attributes(request), maxAge: TIMING.refreshTokenSeconds });
  return { ...answer, refreshToken: '' };
}

/**
 * Removes the cookie (sign-out, a refused refresh). Sign-out is not sent the cookie (its path is the
 * refresh call's), so it is removed whether or not it came.
 */
export function clearRefreshCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(REFRESH_COOKIE.name, attributes(request));
}
