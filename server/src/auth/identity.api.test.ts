import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import { api, ERR, REFRESH_COOKIE, TIMING, type SignInAnswer, type ValidationErrorData } from '@eln/shared';
import { auditLog, passwordResets, refreshTokens, sessions, users } from '../db/schema.js';
import { startTestServer, type CallResult, type TestServer } from '../testing/harness.js';
import { claimsOf, forgeJwt, serverSecret } from '../testing/jwt.js';
import { eventually } from '../testing/live.js';
import { sha256Hex } from './secrets.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

const lastAudit = async () => {
  const [row] = await server.database.db.select().from(auditLog).orderBy(desc(auditLog.seq)).limit(1);
  return row;
};

describe('sign-in', () => {
  it('answers tokens, the user and the auth flags, and audits the sign-in', async () => {
    const researcher = await server.createUser({ name: 'Kim Jiwoo', auth: { project: 'Y', schema: 'N', dropbox: 'Y', template: 'N' } });
    const result = await server.call(api.auth.signIn, { userId: researcher.userId, password: researcher.password });
    expect(result.http).toBe(200);
    expect(result.body.status).toBe('0000');
    const answer = result.body.data;
    expect(answer.user).toEqual({ userId: researcher.userId, name: 'Kim Jiwoo', level: 1 });
    expect(answer.auth).toEqual({ project: 'Y', schema: 'N', dropbox: 'Y', template: 'N' });
    expect(answer.expiresIn).toBe(900);
    expect(claimsOf(answer.accessToken)).toMatchObject({ typ: 'access', sub: String(researcher.userNo) });
    expect(Number(claimsOf(answer.accessToken).exp) - Number(claimsOf(answer.accessToken).iat)).toBe(900);
    const audit = await lastAudit();
    expect(audit).toMatchObject({ action: 'user.signIn', actorUserId: researcher.userId, targetType: 'session' });
  });

  it('accepts the ID in any letter case, since an email is case-insensitive', async () => {
    const researcher = await server.createUser();
    const answer = await server.signIn(researcher.userId.toUpperCase(), researcher.password);
    expect(answer.user.userId).toBe(researcher.userId);
  });

  it('refuses a wrong password and an unknown account with the same answer, and audits both', async () => {
    const researcher = await server.createUser();
    const wrong = await server.call(api.auth.signIn, { userId: researcher.userId, password: 'not-the-password' });
    const unknown = await server.call(api.auth.signIn, { userId: 'nobody.here@lab.test', password: 'not-the-password' });
    expect(wrong.http).toBe(422);
    expect(wrong.body).toEqual({ status: ERR.badCredentials, message: 'The ID or password is incorrect.', data: null });
    expect(unknown.http).toBe(wrong.http);
    expect(unknown.body).toEqual(wrong.body);
    const audit = await lastAudit();
    expect(audit).toMatchObject({ action: 'user.signInFailed', actorUserId: null, targetId: 'nobody.here@lab.test' });
  });

  it('answers in the language the client asks for', async () => {
    const ko = await server.call(api.auth.signIn, { userId: 'x@lab.test', password: 'y' }, { language: 'ko-KR,ko;q=0.9' });
    const ja = await server.call(api.auth.signIn, { userId: 'x@lab.test', password: 'y' }, { language: 'ja' });
    expect(ko.body.message).toBe('아이디 또는 비밀번호가 올바르지 않습니다.');
    expect(ja.body.message).toBe('IDまたはパスワードが正しくありません。');
  });

  it('validates the body: both fields required, the ID an email, per-field reasons, localised', async () => {
    const empty = await server.call<ValidationErrorData>(api.auth.signIn.path, {});
    expect(empty.http).toBe(400);
    expect(empty.body.status).toBe(ERR.validation);
    expect(empty.body.data.fields.map((f) => [f.field, f.reason])).toEqual([
      ['userId', 'required'],
      ['password', 'required'],
    ]);
    const badEmail = await server.call<ValidationErrorData>(
      api.auth.signIn.path,
      { userId: 'not an email', password: 'x' },
      { language: 'ko' },
    );
    expect(badEmail.body.data.fields).toEqual([
      { field: 'userId', reason: 'invalidEmail', message: 'name@company.com 형식의 이메일을 입력해 주세요.' },
    ]);
    const wrongType = await server.call<ValidationErrorData>(api.auth.signIn.path, { userId: 42, password: ['x'] });
    expect(wrongType.body.data.fields.map((f) => f.reason)).toEqual(['invalidType', 'invalidType']);
  });

  it('refuses unknown fields instead of ignoring them, so no one can slip in a level or flags', async () => {
    const researcher = await server.createUser();
    const result = await server.call<ValidationErrorData>(api.auth.signIn.path, {
      userId: researcher.userId,
      password: researcher.password,
      level: 10,
      auth: { template: 'Y' },
    });
    expect(result.http).toBe(400);
    expect(result.body.data.fields.map((f) => [f.field, f.reason])).toEqual([
      ['level', 'unknownField'],
      ['auth', 'unknownField'],
    ]);
    const [row] = await server.database.db.select().from(users).where(eq(users.userNo, researcher.userNo));
    expect(row).toMatchObject({ level: 1, authTemplate: false });
  });

  it('tells a deactivated user so, but only once the password is right', async () => {
    const researcher = await server.createUser({ active: false });
    const wrong = await server.call(api.auth.signIn, { userId: researcher.userId, password: 'wrong-password' });
    expect(wrong.body.status).toBe(ERR.badCredentials);
    const right = await server.call(api.auth.signIn, { userId: researcher.userId, password: researcher.password });
    expect(right.body.status).toBe(ERR.accountDisabled);
  });
});

