import { createHash } from 'node:crypto';
import net from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import { api, AUDIT_SYSTEM_REASONS, ERR, REFRESH_COOKIE, SSO, SSO_FLOW_COOKIE, SSO_SIGN_OUT_COOKIE } from '@eln/shared';
import { auditLog, licences, signInThrottle, users } from '../db/schema.js';
import { startTestServer, type CallResult, type TestServer } from '../testing/harness.js';
import { claimsOf } from '../testing/jwt.js';
import { testLicenceKey } from '../testing/licenceKeys.js';
import { startOidcProvider, visitProvider, type ProviderAccount, type TestOidcProvider } from '../testing/oidcProvider.js';

/**
 * Single sign-on against a real OpenID provider (oidc-provider) on loopback, driven as a browser would:
 * the notebook's start call, the provider's redirects and its login form (fetch with the provider's
 * cookies), then the callback's parameters posted to `/v1/user/login/okta` with the flow cookie.
 */
const REDIRECT_URI = `http://localhost:8080${SSO.callbackRoute}`;
const SIGNED_OUT_URI = 'http://localhost:8080/signin';

const account = (sub: string, email: string, name: string, extra: Partial<ProviderAccount> = {}): ProviderAccount => ({
  sub,
  email,
  name,
  password: `idp-password-of-${sub}`,
  ...extra,
});
const KIM = account('00u-kim', 'Kim.Jiwoo@Lab.test', 'Kim Jiwoo');
const LEE = account('00u-lee', 'lee.former@lab.test', 'Lee Former');
const PARK = account('00u-park', 'park.newcomer@lab.test', 'Park Newcomer');
const CHOI = account('00u-choi', 'choi.unverified@lab.test', 'Choi Unverified', { emailVerified: false });
const ADMIN = account('00u-admin', 'admin@eln.local', 'Administrator');
const SEAT_TAKER = account('00u-seat', 'seat.taker@lab.test', 'Seat Taker');

let idp: TestOidcProvider;
let server: TestServer;
let kimUserNo: number;

beforeAll(async () => {
  idp = await startOidcProvider({
    accounts: [KIM, LEE, PARK, CHOI, ADMIN, SEAT_TAKER],
    redirectUri: REDIRECT_URI,
    postSignOutUri: SIGNED_OUT_URI,
  });
  server = await startTestServer({ config: { sso: idp.ssoConfig() } });
  kimUserNo = (
    await server.createUser({
      userId: 'kim.jiwoo@lab.test',
      name: 'Kim Jiwoo',
      auth: { project: 'Y', schema: 'N', dropbox: 'Y', template: 'N' },
    })
  ).userNo;
  await server.createUser({ userId: LEE.email, name: LEE.name, active: false });
  await server.createUser({ userId: CHOI.email, name: CHOI.name });
});
afterAll(async () => {
  await server?.stop();
  await idp?.stop();
});

interface Flow {
  authorizationUrl: URL;
  /** The flow cookie's value, as the browser keeps it. */
  cookie: string;
}

const cookieOf = (result: CallResult<unknown>, name: string) => result.cookies.find((cookie) => cookie.name === name);

async function startFlow(language?: string): Promise<Flow> {
  const started = await server.call(api.sso.start, {}, { language });
  expect(started.body.status).toBe('0000');
  const cookie = cookieOf(started, SSO_FLOW_COOKIE.name);
  expect(cookie?.value).toBeTruthy();
  return { authorizationUrl: new URL(started.body.data.authorizationUrl), cookie: cookie!.value };
}

/** What the callback page posts: the provider's parameters, with the flow cookie the browser sends. */
function finish(callback: URL, flowCookie: string | null, extra: Record<string, unknown> = {}, language?: string) {
  const query = callback.searchParams;
  const body: Record<string, unknown> = { ...extra };
  for (const [name, field] of [
    ['code', 'code'],
    ['state', 'state'],
    ['iss', 'iss'],
    ['error', 'error'],
    ['error_description', 'errorDescription'],
  ] as const) {
    const value = query.get(name);
    if (value !== null) body[field] = value;
  }
  return server.call(api.sso.finish, body, {
    headers: flowCookie ? { cookie: `${SSO_FLOW_COOKIE.name}=${flowCookie}` } : {},
    language,
  });
}

