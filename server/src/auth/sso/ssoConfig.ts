import { z } from 'zod';
import { SSO } from '@eln/shared';

/**
 * Single sign-on through an OpenID Connect provider (Okta or any standard one): the OIDC_* environment
 * variables (README, "Single sign-on"). No OIDC_ISSUER means no single sign-on: the sign-in page shows
 * no SSO button and the SSO calls do not exist.
 */
export interface SsoConfig {
  /** The provider's issuer URL; its discovery document is read from `<issuer>/.well-known/openid-configuration`. */
  issuer: string;
  clientId: string;
  /** Null: a public client (PKCE alone); set: a confidential one, authenticated with HTTP Basic. */
  clientSecret: string | null;
  scopes: string;
  /** The claim whose value is the notebook's user ID (an email, compared lower-case). */
  userClaim: string;
  /** Where the provider sends the browser back: the client's callback page. Registered at the provider. */
  redirectUrl: string;
  /** Where the provider's end-session endpoint sends the browser afterwards. Registered at the provider. */
  postSignOutUrl: string;
  /** Whether a provider user without a notebook account gets one (a member with no permissions). */
  createUsers: boolean;
  /** Department code of accounts made that way; null or an unknown code leaves them without one. */
  newUserDepartment: string | null;
  /** Longest wait for one request to the provider. */
  providerTimeoutMs: number;
  /**
   * Plain http to the provider. Only tests set it (a provider on loopback); the environment cannot, so a
   * real installation always reaches its provider over https.
   */
  allowInsecureRequests: boolean;
}

const flag = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((value) => ['true', '1', 'yes'].includes(value));

const ssoEnv = z.object({
  OIDC_ISSUER: z.string().trim().optional(),
  OIDC_CLIENT_ID: z.string().trim().optional(),
  OIDC_CLIENT_SECRET: z.string().optional(),
  OIDC_SCOPES: z.string().trim().min(1).default(SSO.defaultScopes),
  OIDC_USER_CLAIM: z.string().trim().min(1).default(SSO.defaultUserClaim),
  OIDC_REDIRECT_URL: z.string().trim().optional(),
  OIDC_CREATE_USERS: flag.default(false),
  OIDC_NEW_USER_DEPARTMENT: z.string().trim().optional(),
});

function httpsUrl(name: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${name}=${value} is not a URL`);
  }
  if (url.protocol !== 'https:') throw new Error(`${name}=${value}: the provider must be reached over https`);
  return value;
}

/** The SSO settings of the environment, or null when no provider is configured; refuses half a configuration. */
export function loadSsoConfig(source: NodeJS.ProcessEnv, publicUrl: string): SsoConfig | null {
  const e = ssoEnv.parse(source);
  if (!e.OIDC_ISSUER) {
    if (e.OIDC_CLIENT_ID) throw new Error('OIDC_CLIENT_ID is set but OIDC_ISSUER is not: set both for single sign-on, or neither');
    return null;
  }
  if (!e.OIDC_CLIENT_ID) throw new Error('OIDC_ISSUER is set but OIDC_CLIENT_ID is not: set both for single sign-on, or neither');
  if (!e.OIDC_SCOPES.split(/\s+/).includes('openid')) throw new Error(`OIDC_SCOPES=${e.OIDC_SCOPES} must include openid`);
  const base = publicUrl.replace(/\/$/, '');
  return {
    issuer: httpsUrl('OIDC_ISSUER', e.OIDC_ISSUER),
    clientId: e.OIDC_CLIENT_ID,
    clientSecret: e.OIDC_CLIENT_SECRET || null,
    scopes: e.OIDC_SCOPES,
    userClaim: e.OIDC_USER_CLAIM,
    redirectUrl: e.OIDC_REDIRECT_URL || `${base}${SSO.callbackRoute}`,
    postSignOutUrl: `${base}/signin`,
    createUsers: e.OIDC_CREATE_USERS,
    newUserDepartment: e.OIDC_NEW_USER_DEPARTMENT || null,
    providerTimeoutMs: SSO.providerTimeoutMs,
    allowInsecureRequests: false,
  };
}
