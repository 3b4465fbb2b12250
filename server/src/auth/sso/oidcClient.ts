import * as oidc from 'openid-client';
import type { Language } from '@eln/shared';
import type { SsoConfig } from './ssoConfig.js';

/** What one flow must remember between the start and the callback (kept in the signed flow cookie). */
export interface SsoFlow {
  state: string;
  nonce: string;
  /** The PKCE code verifier; the provider only ever saw its S256 challenge. */
  verifier: string;
}

/** What the provider sent back to the callback page. */
export interface ProviderCallback {
  code: string;
  state: string;
  iss?: string;
}

/** Who the provider says signed in, verified. */
export interface ProviderIdentity {
  /** ID token claims, completed from the user info endpoint when a wanted claim is not in the token. */
  claims: Record<string, unknown>;
  /** The provider's end-session address for this sign-in (with the ID token as hint), when it has one. */
  endSessionUrl: string | null;
}

export type SsoFailureKind =
  /** Not reachable, timed out, or answered something that is not OAuth (an HTML error page, a 5xx). */
  | 'providerDown'
  /** An OAuth error from the provider (access_denied, invalid_client, ...): `detail` is its code. */
  | 'providerRefused'
  /** invalid_grant at the token endpoint: the code was used already, expired, or its PKCE verifier differs. */
  | 'codeSpent'
  /** The ID token carries another sign-in's nonce. */
  | 'nonceMismatch'
  /** Any other ID token or response check that failed (signature, issuer, audience, expiry, iss parameter). */
  | 'answerInvalid';

export class SsoFailure extends Error {
  constructor(
    readonly kind: SsoFailureKind,
    readonly detail: string,
    options?: { cause?: unknown },
  ) {
    super(`${kind}: ${detail}`, options);
    this.name = 'SsoFailure';
  }
}

/** How long a discovery document (and with it the provider's keys) is used before it is read again. */
const DISCOVERY_TTL_MS = 60 * 60 * 1000;

/**
 * The notebook as a relying party of one OpenID Connect provider, through openid-client: discovery
 * (kept for an hour, never a failure), the authorization request with PKCE S256, state and nonce, and
 * the code exchange with every check the library makes. Each request to the provider is bounded by the
 * configured timeout, and nothing is retried: a code can be spent once, and the user is waiting.
 */
export class OidcClient {
  private discovered: { at: number; configuration: Promise<oidc.Configuration> } | null = null;

  constructor(private readonly settings: SsoConfig) {}

  /** A new flow and the provider address to send the browser to. */
  async begin(language: Language): Promise<{ flow: SsoFlow; authorizationUrl: string }> {
    const configuration = await this.configuration();
    const flow: SsoFlow = { state: oidc.randomState(), nonce: oidc.randomNonce(), verifier: oidc.randomPKCECodeVerifier() };
    const url = oidc.buildAuthorizationUrl(configuration, {
      redirect_uri: this.settings.redirectUrl,
      scope: this.settings.scopes,
      response_type: 'code',
      state: flow.state,
      nonce: flow.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(flow.verifier),
      code_challenge_method: 'S256',
      ui_locales: language,
    });
    return { flow, authorizationUrl: url.href };
  }