describe('access tokens', () => {
  let answer: SignInAnswer;
  beforeAll(async () => {
    const researcher = await server.createUser({ auth: { project: 'N', schema: 'Y', dropbox: 'N', template: 'Y' } });
    answer = await server.signIn(researcher.userId, researcher.password);
  });

  it(`open authenticated calls: ${api.auth.flags.path} answers the flags`, async () => {
    const result = await server.call(api.auth.flags, {}, { token: answer.accessToken });
    expect(result.body).toMatchObject({ status: '0000', data: { project: 'N', schema: 'Y', dropbox: 'N', template: 'Y' } });
  });

  it('are required: no token, a malformed header or garbage is refused with 401', async () => {
    for (const headers of [{}, { authorization: 'Basic abc' }, { authorization: 'Bearer not.a.jwt' }] as Array<Record<string, string>>) {
      const result = await server.call(api.auth.flags, {}, { headers });
      expect(result.http).toBe(401);
      expect(result.body.status).toBe(ERR.sessionEnded);
    }
  });

  it('refuse forged tokens: wrong key, alg none, expired, no expiry, tampered claims, wrong type', async () => {
    const claims = claimsOf(answer.accessToken);
    const secret = await serverSecret(server.database.db);
    const now = Math.floor(Date.now() / 1000);
    const forged = [
      forgeJwt(claims, { secret: 'a-key-that-is-not-the-servers-key-at-all' }),
      forgeJwt(claims, { alg: 'none' }),
      forgeJwt({ ...claims, iat: now - 3600, exp: now - 60 }, { secret }),
      // Signed with the real key but without `exp`: it would never expire.
      forgeJwt({ sub: claims.sub, sid: claims.sid, typ: claims.typ, iat: now }, { secret }),
      forgeJwt({ ...claims, exp: 'never' }, { secret }),
      forgeJwt({ ...claims, typ: 'refresh' }, { secret }),
      forgeJwt({ ...claims, sub: '1' }, { secret }),
    ];
    // The control: a hand-made token with the right key and claims is accepted, so the refusals mean something.
    const control = await server.call(api.auth.flags, {}, { token: forgeJwt({ ...claims, iat: now, exp: now + 60 }, { secret }) });
    expect(control.body.status).toBe('0000');
    for (const token of forged) {
      const result = await server.call(api.auth.flags, {}, { token });
      expect(result.http, token).toBe(401);
      expect(result.body.status).toBe(ERR.sessionEnded);
    }
  });

  it('refuse a refresh token presented as an access token', async () => {
    const result = await server.call(api.auth.flags, {}, { token: answer.refreshToken });
    expect(result.http).toBe(401);
  });

  it('stop working at once when the user is deactivated', async () => {
    const researcher = await server.createUser();
    const session = await server.signIn(researcher.userId, researcher.password);
    await server.database.db.update(users).set({ active: false }).where(eq(users.userNo, researcher.userNo));
    const result = await server.call(api.auth.flags, {}, { token: session.accessToken });
    expect(result.http).toBe(401);
  });
});

