import type { JWT } from '@fastify/jwt';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SSO, SSO_FLOW_COOKIE, SSO_SIGN_OUT_COOKIE, TIMING } from '@eln/shared';
import type { SsoFlow } from './oidcClient.js';

/**
 * Both cookies are JWTs signed with the server's key (so every process reads them and no one can alter
 * them), each with its own `typ` so that neither passes for an access token or for the other. httpOnly,
 * SameSite=Strict and scoped to the calls that read them; Secure when served over https.
 */
const attributes = (request: FastifyRequest, path: string) => ({
  httpOnly: true,
  sameSite: 'strict' as const,
  secure: request.protocol === 'https',
  path,
});

interface FlowClaims extends SsoFlow {
  typ: 'ssoFlow';
}

interface SignOutClaims {
  typ: 'ssoSignOut';
  /** The session the single sign-on opened: the address is offered only when that session signs out. */
  sid: string;
  url: string;
}

const isString = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

function verified(jwt: JWT, token: string | undefined): Record<string, unknown> | null {
  if (!token) return null;
  try {
    const claims: unknown = jwt.verify(token);
    return typeof claims === 'object' && claims !== null ? (claims as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Keeps the flow's state, nonce and verifier in the browser for the flow timeout. */
export function setFlowCookie(jwt: JWT, request: FastifyRequest, reply: FastifyReply, flow: SsoFlow): void {
  const claims: FlowClaims = { typ: 'ssoFlow', ...flow };
  reply.setCookie(SSO_FLOW_COOKIE.name, jwt.sign(claims, { expiresIn: SSO.flowSeconds }), {
    ...attributes(request, SSO_FLOW_COOKIE.path),
    maxAge: SSO.flowSeconds,
  });
}

/**
 * The flow this browser started, if its cookie is there, genuine and unexpired; the cookie is removed
 * in the same answer, so each flow is finished at most once from this browser.
 */
export function takeFlowCookie(jwt: JWT, request: FastifyRequest, reply: FastifyReply): SsoFlow | null {
  const claims = verified(jwt, request.cookies[SSO_FLOW_COOKIE.name]);
  reply.clearCookie(SSO_FLOW_COOKIE.name, attributes(request, SSO_FLOW_COOKIE.path));
  if (!claims || claims.typ !== 'ssoFlow' || !isString(claims.state) || !isString(claims.nonce) || !isString(claims.verifier)) return null;
  return { state: claims.state, nonce: claims.nonce, verifier: claims.verifier };
}

/** Remembers the provider's end-session address for the session a single sign-on opened. */
export function setSignOutCookie(jwt: JWT, request: FastifyRequest, reply: FastifyReply, sessionId: string, url: string | null): void {
  if (!url) {
    reply.clearCookie(SSO_SIGN_OUT_COOKIE.name, attributes(request, SSO_SIGN_OUT_COOKIE.path));
    return;
  }
  const claims: SignOutClaims = { typ: 'ssoSignOut', sid: sessionId, url };
  reply.setCookie(SSO_SIGN_OUT_COOKIE.name, jwt.sign(claims, { expiresIn: TIMING.refreshTokenSeconds }), {
    ...attributes(request, SSO_SIGN_OUT_COOKIE.path),
    maxAge: TIMING.refreshTokenSeconds,
  });
}

/** At sign-out: the provider's end-session address if this session came from a single sign-on; the cookie goes. */
export function takeSignOutCookie(jwt: JWT, request: FastifyRequest, reply: FastifyReply, sessionId: string): string | null {
  const token = request.cookies[SSO_SIGN_OUT_COOKIE.name];
  if (!token) return null;
  reply.clearCookie(SSO_SIGN_OUT_COOKIE.name, attributes(request, SSO_SIGN_OUT_COOKIE.path));
  const claims = verified(jwt, token);
  if (!claims || claims.typ !== 'ssoSignOut' || claims.sid !== sessionId || !isString(claims.url)) return null;
  return claims.url;
}