/** Signs in at the provider and answers the callback address it sends the browser to. */
async function authorize(flow: Flow, who: ProviderAccount, authorizationUrl = flow.authorizationUrl): Promise<URL> {
  const visit = await visitProvider(authorizationUrl.href, REDIRECT_URI, { email: who.email, password: who.password });
  if (visit.kind !== 'callback') throw new Error(`the provider stopped on its own page (${visit.status}): ${visit.html.slice(0, 300)}`);
  return visit.url;
}

async function ssoSignIn(who: ProviderAccount, extra: Record<string, unknown> = {}) {
  const flow = await startFlow();
  const callback = await authorize(flow, who);
  return { flow, callback, result: await finish(callback, flow.cookie, extra) };
}

const lastAudit = async () => (await server.database.db.select().from(auditLog).orderBy(desc(auditLog.seq)).limit(1))[0];
const auditCount = async () => (await server.database.db.select({ seq: auditLog.seq }).from(auditLog)).length;

describe('single sign-on: configuration and start', () => {
  it('tells the sign-in page that SSO is configured', async () => {
    const answer = await server.call(api.sso.config);
    expect(answer.body).toMatchObject({ status: '0000', data: { enabled: true } });
  });

  it('starts an authorization code flow with PKCE S256, state and nonce, kept in a signed short-lived httpOnly cookie', async () => {
    const started = await server.call(api.sso.start, {}, { language: 'ko' });
    const url = new URL(started.body.data.authorizationUrl);
    expect(url.origin).toBe(idp.issuer);
    const query = Object.fromEntries(url.searchParams);
    expect(query).toMatchObject({
      client_id: idp.clientId,
      response_type: 'code',
      redirect_uri: REDIRECT_URI,
      scope: 'openid email profile',
      code_challenge_method: 'S256',
      ui_locales: 'ko',
    });
    expect(query.state!.length).toBeGreaterThanOrEqual(32);
    expect(query.nonce!.length).toBeGreaterThanOrEqual(32);
    expect(query.code_challenge).toMatch(/^[\w-]{43}$/);
    const cookie = cookieOf(started, SSO_FLOW_COOKIE.name)!;
    expect(cookie).toMatchObject({ path: SSO_FLOW_COOKIE.path, httpOnly: true, sameSite: 'Strict', maxAge: SSO.flowSeconds });
    // The cookie holds the verifier whose S256 hash the provider was given; the address never carries it.
    const flow = claimsOf(cookie.value);
    expect(flow).toMatchObject({ typ: 'ssoFlow', state: query.state, nonce: query.nonce });
    expect(Number(flow.exp) - Number(flow.iat)).toBe(SSO.flowSeconds);
    expect(createHash('sha256').update(String(flow.verifier)).digest('base64url')).toBe(query.code_challenge);
    expect(started.body.data.authorizationUrl).not.toContain(String(flow.verifier));
  });
});