describe('refresh', () => {
  it('rotates: each refresh token works once and answers a fresh pair', async () => {
    const researcher = await server.createUser();
    const first = await server.signIn(researcher.userId, researcher.password);
    const second = await server.call(api.auth.refresh, { refreshToken: first.refreshToken });
    expect(second.body.status).toBe('0000');
    expect(second.body.data.refreshToken).not.toBe(first.refreshToken);
    expect(second.body.data.user.userId).toBe(researcher.userId);
    const third = await server.call(api.auth.refresh, { refreshToken: second.body.data.refreshToken });
    expect(third.body.status).toBe('0000');
    expect((await server.call(api.auth.flags, {}, { token: third.body.data.accessToken })).body.status).toBe('0000');
  });

  it('revokes the whole family when a spent token comes back, and audits it', async () => {
    const researcher = await server.createUser();
    const first = await server.signIn(researcher.userId, researcher.password);
    const second = (await server.call(api.auth.refresh, { refreshToken: first.refreshToken })).body.data;

    const reuse = await server.call(api.auth.refresh, { refreshToken: first.refreshToken });
    expect(reuse.http).toBe(401);
    expect(reuse.body.status).toBe(ERR.refreshInvalid);
    expect(await lastAudit()).toMatchObject({ action: 'user.refreshReuse', actorUserId: researcher.userId });

    // The legitimate holder's newer tokens die with the family.
    expect((await server.call(api.auth.refresh, { refreshToken: second.refreshToken })).http).toBe(401);
    expect((await server.call(api.auth.flags, {}, { token: second.accessToken })).http).toBe(401);
    expect((await server.call(api.auth.flags, {}, { token: first.accessToken })).http).toBe(401);
  });

  it('lets only one of two racing uses of the same token win', async () => {
    const researcher = await server.createUser();
    const first = await server.signIn(researcher.userId, researcher.password);
    const results = await Promise.all([1, 2].map(() => server.call(api.auth.refresh, { refreshToken: first.refreshToken })));
    expect(results.filter((r) => r.body.status === '0000').length).toBeLessThanOrEqual(1);
  });

  it('refuses unknown and expired refresh tokens', async () => {
    expect((await server.call(api.auth.refresh, { refreshToken: 'made-up' })).body.status).toBe(ERR.refreshInvalid);
    const researcher = await server.createUser();
    const answer = await server.signIn(researcher.userId, researcher.password);
    await server.database.db
      .update(refreshTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(refreshTokens.tokenHash, sha256Hex(answer.refreshToken)));
    const expired = await server.call(api.auth.refresh, { refreshToken: answer.refreshToken });
    expect(expired.http).toBe(401);
    expect(expired.body.status).toBe(ERR.refreshInvalid);
  });
});

