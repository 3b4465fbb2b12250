import { generateKeyPairSync, randomBytes } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type KoaContextWithOidc } from 'oidc-provider';
import { SSO } from '@eln/shared';
import type { SsoConfig } from '../auth/sso/ssoConfig.js';

/**
 * A real OpenID Connect provider (oidc-provider, the certified implementation) in the test process, on a
 * free loopback port: one client (the notebook), a few accounts with passwords, and a login form of its
 * own that checks them (oidc-provider's development forms accept any password, which would make "wrong
 * password at the provider" untestable). Consent is implied for the notebook, as for a company's own
 * application at Okta. Tests reach it over plain http, which only they may (SsoConfig.allowInsecureRequests).
 */
export interface ProviderAccount {
  /** The provider's own subject identifier: deliberately not the email, which is what the notebook matches. */
  sub: string;
  email: string;
  password: string;
  name: string;
  /** What the provider says of the address (default true). */
  emailVerified?: boolean;
}

export interface TestOidcProviderOptions {
  accounts: ProviderAccount[];
  /** The notebook's callback page, registered for the client. */
  redirectUri: string;
  /** Where the provider's end-session endpoint may send the browser back to. */
  postSignOutUri: string;
  /** A confidential client (HTTP Basic) with this secret; null: a public client (PKCE alone). */
  clientSecret?: string | null;
  /**
   * The issuer's host name. Browser tests use `localhost` while the notebook is on 127.0.0.1, so that the
   * provider is another site, as a real one is (SameSite cookies are then really tested).
   */
  hostname?: 'localhost' | '127.0.0.1';
}

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string | null;
  /** Settings for a notebook that signs in with this provider. */
  ssoConfig(overrides?: Partial<SsoConfig>): SsoConfig;
  /** The provider goes down (connections refused) until `start`; what it issued is kept. */
  stop(): Promise<void>;
  start(): Promise<void>;
}

export const TEST_CLIENT_ID = 'eln-notebook';