describe('single sign-on: signing in', () => {
  it('signs a known user in and answers exactly like signIn: tokens, user, flags, refresh cookie, audit', async () => {
    const { callback, result } = await ssoSignIn(KIM, { refreshIn: 'cookie' });
    expect(callback.searchParams.get('iss')).toBe(idp.issuer);
    expect(result.http).toBe(200);
    expect(result.body.status).toBe('0000');
    const answer = result.body.data;
    expect(answer.user).toEqual({ userId: 'kim.jiwoo@lab.test', name: 'Kim Jiwoo', level: 1 });
    expect(answer.auth).toEqual({ project: 'Y', schema: 'N', dropbox: 'Y', template: 'N' });
    expect(answer.abilities).toEqual({ administer: false, createProject: true });
    expect(answer.refreshToken).toBe('');
    expect(claimsOf(answer.accessToken)).toMatchObject({ typ: 'access', sub: String(kimUserNo) });

    // The same answer, field for field and cookie for cookie, as a password sign-in with the cookie transport.
    const kim = await server.database.db.select().from(users).where(eq(users.userNo, kimUserNo));
    expect(kim).toHaveLength(1);
    const password = await server.createUser({ userId: 'pw.compare@lab.test' });
    const signIn = await server.call(api.auth.signIn, {
      userId: password.userId,
      password: password.password,
      refreshIn: 'cookie',
    });
    expect(Object.keys(answer).sort()).toEqual(Object.keys(signIn.body.data).sort());
    expect(answer.expiresIn).toBe(signIn.body.data.expiresIn);
    const { value: ssoRefresh, expires: _a, ...ssoAttributes } = cookieOf(result, REFRESH_COOKIE.name)!;
    const { value: _v, expires: _b, ...passwordAttributes } = cookieOf(signIn, REFRESH_COOKIE.name)!;
    expect(ssoAttributes).toEqual(passwordAttributes);

    // The flow is spent: its cookie is removed in the same answer.
    expect(cookieOf(result, SSO_FLOW_COOKIE.name)).toMatchObject({ value: '', path: SSO_FLOW_COOKIE.path });
    // The session is real: the token works, the refresh cookie rotates.
    expect((await server.call(api.auth.flags, {}, { token: answer.accessToken })).body.status).toBe('0000');
    const refreshed = await server.call(
      api.auth.refresh,
      { refreshIn: 'cookie' },
      { headers: { cookie: `${REFRESH_COOKIE.name}=${ssoRefresh}` } },
    );
    expect(refreshed.body.data.user.userId).toBe('kim.jiwoo@lab.test');

    const signInRecord = (
      await server.database.db.select().from(auditLog).where(eq(auditLog.action, 'user.signIn')).orderBy(desc(auditLog.seq)).limit(2)
    ).find((r) => r.actorUserId === 'kim.jiwoo@lab.test');
    expect(signInRecord).toMatchObject({
      targetType: 'session',
      targetId: String(claimsOf(answer.accessToken).sid),
      after: { method: 'sso', issuer: idp.issuer },
    });
  });

  it('stops at the provider on a wrong password: its own error, no way back to the notebook, nothing recorded', async () => {
    const before = await auditCount();
    const flow = await startFlow();
    const visit = await visitProvider(flow.authorizationUrl.href, REDIRECT_URI, { email: KIM.email, password: 'not-the-password' });
    expect(visit.kind).toBe('page');
    if (visit.kind !== 'page') return;
    expect(visit.html).toContain('Invalid email or password.');
    expect(visit.html).not.toContain('code=');
    expect(await auditCount()).toBe(before);
  });

  it('says clearly, in the reader’s language, when the provider refuses (the user pressed Cancel: access_denied)', async () => {
    const flow = await startFlow();
    const visit = await visitProvider(flow.authorizationUrl.href, REDIRECT_URI, 'cancel');
    expect(visit.kind).toBe('callback');
    if (visit.kind !== 'callback') return;
    expect(visit.url.searchParams.get('error')).toBe('access_denied');
    const refused = await finish(visit.url, flow.cookie, {}, 'ja');
    expect(refused.http).toBe(422);
    expect(refused.body.status).toBe(ERR.ssoProviderRefused);
    expect(refused.body.message).toBe(
      '組織のシングルサインオン（SSO）がサインインを許可しませんでした（応答:「access_denied」）。やり直すか、IDとパスワードでサインインしてください。',
    );
    expect(cookieOf(refused, SSO_FLOW_COOKIE.name)?.value).toBe('');
  });
});