describe('the refresh token in a cookie (the browser client)', () => {
  const refreshCookieOf = (result: CallResult<unknown>) => result.cookies.find((cookie) => cookie.name === REFRESH_COOKIE.name);
  const withCookie = (token: string) => ({ headers: { cookie: `${REFRESH_COOKIE.name}=${token}` } });

  it('is set httpOnly, SameSite=Strict, for the refresh call only, and never put in the answer', async () => {
    const researcher = await server.createUser();
    const signedIn = await server.call(api.auth.signIn, {
      userId: researcher.userId,
      password: researcher.password,
      refreshIn: 'cookie',
    });
    expect(signedIn.body.status).toBe('0000');
    expect(signedIn.body.data.refreshToken).toBe('');
    expect(signedIn.body.data.accessToken).not.toBe('');
    const cookie = refreshCookieOf(signedIn);
    expect(cookie).toMatchObject({
      httpOnly: true,
      sameSite: 'Strict',
      path: `/server${api.auth.refresh.path}`,
      maxAge: TIMING.refreshTokenSeconds,
    });
    // Served over plain http (this test, a laptop): not Secure, or the browser would drop it.
    expect(cookie?.secure).toBeFalsy();
    expect(cookie?.value.length).toBeGreaterThan(20);
    // Over https (as the proxy says, when trusted) it is Secure.
    const behindTls = await startTestServer({ config: { trustProxy: true } });
    try {
      const other = await behindTls.createUser();
      const overTls = await behindTls.call(
        api.auth.signIn,
        { userId: other.userId, password: other.password, refreshIn: 'cookie' },
        { headers: { 'x-forwarded-proto': 'https' } },
      );
      expect(refreshCookieOf(overTls)?.secure).toBe(true);
    } finally {
      await behindTls.stop();
    }
  });

  it('rotates from the cookie: a new cookie each time, an empty token in the answer, the spent one refused with the session', async () => {
    const researcher = await server.createUser();
    const signedIn = await server.call(api.auth.signIn, {
      userId: researcher.userId,
      password: researcher.password,
      refreshIn: 'cookie',
    });
    const first = refreshCookieOf(signedIn)!.value;
    const refreshed = await server.call(api.auth.refresh, { refreshIn: 'cookie' }, withCookie(first));
    expect(refreshed.body.status).toBe('0000');
    expect(refreshed.body.data.refreshToken).toBe('');
    const second = refreshCookieOf(refreshed)!.value;
    expect(second).not.toBe(first);
    expect((await server.call(api.auth.flags, {}, { token: refreshed.body.data.accessToken })).body.status).toBe('0000');

    // The spent cookie again (a stolen copy): refused, the cookie removed, and the session revoked for everyone.
    const reuse = await server.call(api.auth.refresh, { refreshIn: 'cookie' }, withCookie(first));
    expect(reuse.body.status).toBe(ERR.refreshInvalid);
    expect(refreshCookieOf(reuse)).toMatchObject({ value: '', path: `/server${api.auth.refresh.path}` });
    expect(refreshCookieOf(reuse)!.expires!.getTime()).toBeLessThan(Date.now());
    expect((await server.call(api.auth.refresh, { refreshIn: 'cookie' }, withCookie(second))).body.status).toBe(ERR.refreshInvalid);
  });

  it('refuses a cookie refresh without a cookie, and a body refresh without a token, changing nothing', async () => {
    const before = await server.database.db.select().from(refreshTokens);
    const noCookie = await server.call(api.auth.refresh, { refreshIn: 'cookie' });
    expect(noCookie.http).toBe(401);
    expect(noCookie.body.status).toBe(ERR.refreshInvalid);
    const noToken = await server.call(api.auth.refresh, {});
    expect(noToken.body.status).toBe(ERR.validation);
    expect(noToken.body.data).toMatchObject({ fields: [{ field: 'refreshToken', reason: 'required' }] });
    // A cookie does not stand in for the token of a body refresh.
    const researcher = await server.createUser();
    const signedIn = await server.call(api.auth.signIn, {
      userId: researcher.userId,
      password: researcher.password,
      refreshIn: 'cookie',
    });
    expect((await server.call(api.auth.refresh, {}, withCookie(refreshCookieOf(signedIn)!.value))).body.status).toBe(ERR.validation);
    expect((await server.call(api.auth.refresh, { refreshIn: 'jar' })).body.status).toBe(ERR.validation);
    expect((await server.database.db.select().from(refreshTokens)).length).toBe(before.length + 1);
  });

  it('is removed at sign-out, and the token it held is dead', async () => {
    const researcher = await server.createUser();
    const signedIn = await server.call(api.auth.signIn, {
      userId: researcher.userId,
      password: researcher.password,
      refreshIn: 'cookie',
    });
    const out = await server.call(api.auth.signOut, {}, { token: signedIn.body.data.accessToken });
    expect(out.body.status).toBe('0000');
    expect(refreshCookieOf(out)).toMatchObject({ value: '', path: `/server${api.auth.refresh.path}`, httpOnly: true, sameSite: 'Strict' });
    expect((await server.call(api.auth.refresh, { refreshIn: 'cookie' }, withCookie(refreshCookieOf(signedIn)!.value))).body.status).toBe(
      ERR.refreshInvalid,
    );
  });
});