const html = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${html(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font-family:system-ui,sans-serif;background:#eef1f5;margin:0;display:flex;min-height:100vh;align-items:center;justify-content:center;color:#1d2433}
main{background:#fff;padding:32px 36px;border-radius:10px;box-shadow:0 2px 12px rgba(0,0,0,.12);width:340px}
.brand{font-size:13px;letter-spacing:.08em;text-transform:uppercase;color:#5b6577;margin:0 0 4px}
h1{font-size:22px;margin:0 0 20px}
label{display:block;font-size:14px;margin:14px 0 6px}
input{width:100%;box-sizing:border-box;padding:10px;border:1px solid #b8c0cc;border-radius:6px;font-size:15px}
button{margin-top:22px;width:100%;padding:11px;border:0;border-radius:6px;background:#1f5fd1;color:#fff;font-size:15px;font-weight:600;cursor:pointer}
.error{background:#fdecec;color:#9b1c1c;border:1px solid #f3b4b4;border-radius:6px;padding:10px;font-size:14px}
.cancel{display:block;text-align:center;margin-top:14px;font-size:14px;color:#1f5fd1}
</style></head><body><main><p class="brand">Loopback Identity Provider</p>${body}</main></body></html>`;
}

function loginPage(uid: string, clientId: string, error: string | null, email = ''): string {
  return page(
    'Sign in · Loopback Identity Provider',
    `<h1>Sign in to continue to ${html(clientId)}</h1>
${error ? `<p class="error" role="alert" data-testid="provider-error">${html(error)}</p>` : ''}
<form method="post" action="/interaction/${html(uid)}/login" autocomplete="off">
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" value="${html(email)}" required autofocus>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>
<a class="cancel" href="/interaction/${html(uid)}/abort">Cancel</a>`,
  );
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

function send(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(body);
}

export async function startOidcProvider(options: TestOidcProviderOptions): Promise<TestOidcProvider> {
  const hostname = options.hostname ?? '127.0.0.1';
  const clientSecret = options.clientSecret === undefined ? randomBytes(24).toString('base64url') : options.clientSecret;
  const accountsBySub = new Map(options.accounts.map((account) => [account.sub, account]));
  const accountByEmail = (email: string) => options.accounts.find((account) => account.email.toLowerCase() === email.trim().toLowerCase());

  let handle: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => send(res, 503, 'starting');
  const server = http.createServer((req, res) => handle(req, res));
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  await listen(0);
  const { port } = server.address() as AddressInfo;
  const issuer = `http://${hostname}:${port}`;

  const signingKey = {
    ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }),
    kid: 'loopback-1',
    use: 'sig',
    alg: 'RS256',
  };
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: TEST_CLIENT_ID,
        ...(clientSecret
          ? { client_secret: clientSecret, token_endpoint_auth_method: 'client_secret_basic' as const }
          : { token_endpoint_auth_method: 'none' as const }),
        redirect_uris: [options.redirectUri],
        post_logout_redirect_uris: [options.postSignOutUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    async findAccount(_ctx, sub) {
      const account = accountsBySub.get(sub);
      if (!account) return undefined;
      return {
        accountId: sub,
        claims: () => ({ sub, email: account.email, email_verified: account.emailVerified ?? true, name: account.name }),
      };
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    jwks: { keys: [signingKey] },
    cookies: { keys: [randomBytes(32).toString('hex')] },
    // Okta insists on PKCE for this kind of client; so does this provider, for every client.
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: { enabled: true, logoutSource: signOutPage },
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    loadExistingGrant: impliedConsent,
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AuthorizationCode: 60, AccessToken: 600, IdToken: 600 },
    renderError(ctx, out) {
      ctx.type = 'html';
      ctx.body = page(
        'Error · Loopback Identity Provider',
        `<h1>Something went wrong</h1><p class="error" role="alert">${html(out.error ?? 'error')}: ${html(out.error_description ?? '')}</p>`,
      );
    },
  });
  const oidcHandler = provider.callback();

  async function interaction(req: IncomingMessage, res: ServerResponse, uid: string, step: string | undefined): Promise<void> {
    const details = await provider.interactionDetails(req, res);
    if (details.uid !== uid) return send(res, 400, page('Error', '<p class="error">This sign-in page is out of date.</p>'));
    if (step === '/abort') {
      return provider.interactionFinished(
        req,
        res,
        { error: 'access_denied', error_description: 'End-User aborted interaction' },
        { mergeWithLastSubmission: false },
      );
    }
    if (details.prompt.name !== 'login')
      return send(res, 501, page('Error', `<p class="error">Unexpected prompt ${html(details.prompt.name)}</p>`));
    const clientId = details.params.client_id ?? '';
    if (req.method !== 'POST' || step !== '/login') return send(res, 200, loginPage(uid, clientId, null));
    const form = await readForm(req);
    const email = form.get('email') ?? '';
    const account = accountByEmail(email);
    if (!account || account.password !== form.get('password'))
      return send(res, 200, loginPage(uid, clientId, 'Invalid email or password.', email));
    return provider.interactionFinished(req, res, { login: { accountId: account.sub } }, { mergeWithLastSubmission: false });
  }

  handle = (req, res) => {
    const path = new URL(req.url ?? '/', issuer).pathname;
    const match = /^\/interaction\/([\w-]+)(\/login|\/abort)?$/.exec(path);
    if (!match) return oidcHandler(req, res);
    interaction(req, res, match[1]!, match[2]).catch((error: unknown) =>
      send(res, 500, page('Error', `<p class="error">${html(String(error))}</p>`)),
    );
  };

  return {
    issuer,
    clientId: TEST_CLIENT_ID,
    clientSecret,
    ssoConfig: (overrides = {}) => ({
      issuer,
      clientId: TEST_CLIENT_ID,
      clientSecret,
      scopes: SSO.defaultScopes,
      userClaim: SSO.defaultUserClaim,
      redirectUrl: options.redirectUri,
      postSignOutUrl: options.postSignOutUri,
      createUsers: false,
      newUserDepartment: null,
      providerTimeoutMs: SSO.providerTimeoutMs,
      allowInsecureRequests: true,
      ...overrides,
    }),
    async stop() {
      if (!server.listening) return;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
    async start() {
      if (!server.listening) await listen(port);
    },
  };
}

/** The notebook is the company's own application: its users are not asked to consent to it. */
async function impliedConsent(ctx: KoaContextWithOidc) {
  const { client, session, result, provider } = ctx.oidc;
  if (!client || !session) return undefined;
  const grantId = result?.consent?.grantId ?? session.grantIdFor(client.clientId);
  if (grantId) return provider.Grant.find(grantId);
  if (!session.accountId) return undefined;
  const grant = new provider.Grant({ clientId: client.clientId, accountId: session.accountId });
  grant.addOIDCScope('openid email profile');
  await grant.save();
  return grant;
}

/** The provider's "sign out here too?" page (its default one fetches web fonts, which tests must not). */
function signOutPage(ctx: KoaContextWithOidc, form: string): void {
  ctx.type = 'html';
  ctx.body = page(
    'Sign out · Loopback Identity Provider',
    `<h1>Sign out of the Loopback Identity Provider?</h1>${form}
<button type="submit" form="op.logoutForm" value="yes" name="logout" autofocus>Yes, sign me out</button>`,
  );
}

/* ---------- Driving the provider without a browser (API tests) ---------- */

export type ProviderVisit =
  /** The provider sent the browser back to the notebook's callback page with this address. */
  | { kind: 'callback'; url: URL }
  /** The provider stopped on a page of its own (a refused password, an error). */
  | { kind: 'page'; status: number; html: string };

/**
 * Does what a browser does from the provider's authorization address: follows redirects with the
 * provider's cookies, fills its login form once (or presses Cancel), and stops at the notebook's
 * callback address (not followed: the test posts it to the notebook itself) or at a page of the provider.
 */
export async function visitProvider(
  authorizationUrl: string,
  redirectUri: string,
  action: { email: string; password: string } | 'cancel',
): Promise<ProviderVisit> {
  const jar = new Map<string, string>();
  let request: { url: string; form?: URLSearchParams } = { url: authorizationUrl };
  let submitted = false;
  for (let hop = 0; hop < 15; hop += 1) {
    if (request.url.startsWith(redirectUri)) return { kind: 'callback', url: new URL(request.url) };
    const response = await fetch(request.url, {
      method: request.form ? 'POST' : 'GET',
      body: request.form,
      redirect: 'manual',
      headers: { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; ') },
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const at = pair.indexOf('=');
      const [name, value] = [pair.slice(0, at).trim(), pair.slice(at + 1).trim()];
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(cookie)) jar.delete(name);
      else jar.set(name, value);
    }
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      request = { url: new URL(location, request.url).href };
      continue;
    }
    const text = await response.text();
    const formAction = /<form method="post" action="([^"]+)"/.exec(text)?.[1];
    const cancel = /<a class="cancel" href="([^"]+)"/.exec(text)?.[1];
    if (submitted || !formAction || !cancel) return { kind: 'page', status: response.status, html: text };
    submitted = true;
    request =
      action === 'cancel'
        ? { url: new URL(cancel, request.url).href }
        : { url: new URL(formAction, request.url).href, form: new URLSearchParams(action) };
  }
  throw new Error(`the provider did not come back to ${redirectUri} within 15 steps`);
}