describe('single sign-on: answers that do not belong to this browser’s flow', () => {
  async function expectSuspect(result: CallResult<unknown>, code: string, reason: string) {
    expect(result.http).toBe(422);
    expect(result.body.status).toBe(code);
    expect(await lastAudit()).toMatchObject({
      action: 'user.signInFailed',
      actorUserId: null,
      targetType: 'sso',
      targetId: idp.issuer,
      reason,
    });
  }

  it('refuses a state that is not the flow’s, a missing flow, another flow’s cookie and a forged cookie, before the code is spent', async () => {
    const flow = await startFlow();
    const callback = await authorize(flow, KIM);
    const tampered = new URL(callback);
    tampered.searchParams.set('state', 'a-state-this-browser-never-sent');
    await expectSuspect(await finish(tampered, flow.cookie), ERR.ssoStateMismatch, AUDIT_SYSTEM_REASONS.ssoStateMismatch);
    // Another browser (an attacker's code planted in a victim's browser, or the reverse): no flow, or another one.
    const mismatch = await finish(callback, null, {}, 'ko');
    expect(mismatch.body.message).toBe(
      '이 통합 로그인(SSO)은 이 브라우저에서 시작되지 않았거나 2분을 넘겨 거부되었습니다. 로그인 화면에서 다시 시작해 주세요.',
    );
    await expectSuspect(mismatch, ERR.ssoStateMismatch, AUDIT_SYSTEM_REASONS.ssoStateMismatch);
    const otherFlow = await startFlow();
    await expectSuspect(await finish(callback, otherFlow.cookie), ERR.ssoStateMismatch, AUDIT_SYSTEM_REASONS.ssoStateMismatch);
    // A cookie whose content was changed (its signature no longer matches) is no flow at all.
    const [header, payload, signature] = flow.cookie.split('.');
    const altered = Buffer.from(JSON.stringify({ ...claimsOf(flow.cookie), state: 'chosen-by-attacker' })).toString('base64url');
    await expectSuspect(
      await finish(callback, `${header}.${altered}.${signature}`, {}),
      ERR.ssoStateMismatch,
      AUDIT_SYSTEM_REASONS.ssoStateMismatch,
    );
    expect(payload).not.toBe(altered);
    // None of these reached the provider: the code is still good for the browser that started the flow.
    expect((await finish(callback, flow.cookie)).body.status).toBe('0000');
    // And the refusals count against the address, like wrong passwords.
    const [throttle] = await server.database.db.select().from(signInThrottle).where(eq(signInThrottle.key, 'address:127.0.0.1'));
    expect(throttle?.failures).toBeGreaterThanOrEqual(4);
  });

  it('refuses an ID token issued for another nonce (the authorization request was tampered with)', async () => {
    const flow = await startFlow();
    const tampered = new URL(flow.authorizationUrl);
    tampered.searchParams.set('nonce', 'a-nonce-of-another-sign-in');
    const callback = await authorize(flow, KIM, tampered);
    await expectSuspect(await finish(callback, flow.cookie), ERR.ssoAnswerRefused, AUDIT_SYSTEM_REASONS.ssoNonceMismatch);
  });

  it('refuses a code whose PKCE challenge is not the flow’s (a code intercepted from another request)', async () => {
    const flow = await startFlow();
    const tampered = new URL(flow.authorizationUrl);
    tampered.searchParams.set(
      'code_challenge',
      createHash('sha256').update('a verifier the attacker chose, at least 43 characters long').digest('base64url'),
    );
    const callback = await authorize(flow, KIM, tampered);
    await expectSuspect(await finish(callback, flow.cookie), ERR.ssoCodeSpent, AUDIT_SYSTEM_REASONS.ssoCodeSpent);
  });

  it('refuses a replayed code, even with the flow cookie that came with it', async () => {
    const { flow, callback, result } = await ssoSignIn(KIM);
    expect(result.body.status).toBe('0000');
    const replayed = await finish(callback, flow.cookie);
    await expectSuspect(replayed, ERR.ssoCodeSpent, AUDIT_SYSTEM_REASONS.ssoCodeSpent);
    expect(replayed.body.message).toBe(
      'This single sign-on answer has already been used or has expired. Start again from the sign-in page.',
    );
  });
});