describe('sign-out', () => {
  it('revokes the session: its access and refresh tokens are refused at once, and it is audited', async () => {
    const researcher = await server.createUser();
    const answer = await server.signIn(researcher.userId, researcher.password);
    const out = await server.call(api.auth.signOut, {}, { token: answer.accessToken });
    expect(out.body.status).toBe('0000');
    expect(await lastAudit()).toMatchObject({ action: 'user.signOut', actorUserId: researcher.userId });
    expect((await server.call(api.auth.flags, {}, { token: answer.accessToken })).http).toBe(401);
    expect((await server.call(api.auth.refresh, { refreshToken: answer.refreshToken })).http).toBe(401);
    const [session] = await server.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.sessionId, String(claimsOf(answer.accessToken).sid)));
    expect(session?.revokedReason).toBe('signed out');
  });

  it('leaves the user’s other sessions alone', async () => {
    const researcher = await server.createUser();
    const laptop = await server.signIn(researcher.userId, researcher.password);
    const phone = await server.signIn(researcher.userId, researcher.password);
    await server.call(api.auth.signOut, {}, { token: laptop.accessToken });
    expect((await server.call(api.auth.flags, {}, { token: phone.accessToken })).body.status).toBe('0000');
  });
});

describe('find ID', () => {
  it('answers the masked email for a matching name and phone', async () => {
    const researcher = await server.createUser({ userId: 'jiwoo.kim@lab.test', name: 'Kim Jiwoo', phone: '010-1234-5678' });
    const result = await server.call(api.auth.findId, { name: 'Kim Jiwoo', phone: '010-1234-5678' });
    expect(result.body.data).toEqual({ maskedUserId: 'ji***@l***.test' });
    expect(result.body.data.maskedUserId).not.toContain(researcher.userId);
  });

  it('says when nothing matches, and validates the phone pattern', async () => {
    const none = await server.call(api.auth.findId, { name: 'Nobody', phone: '02-123-4567' });
    expect(none.http).toBe(404);
    expect(none.body.status).toBe(ERR.noMatchingAccount);
    const bad = await server.call<ValidationErrorData>(api.auth.findId.path, { name: 'Kim', phone: '0101234' });
    expect(bad.body.data.fields).toMatchObject([{ field: 'phone', reason: 'invalidPhone' }]);
  });
});