  /** Exchanges the code with this flow's verifier and checks the answer: state, iss, ID token and nonce. */
  async complete(flow: SsoFlow, callback: ProviderCallback): Promise<ProviderIdentity> {
    const configuration = await this.configuration();
    const currentUrl = new URL(this.settings.redirectUrl);
    currentUrl.searchParams.set('code', callback.code);
    currentUrl.searchParams.set('state', callback.state);
    if (callback.iss !== undefined) currentUrl.searchParams.set('iss', callback.iss);
    try {
      const tokens = await oidc.authorizationCodeGrant(configuration, currentUrl, {
        expectedState: flow.state,
        expectedNonce: flow.nonce,
        pkceCodeVerifier: flow.verifier,
        idTokenExpected: true,
      });
      const idClaims = tokens.claims();
      const idToken = tokens.id_token;
      if (!idClaims || !idToken) throw new SsoFailure('answerInvalid', 'no ID token');
      let claims: Record<string, unknown> = { ...idClaims };
      // Providers that keep ID tokens small (oidc-provider, Okta's thin tokens) give the profile claims at user info.
      if (claims[this.settings.userClaim] === undefined && configuration.serverMetadata().userinfo_endpoint) {
        const info = await oidc.fetchUserInfo(configuration, tokens.access_token, idClaims.sub);
        claims = { ...info, ...idClaims };
      }
      return { claims, endSessionUrl: this.endSessionUrl(configuration, idToken) };
    } catch (error) {
      throw asSsoFailure(error);
    }
  }

  private endSessionUrl(configuration: oidc.Configuration, idToken: string): string | null {
    if (!configuration.serverMetadata().end_session_endpoint) return null;
    return oidc.buildEndSessionUrl(configuration, { id_token_hint: idToken, post_logout_redirect_uri: this.settings.postSignOutUrl }).href;
  }

  /** The provider's configuration, discovered once an hour; a failed discovery is tried again next time. */
  private async configuration(): Promise<oidc.Configuration> {
    const now = Date.now();
    if (!this.discovered || now - this.discovered.at > DISCOVERY_TTL_MS) {
      const configuration = this.discover();
      this.discovered = { at: now, configuration };
      configuration.catch(() => {
        if (this.discovered?.configuration === configuration) this.discovered = null;
      });
    }
    try {
      return await this.discovered.configuration;
    } catch (error) {
      throw asSsoFailure(error);
    }
  }

  private discover(): Promise<oidc.Configuration> {
    const { issuer, clientId, clientSecret, providerTimeoutMs, allowInsecureRequests } = this.settings;
    return oidc.discovery(new URL(issuer), clientId, undefined, clientSecret ? oidc.ClientSecretBasic(clientSecret) : oidc.None(), {
      timeout: providerTimeoutMs / 1000,
      execute: allowInsecureRequests ? [oidc.allowInsecureRequests] : [],
    });
  }
}

/** Codes of openid-client errors that mean the provider did not answer as an OAuth server at all. */
const UNREACHABLE_CODES = new Set(['OAUTH_TIMEOUT', 'OAUTH_ABORT', 'OAUTH_RESPONSE_IS_NOT_CONFORM', 'OAUTH_RESPONSE_IS_NOT_JSON']);

/** Sorts what openid-client (or fetch under it) threw into what the user is told. */
export function asSsoFailure(error: unknown): SsoFailure {
  if (error instanceof SsoFailure) return error;
  if (error instanceof oidc.AuthorizationResponseError) return new SsoFailure('providerRefused', error.error, { cause: error });
  if (error instanceof oidc.ResponseBodyError) {
    if (error.status >= 500) return new SsoFailure('providerDown', `${error.status} ${error.error}`, { cause: error });
    return new SsoFailure(error.error === 'invalid_grant' ? 'codeSpent' : 'providerRefused', error.error, { cause: error });
  }
  // fetch rejects with a TypeError when the connection is refused, reset or the name does not resolve.
  if (error instanceof TypeError) return new SsoFailure('providerDown', describe(error), { cause: error });
  const code = codeOf(error);
  if (code && UNREACHABLE_CODES.has(code)) return new SsoFailure('providerDown', code, { cause: error });
  if (mentionsNonce(error)) return new SsoFailure('nonceMismatch', 'unexpected nonce', { cause: error });
  return new SsoFailure('answerInvalid', code ?? describe(error), { cause: error });
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

function describe(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return error instanceof Error ? `${error.message}${cause}` : String(error);
}

/** Whether a claim comparison somewhere down the error's causes was about the nonce. */
function mentionsNonce(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current && depth < 5; depth += 1) {
    if ((current as { claim?: unknown }).claim === 'nonce') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