describe('single sign-on: who may enter', () => {
  afterEach(async () => {
    server.config.sso!.createUsers = false;
    server.config.sso!.newUserDepartment = null;
    await server.database.db.delete(licences);
  });

  it('refuses a provider user the notebook does not know, naming the address, and creates nothing', async () => {
    const { result } = await ssoSignIn(PARK);
    expect(result.http).toBe(422);
    expect(result.body.status).toBe(ERR.ssoUnknownUser);
    expect(result.body.message).toContain('park.newcomer@lab.test');
    expect(await lastAudit()).toMatchObject({
      action: 'user.signInRefused',
      actorUserId: null,
      targetType: 'user',
      targetId: 'park.newcomer@lab.test',
      reason: AUDIT_SYSTEM_REASONS.ssoUnknownUser,
      after: { method: 'sso' },
    });
    expect(await server.database.db.select().from(users).where(eq(users.userId, 'park.newcomer@lab.test'))).toEqual([]);
  });

  it('creates the account when the settings say so: a member without permissions in the default department', async () => {
    const admin = await server.as(server.admin);
    expect((await admin(api.departments.create, { code: 'NEWCOMERS', name: 'Newcomers' })).body.status).toBe('0000');
    Object.assign(server.config.sso!, { createUsers: true, newUserDepartment: 'NEWCOMERS' });
    const { result } = await ssoSignIn(PARK);
    expect(result.body.status).toBe('0000');
    expect(result.body.data.user).toEqual({ userId: 'park.newcomer@lab.test', name: 'Park Newcomer', level: 1 });
    expect(result.body.data.auth).toEqual({ project: 'N', schema: 'N', dropbox: 'N', template: 'N' });
    const [row] = await server.database.db.select().from(users).where(eq(users.userId, 'park.newcomer@lab.test'));
    expect(row).toMatchObject({ departmentCode: 'NEWCOMERS', active: true, level: 1 });
    const created = (
      await server.database.db.select().from(auditLog).where(eq(auditLog.action, 'user.created')).orderBy(desc(auditLog.seq)).limit(1)
    )[0];
    expect(created).toMatchObject({
      targetId: 'park.newcomer@lab.test',
      reason: AUDIT_SYSTEM_REASONS.ssoCreated,
      after: { method: 'sso', departmentCode: 'NEWCOMERS' },
    });
    // The next sign-in finds the account made the first time.
    expect((await ssoSignIn(PARK)).result.body.data.user.userId).toBe('park.newcomer@lab.test');
    expect(await server.database.db.select().from(users).where(eq(users.userId, 'park.newcomer@lab.test'))).toHaveLength(1);
    await server.database.db.update(users).set({ active: false }).where(eq(users.userId, 'park.newcomer@lab.test'));
  });

  it('refuses a deactivated account (1008), audited with the method', async () => {
    const { result } = await ssoSignIn(LEE);
    expect(result.body.status).toBe(ERR.accountDisabled);
    expect(await lastAudit()).toMatchObject({
      action: 'user.signInRefused',
      actorUserId: LEE.email,
      reason: AUDIT_SYSTEM_REASONS.deactivated,
      after: { method: 'sso', issuer: idp.issuer },
    });
  });

  it('does not believe an address the provider says is unverified', async () => {
    const { result } = await ssoSignIn(CHOI);
    expect(result.body.status).toBe(ERR.ssoAnswerRefused);
    expect(await lastAudit()).toMatchObject({
      action: 'user.signInFailed',
      reason: AUDIT_SYSTEM_REASONS.ssoAnswerInvalid,
      after: { claim: 'email', problem: 'emailNotVerified' },
    });
  });

  it('applies the licence as sign-in does: members refused (1007), administrators let in, no account created past the seats', async () => {
    const admin = await server.as(server.admin);
    expect((await admin(api.licence.register, { licenceKey: testLicenceKey({ seats: 1 }) })).body.status).toBe('0000');
    const member = await ssoSignIn(KIM);
    expect(member.result.body.status).toBe(ERR.licence);
    expect(await lastAudit()).toMatchObject({
      action: 'user.signInRefused',
      actorUserId: 'kim.jiwoo@lab.test',
      reason: 'licence seatsExceeded',
      after: { method: 'sso' },
    });
    expect((await ssoSignIn(ADMIN)).result.body.data.user).toMatchObject({ userId: 'admin@eln.local', level: 10 });

    Object.assign(server.config.sso!, { createUsers: true });
    const withoutSeat = await ssoSignIn(SEAT_TAKER);
    expect(withoutSeat.result.body.status).toBe(ERR.licence);
    expect(await lastAudit()).toMatchObject({ action: 'user.signInRefused', targetId: SEAT_TAKER.email, reason: 'licence seatsExceeded' });
    expect(await server.database.db.select().from(users).where(eq(users.userId, SEAT_TAKER.email))).toEqual([]);
  });
});