describe('find password and reset', () => {
  const capturedMail: Array<{ to: string; text: string }> = [];
  beforeAll(() => {
    server.services.mailer = { send: async (mail) => void capturedMail.push(mail) };
  });
  const linkToken = (text: string) => /reset=([\w-]+)/.exec(text)?.[1] ?? '';
  /** The link is mailed after the answer: waits for the mail to `to`. */
  const mailedToken = async (to: string) => {
    await eventually(() => capturedMail.some((m) => m.to === to), `the reset mail to ${to}`);
    return linkToken(capturedMail.filter((m) => m.to === to).at(-1)?.text ?? '');
  };
  /** Each test asks from its own address, so that the per-address recovery limit of one does not touch another. */
  let addresses = 0;
  const fromNewAddress = () => ({ remoteAddress: `192.0.2.${(addresses += 1)}` });

  it('answers the same whether or not the account exists, and mails only to a real one', async () => {
    const researcher = await server.createUser();
    const from = fromNewAddress();
    const known = await server.call(api.auth.findPassword, { userId: researcher.userId }, from);
    const unknown = await server.call(api.auth.findPassword, { userId: 'ghost@lab.test' }, from);
    expect(known.body).toEqual(unknown.body);
    expect(known.body.status).toBe('0000');
    await mailedToken(researcher.userId);
    // A later request's mail marks the point by which the unknown ID's (earlier, shorter) work is done.
    const control = await server.createUser();
    await server.call(api.auth.findPassword, { userId: control.userId }, from);
    await mailedToken(control.userId);
    expect(capturedMail.map((m) => m.to)).toEqual([researcher.userId, control.userId]);
    expect(capturedMail[0]?.text).toContain(`${server.config.publicUrl}/signin?reset=`);
  });

  it('answers before the account is looked up or mailed: known and unknown IDs take the same path', async () => {
    const researcher = await server.createUser();
    // A mail server that does not answer: if the call waited for the mail, it would not answer either.
    let release = () => undefined as void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const sent: string[] = [];
    const mailer = server.services.mailer;
    server.services.mailer = { send: async (mail) => held.then(() => void sent.push(mail.to)) };
    try {
      const answer = await server.call(api.auth.findPassword, { userId: researcher.userId }, fromNewAddress());
      expect(answer.body).toEqual({ status: '0000', message: expect.any(String), data: null });
      expect(sent).toEqual([]);
      // The work goes on behind the answer: the link is stored and its mail waits on the mail server.
      await eventually(
        async () =>
          (await server.database.db.select().from(passwordResets).where(eq(passwordResets.userNo, researcher.userNo))).length === 1,
        'the reset link to be stored',
      );
      release();
      await eventually(() => sent.includes(researcher.userId), 'the mail to go out once the mail server answers');
    } finally {
      release();
      server.services.mailer = mailer;
    }
  });

  it('resets the password once with the link, ends every session, and audits it', async () => {
    const researcher = await server.createUser();
    const before = await server.signIn(researcher.userId, researcher.password);
    await server.call(api.auth.findPassword, { userId: researcher.userId }, fromNewAddress());
    const token = await mailedToken(researcher.userId);
    expect(token).not.toBe('');

    const reset = await server.call(api.auth.resetPassword, { token, password: 'a brand new password' });
    expect(reset.body.status).toBe('0000');
    expect(await lastAudit()).toMatchObject({ action: 'user.passwordReset', actorUserId: researcher.userId });
    expect((await server.call(api.auth.flags, {}, { token: before.accessToken })).http).toBe(401);
    expect((await server.call(api.auth.signIn, { userId: researcher.userId, password: researcher.password })).body.status).toBe(
      ERR.badCredentials,
    );
    await expect(server.signIn(researcher.userId, 'a brand new password')).resolves.toBeTruthy();

    const again = await server.call(api.auth.resetPassword, { token, password: 'another new password' });
    expect(again.body.status).toBe(ERR.resetInvalid);
  });

  it('refuses an expired link, a made-up one, and a password that breaks the policy', async () => {
    const researcher = await server.createUser();
    await server.call(api.auth.findPassword, { userId: researcher.userId }, fromNewAddress());
    const token = await mailedToken(researcher.userId);
    const weak = await server.call<ValidationErrorData>(api.auth.resetPassword.path, { token, password: 'short' });
    expect(weak.http).toBe(400);
    expect(weak.body.data.fields).toMatchObject([{ field: 'password', reason: 'tooShort', params: { min: 12 } }]);
    await server.database.db
      .update(passwordResets)
      .set({ expiresAt: new Date(Date.now() - 1) })
      .where(eq(passwordResets.tokenHash, sha256Hex(token)));
    expect((await server.call(api.auth.resetPassword, { token, password: 'a long enough password' })).body.status).toBe(ERR.resetInvalid);
    expect((await server.call(api.auth.resetPassword, { token: 'made-up', password: 'a long enough password' })).body.status).toBe(
      ERR.resetInvalid,
    );
    await expect(server.signIn(researcher.userId, researcher.password)).resolves.toBeTruthy();
  });

  it('limits made-up links per address: past the limit even a real link from there answers 429 and changes nothing', async () => {
    const researcher = await server.createUser();
    await server.call(api.auth.findPassword, { userId: researcher.userId }, fromNewAddress());
    const token = await mailedToken(researcher.userId);
    const guesser = fromNewAddress();
    const statuses: string[] = [];
    for (let i = 0; i < server.config.throttle.addressLockAfter; i += 1) {
      statuses.push(
        (await server.call(api.auth.resetPassword, { token: `guess-${i}`, password: 'a long enough password' }, guesser)).body.status,
      );
    }
    // Each guess is refused as a bad link; the one that reaches the limit locks the address.
    expect(statuses.slice(0, -1).every((status) => status === ERR.resetInvalid)).toBe(true);
    const locked = await server.call(api.auth.resetPassword, { token, password: 'a long enough password' }, guesser);
    expect(locked.http).toBe(429);
    expect(locked.body.status).toBe(ERR.tooManyAttempts);
    await expect(server.signIn(researcher.userId, researcher.password)).resolves.toBeTruthy();
    // Another address is not affected, and the link still works there.
    expect((await server.call(api.auth.resetPassword, { token, password: 'a long enough password' }, fromNewAddress())).body.status).toBe(
      '0000',
    );
  });
});

describe('administrator calls', () => {
  it('are refused to members with 403 and open to level 10', async () => {
    const researcher = await server.createUser();
    const member = await server.signIn(researcher.userId, researcher.password);
    const refused = await server.call(api.audit.verify, {}, { token: member.accessToken });
    expect(refused.http).toBe(403);
    expect(refused.body.status).toBe(ERR.forbidden);
    const admin = await server.signIn(server.admin.userId, server.admin.password);
    const allowed = await server.call(api.audit.verify, {}, { token: admin.accessToken });
    expect(allowed.body).toMatchObject({ status: '0000', data: { ok: true, firstBroken: null } });
  });
});

describe('what the session may do (abilities)', () => {
  it('come with the sign-in as the policies decide them: the project flag creates projects, level 10 administers', async () => {
    const leader = await server.createUser({ auth: { project: 'Y', schema: 'N', dropbox: 'N', template: 'N' } });
    const reader = await server.createUser({ auth: { project: 'N', schema: 'Y', dropbox: 'Y', template: 'Y' } });
    expect((await server.signIn(leader.userId, leader.password)).abilities).toEqual({ administer: false, createProject: true });
    expect((await server.signIn(reader.userId, reader.password)).abilities).toEqual({ administer: false, createProject: false });
    const admin = await server.signIn(server.admin.userId, server.admin.password);
    expect(admin.abilities.administer).toBe(true);
  });

  it('follow the flags an administrator changes: the flags call and the next refresh answer them', async () => {
    const researcher = await server.createUser({ auth: { project: 'N', schema: 'N', dropbox: 'N', template: 'N' } });
    const session = await server.signIn(researcher.userId, researcher.password);
    const asResearcher = server.callerWith(session.accessToken);
    expect((await asResearcher(api.auth.flags)).body.data).toEqual({
      project: 'N',
      schema: 'N',
      dropbox: 'N',
      template: 'N',
      abilities: { administer: false, createProject: false },
    });
    const admin = await server.as(server.admin);
    const granted = await admin(api.users.update, {
      userNo: researcher.userNo,
      auth: { project: 'Y', schema: 'N', dropbox: 'N', template: 'N' },
    });
    expect(granted.body.status).toBe('0000');
    expect((await asResearcher(api.auth.flags)).body.data.abilities).toEqual({ administer: false, createProject: true });
    const refreshed = await server.call(api.auth.refresh, { refreshToken: session.refreshToken });
    expect(refreshed.body.data.abilities).toEqual({ administer: false, createProject: true });
    // The rule the abilities report is the one the server enforces.
    const created = await asResearcher(api.projects.create, { title: 'Granted', signatureList: { user: researcher.userId } });
    expect(created.body.status).toBe('0000');
  });
});

describe('single sign-on on a server without a provider', () => {
  it('says it is off, and its start and finish calls answer as calls this server does not have (404 9005)', async () => {
    expect((await server.call(api.sso.config)).body).toMatchObject({ status: '0000', data: { enabled: false } });
    for (const [ssoCall, body] of [
      [api.sso.start, {}],
      [api.sso.finish, { code: 'a-code', state: 'a-state' }],
    ] as const) {
      const answer = await server.call(ssoCall, body);
      expect(answer.http, ssoCall.path).toBe(404);
      expect(answer.body.status, ssoCall.path).toBe(ERR.unknownCall);
    }
  });
});