describe('single sign-on: signing out', () => {
  it('ends the notebook session and offers the provider’s end-session address for the session SSO opened', async () => {
    const { result } = await ssoSignIn(KIM);
    const endCookie = cookieOf(result, SSO_SIGN_OUT_COOKIE.name)!;
    expect(endCookie).toMatchObject({ path: SSO_SIGN_OUT_COOKIE.path, httpOnly: true, sameSite: 'Strict' });
    const out = await server.call(
      api.auth.signOut,
      {},
      { token: result.body.data.accessToken, headers: { cookie: `${SSO_SIGN_OUT_COOKIE.name}=${endCookie.value}` } },
    );
    expect(out.body.status).toBe('0000');
    const endSession = new URL(out.body.data.endSessionUrl!);
    expect(`${endSession.origin}${endSession.pathname}`).toBe(`${idp.issuer}/session/end`);
    expect(endSession.searchParams.get('post_logout_redirect_uri')).toBe(SIGNED_OUT_URI);
    expect(claimsOf(endSession.searchParams.get('id_token_hint')!)).toMatchObject({ iss: idp.issuer, sub: KIM.sub, aud: idp.clientId });
    expect(cookieOf(out, SSO_SIGN_OUT_COOKIE.name)?.value).toBe('');
    expect((await server.call(api.auth.flags, {}, { token: result.body.data.accessToken })).http).toBe(401);

    // Another session (a password sign-in in the same browser) is not offered this SSO's address.
    const again = await ssoSignIn(KIM);
    const other = await server.signIn(server.admin.userId, server.admin.password);
    const stale = cookieOf(again.result, SSO_SIGN_OUT_COOKIE.name)!.value;
    const otherOut = await server.call(
      api.auth.signOut,
      {},
      { token: other.accessToken, headers: { cookie: `${SSO_SIGN_OUT_COOKIE.name}=${stale}` } },
    );
    expect(otherOut.body.data).toEqual({ endSessionUrl: null });
  });
});

describe('single sign-on: the provider down', () => {
  it('answers 1022 at once when the provider stops between its login page and the code exchange', async () => {
    const flow = await startFlow();
    const callback = await authorize(flow, KIM);
    await idp.stop();
    try {
      const started = Date.now();
      const down = await finish(callback, flow.cookie);
      expect(Date.now() - started).toBeLessThan(3000);
      expect(down.http).toBe(503);
      expect(down.body.status).toBe(ERR.ssoProviderDown);
      expect(down.body.message).toBe(
        'Your organisation’s single sign-on cannot be reached right now. Try again shortly, or sign in with your ID and password.',
      );
    } finally {
      await idp.start();
    }
    // Back up: the next sign-in works.
    expect((await ssoSignIn(KIM)).result.body.status).toBe('0000');
  });

  it('gives up on a provider that accepts connections but never answers, within the request timeout', async () => {
    const sockets = new Set<net.Socket>();
    const hung = net.createServer((socket) => void sockets.add(socket));
    await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
    const hungIssuer = `http://127.0.0.1:${(hung.address() as net.AddressInfo).port}`;
    const timeoutMs = 1500;
    const other = await startTestServer({ config: { sso: idp.ssoConfig({ issuer: hungIssuer, providerTimeoutMs: timeoutMs }) } });
    try {
      let started = Date.now();
      const timedOut = await other.call(api.sso.start);
      const waited = Date.now() - started;
      expect(timedOut.body.status).toBe(ERR.ssoProviderDown);
      expect(waited).toBeGreaterThanOrEqual(timeoutMs - 100);
      expect(waited).toBeLessThan(timeoutMs + 2000);
      // Nothing failed is remembered: with the port closed the next start is refused at once.
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => hung.close(() => resolve()));
      started = Date.now();
      expect((await other.call(api.sso.start)).body.status).toBe(ERR.ssoProviderDown);
      expect(Date.now() - started).toBeLessThan(1000);
    } finally {
      await other.stop();
      if (hung.listening) hung.close();
    }
  });
});
