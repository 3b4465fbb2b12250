import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, desc, eq } from 'drizzle-orm';
import { api, ERR, errorMessage, TOKEN_LIMITS, type TokenScope, type ValidationErrorData } from '@eln/shared';
import { sha256Hex } from '../auth/secrets.js';
import { accessTokens, auditLog, files, labNotes, projects } from '../db/schema.js';
import { multipartBody } from '../files/multipartBody.js';
import { startTestServer, type Caller, type NewUser, type TestServer } from '../testing/harness.js';

let server: TestServer;
let admin: Caller;

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.as(server.admin);
});
afterAll(async () => {
  await server?.stop();
});

const DAY = 24 * 60 * 60 * 1000;
const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString();

interface Person {
  user: NewUser & { userNo: number };
  session: Caller;
}

async function person(fields: Partial<NewUser> = {}): Promise<Person> {
  const user = await server.createUser(fields);
  return { user, session: await server.as(user) };
}

/** Creates a token through the API (a session's call) and answers its secret and id. */
async function tokenOf(who: Person, scopes: TokenScope[] = ['read', 'write'], name = 'instrument') {
  const created = await who.session(api.tokens.create, { name, expiresAt: inDays(30), scopes });
  expect(created.body.status).toBe('0000');
  return { secret: created.body.data.token, tokenId: created.body.data.record.tokenId, call: server.callerWith(created.body.data.token) };
}

/**
 * Everything a refusal must leave as it was: the audit trail, every token's row, notes and projects. A
 * call refused after its token was accepted (by its person's permissions) has used the token: its last
 * use and count may change, nothing else (`admitted`).
 */
async function state(admitted = false) {
  const { db } = server.database;
  const [[audits], tokens, [notes], [projectCount], [fileCount]] = await Promise.all([
    db.select({ n: count() }).from(auditLog),
    db.select().from(accessTokens).orderBy(accessTokens.tokenId),
    db.select({ n: count() }).from(labNotes),
    db.select({ n: count() }).from(projects),
    db.select({ n: count() }).from(files),
  ]);
  const kept = admitted
    ? tokens.map(({ lastUsedAt: _at, lastUsedFrom: _from, windowStartedAt: _start, windowCalls: _calls, ...row }) => row)
    : tokens;
  return JSON.stringify({ audits, tokens: kept, notes, projectCount, fileCount });
}

/** Runs a refused call and checks that it changed nothing. */
async function refusedWithoutChange<T>(run: () => Promise<T>, { admitted = false } = {}): Promise<T> {
  const before = await state(admitted);
  const result = await run();
  expect(await state(admitted)).toBe(before);
  return result;
}

async function projectWith(leader: Person, members: Person[], title: string): Promise<number> {
  const created = await leader.session(api.projects.create, {
    title,
    signatureList: { department: '', user: [leader, ...members].map((p) => p.user.userId).join(',') },
  });
  expect(created.body.status).toBe('0000');
  return created.body.data.projectNo;
}

describe('creating, listing and revoking my tokens', () => {
  it('shows the secret once, stores only its hash, lists it with its last use, and revokes it at once', async () => {
    const me = await person();
    const created = await me.session(api.tokens.create, { name: 'HPLC export', expiresAt: inDays(90), scopes: ['write', 'read'] });
    expect(created.http).toBe(200);
    const { token, record } = created.body.data;
    expect(token).toMatch(/^eln_pat_[A-Za-z0-9_-]{43}$/);
    expect(record).toMatchObject({
      name: 'HPLC export',
      scopes: ['read', 'write'],
      state: 'active',
      lastUsedAt: null,
      prefix: token.slice(0, 12),
    });

    // Only the hash is kept: no column holds the secret.
    const [row] = await server.database.db.select().from(accessTokens).where(eq(accessTokens.tokenId, record.tokenId));
    expect(row?.tokenHash).toBe(sha256Hex(token));
    expect(JSON.stringify(row)).not.toContain(token.slice(12));
    const [audit] = await server.database.db.select().from(auditLog).orderBy(desc(auditLog.seq)).limit(1);
    expect(audit).toMatchObject({ action: 'token.created', targetId: record.tokenId, tokenId: null });
    expect(JSON.stringify(audit)).not.toContain(token.slice(12));

    // The token works, and its use is listed with the time and the address it came from.
    const withToken = server.callerWith(token);
    const flags = await withToken(api.auth.flags, {}, { remoteAddress: '192.0.2.7' });
    expect(flags.body.status).toBe('0000');
    const listed = await me.session(api.tokens.list, {});
    expect(listed.body.data).toMatchObject({ totalCount: 1, abilities: { create: true }, createRefusal: null });
    expect(listed.body.data.list[0]).toMatchObject({ tokenId: record.tokenId, lastUsedFrom: '192.0.2.7', state: 'active' });
    expect(listed.body.data.list[0]?.lastUsedAt).not.toBeNull();
    // The list never answers the secret again.
    expect(JSON.stringify(listed.body)).not.toContain(token.slice(12));

    const revoked = await me.session(api.tokens.revoke, { tokenId: record.tokenId });
    expect(revoked.body.data).toMatchObject({ state: 'revoked' });
    expect((await server.database.db.select().from(auditLog).orderBy(desc(auditLog.seq)).limit(1))[0]).toMatchObject({
      action: 'token.revoked',
      targetId: record.tokenId,
    });
    const after = await refusedWithoutChange(() => withToken(api.auth.flags, {}));
    expect(after).toMatchObject({ http: 401, body: { status: ERR.tokenInvalid } });
    const again = await refusedWithoutChange(() => me.session(api.tokens.revoke, { tokenId: record.tokenId }));
    expect(again).toMatchObject({ http: 409, body: { status: ERR.tokenAlreadyRevoked } });
  });

  it('refuses a bad name, scope or expiry, an expiry past or beyond a year, and changes nothing', async () => {
    const me = await person();
    const fields = async (body: unknown) => {
      const answer = await refusedWithoutChange(() => me.session<ValidationErrorData>(api.tokens.create.path, body));
      expect(answer.http).toBe(400);
      return answer.body.data.fields.map(({ field }) => field);
    };
    expect(await fields({ name: ' ', expiresAt: inDays(1), scopes: ['read'] })).toEqual(['name']);
    expect(await fields({ name: 'x'.repeat(TOKEN_LIMITS.name + 1), expiresAt: inDays(1), scopes: ['read'] })).toEqual(['name']);
    expect(await fields({ name: 'a', scopes: ['read'] })).toEqual(['expiresAt']);
    expect(await fields({ name: 'a', expiresAt: 'next year', scopes: ['read'] })).toEqual(['expiresAt']);
    expect(await fields({ name: 'a', expiresAt: inDays(1), scopes: [] })).toEqual(['scopes']);
    expect(await fields({ name: 'a', expiresAt: inDays(1), scopes: ['sign'] })).toEqual(['scopes.0']);
    expect(await fields({ name: 'a', expiresAt: inDays(1), scopes: ['read', 'read'] })).toEqual(['scopes']);

    const tooFar = await refusedWithoutChange(() => me.session(api.tokens.create, { name: 'a', expiresAt: inDays(366), scopes: ['read'] }));
    expect(tooFar).toMatchObject({ http: 422, body: { status: ERR.tokenExpiryTooFar } });
    expect(tooFar.body.message).toContain('365');
    const past = await refusedWithoutChange(() =>
      me.session(api.tokens.create, { name: 'a', expiresAt: new Date(Date.now() - 1000).toISOString(), scopes: ['read'] }),
    );
    expect(past).toMatchObject({ http: 422, body: { status: ERR.tokenExpiryPast } });
    // A year to the day is allowed.
    expect((await me.session(api.tokens.create, { name: 'a year', expiresAt: inDays(364.99), scopes: ['read'] })).body.status).toBe('0000');
  });

  it(`refuses a token beyond ${TOKEN_LIMITS.perUser} held at once, and counts neither revoked nor expired ones`, async () => {
    const me = await person();
    const ids: string[] = [];
    for (let i = 0; i < TOKEN_LIMITS.perUser; i += 1) ids.push((await tokenOf(me, ['read'], `t${i}`)).tokenId);
    const listed = await me.session(api.tokens.list, {});
    expect(listed.body.data).toMatchObject({
      totalCount: TOKEN_LIMITS.perUser,
      abilities: { create: false },
      createRefusal: ERR.tokenLimit,
    });
    const refused = await refusedWithoutChange(() =>
      me.session(api.tokens.create, { name: 'one more', expiresAt: inDays(1), scopes: ['read'] }),
    );
    expect(refused).toMatchObject({ http: 422, body: { status: ERR.tokenLimit } });
    await me.session(api.tokens.revoke, { tokenId: ids[0] });
    await server.database.db
      .update(accessTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(accessTokens.tokenId, ids[1]!));
    expect((await me.session(api.tokens.create, { name: 'one more', expiresAt: inDays(1), scopes: ['read'] })).body.status).toBe('0000');
    expect((await me.session(api.tokens.create, { name: 'two more', expiresAt: inDays(1), scopes: ['read'] })).body.status).toBe('0000');
  });

  it("answers another person's token as missing, to its owner's neighbours", async () => {
    const owner = await person();
    const other = await person();
    const { tokenId, call } = await tokenOf(owner);
    const refused = await refusedWithoutChange(() => other.session(api.tokens.revoke, { tokenId }));
    expect(refused).toMatchObject({ http: 404, body: { status: ERR.tokenMissing } });
    expect((await other.session(api.tokens.list, {})).body.data.list).toEqual([]);
    expect((await call(api.auth.flags, {})).body.status).toBe('0000');
  });
});

describe('what a token may call', () => {
  it('refuses an expired token, and says so', async () => {
    const me = await person();
    const { tokenId, call } = await tokenOf(me);
    await server.database.db
      .update(accessTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(accessTokens.tokenId, tokenId));
    const refused = await refusedWithoutChange(() => call(api.auth.flags, {}));
    expect(refused).toMatchObject({ http: 401, body: { status: ERR.tokenExpired } });
    expect((await me.session(api.tokens.list, {})).body.data.list[0]).toMatchObject({ state: 'expired', lastUsedAt: null });
  });

  it('lets a read token read and refuses it every command; a write token does both', async () => {
    const me = await person();
    const projectNo = await projectWith(me, [], 'Token scopes');
    const reader = await tokenOf(me, ['read']);
    const writer = await tokenOf(me, ['write']);
    expect((await reader.call(api.projects.list, {})).body.data.list.map((p) => p.no)).toContain(projectNo);
    const refused = await refusedWithoutChange(() => reader.call(api.notes.create, { projectNo, title: 'From a script' }));
    expect(refused).toMatchObject({ http: 403, body: { status: ERR.tokenReadOnly } });
    const created = await writer.call(api.notes.create, { projectNo, title: 'From a script' });
    expect(created.body.status).toBe('0000');
    expect((await writer.call(api.notes.blockList, { labNoteNo: created.body.data.labNoteNo })).body.status).toBe('0000');
  });

  it('uploads a file to a note with a write token, audited with it, and refuses a read token the upload', async () => {
    const me = await person();
    const projectNo = await projectWith(me, [], 'Token uploads');
    const { labNoteNo } = (await me.session(api.notes.create, { projectNo, title: 'Spectra' })).body.data;
    const reader = await tokenOf(me, ['read']);
    const writer = await tokenOf(me, ['write']);
    const upload = async (token: string) => {
      const { payload, contentType } = multipartBody(
        { labNoteNo: String(labNoteNo) },
        { name: 'absorbance.txt', content: Buffer.from('nm,A\n280,0.52\n') },
      );
      const response = await server.app.inject({
        method: 'POST',
        url: `/server${api.files.upload.path}`,
        payload,
        headers: { 'content-type': contentType, authorization: `Bearer ${token}` },
      });
      return { http: response.statusCode, body: response.json<{ status: string }>() };
    };
    const refused = await refusedWithoutChange(() => upload(reader.secret));
    expect(refused).toMatchObject({ http: 403, body: { status: ERR.tokenReadOnly } });
    expect((await upload(writer.secret)).body.status).toBe('0000');
    const [record] = await server.database.db.select().from(auditLog).orderBy(desc(auditLog.seq)).limit(1);
    expect(record).toMatchObject({ action: 'file.uploaded', tokenId: writer.tokenId });
  });

  it('refuses every call that needs the password, or manages tokens, for any token', async () => {
    const me = await person();
    const { call } = await tokenOf(me);
    const adminToken = await tokenOf({ user: { ...server.admin } as Person['user'], session: admin });
    const sessionOnly = [
      [call, api.signatures.respond, { labNoteNo: 1, status: 'T', password: me.user.password, name: 'Me' }],
      [call, api.signatures.remove, { labNoteNo: 1, userId: me.user.userId, reason: 'x' }],
      [call, api.templates.approve, { templateNo: 1, version: '1', password: me.user.password }],
      [call, api.auth.signOut, {}],
      [call, api.tokens.list, {}],
      [call, api.tokens.create, { name: 'child', expiresAt: inDays(1), scopes: ['read'] }],
      [adminToken.call, api.users.update, { userNo: me.user.userNo, password: 'a new long password' }],
      [adminToken.call, api.tokens.updateSettings, { forbiddenLevels: [1] }],
    ] as const;
    for (const [caller, spec, body] of sessionOnly) {
      expect(spec.sessionOnly).toBe(true);
      const refused = await refusedWithoutChange(() => caller(spec, body));
      expect(refused, spec.path).toMatchObject({ http: 403, body: { status: ERR.tokenNotAccepted } });
    }
  });

  it('refuses a malformed or unknown token with a clear message in the caller’s language, and a session token still works', async () => {
    const me = await person();
    const malformed = await refusedWithoutChange(() => server.call(api.auth.flags, {}, { token: 'eln_pat_short', language: 'ko' }));
    expect(malformed).toMatchObject({ http: 401, body: { status: ERR.tokenMalformed, message: errorMessage(ERR.tokenMalformed, 'ko') } });
    expect(malformed.body.message).not.toBe(errorMessage(ERR.tokenMalformed, 'en'));
    const unknown = await refusedWithoutChange(() =>
      server.call(api.auth.flags, {}, { token: `eln_pat_${'A'.repeat(43)}`, language: 'ja' }),
    );
    expect(unknown).toMatchObject({ http: 401, body: { status: ERR.tokenInvalid, message: errorMessage(ERR.tokenInvalid, 'ja') } });
    // A session's token is not mistaken for one, nor is anything else.
    expect((await me.session(api.auth.flags, {})).body.status).toBe('0000');
    expect((await server.call(api.auth.flags, {}, { token: 'not-a-token' })).body.status).toBe(ERR.sessionEnded);
    // Public calls answer anyone alike, a token or none.
    expect((await server.call(api.system.info, {}, { token: `eln_pat_${'A'.repeat(43)}` })).body.status).toBe('0000');
  });

  it("acts with its person's permissions as they are now: a removed member loses the project at once", async () => {
    const leader = await person();
    const member = await person();
    const projectNo = await projectWith(leader, [member], 'Token membership');
    const { call } = await tokenOf(member);
    const note = await call(api.notes.create, { projectNo, title: 'Member note' });
    expect(note.body.status).toBe('0000');
    const labNoteNo = note.body.data.labNoteNo;
    expect((await call(api.notes.blockList, { labNoteNo })).body.status).toBe('0000');

    const removed = await leader.session(api.projects.update, {
      projectNo,
      signatureList: { department: '', user: leader.user.userId },
    });
    expect(removed.body.status).toBe('0000');
    const read = await refusedWithoutChange(() => call(api.notes.blockList, { labNoteNo }), { admitted: true });
    expect([ERR.noteMissing, ERR.forbidden]).toContain(read.body.status);
    const write = await refusedWithoutChange(() => call(api.notes.create, { projectNo, title: 'After removal' }), { admitted: true });
    expect([ERR.notFound, ERR.forbidden]).toContain(write.body.status);
    expect((await call(api.projects.list, {})).body.data.list.map((p) => p.no)).not.toContain(projectNo);
    // A token of a member is no administrator.
    expect((await call(api.tokens.adminList, {})).body.status).toBe(ERR.tokenNotAccepted);
    expect((await call(api.users.list, {})).body.status).toBe(ERR.forbidden);
  });

  it('stops with a deactivated person, and works again when they are reactivated', async () => {
    const me = await person();
    const { call } = await tokenOf(me);
    expect((await admin(api.users.update, { userNo: me.user.userNo, active: false })).body.status).toBe('0000');
    const refused = await refusedWithoutChange(() => call(api.auth.flags, {}));
    expect(refused).toMatchObject({ http: 401, body: { status: ERR.tokenInvalid } });
    expect((await admin(api.users.update, { userNo: me.user.userNo, active: true })).body.status).toBe('0000');
    expect((await call(api.auth.flags, {})).body.status).toBe('0000');
  });

  it('audits every change made with a token as made with it, and the chain still verifies', async () => {
    const me = await person();
    const projectNo = await projectWith(me, [], 'Token audit');
    const { tokenId, call } = await tokenOf(me);
    const created = await call(api.notes.create, { projectNo, title: 'Audited' }, { remoteAddress: '198.51.100.4' });
    expect(created.body.status).toBe('0000');
    const [record] = await server.database.db.select().from(auditLog).orderBy(desc(auditLog.seq)).limit(1);
    expect(record).toMatchObject({ action: 'note.created', actorUserNo: me.user.userNo, tokenId, clientAddress: '198.51.100.4' });
    const listed = await admin(api.audit.list, { action: 'note.created', pageSize: 1 });
    expect(listed.body.data.list[0]).toMatchObject({ seq: record?.seq, tokenId });
    // The same change made with a session names no token.
    await me.session(api.notes.create, { projectNo, title: 'Audited too' });
    expect((await server.database.db.select().from(auditLog).orderBy(desc(auditLog.seq)).limit(1))[0]?.tokenId).toBeNull();
    const verified = await admin(api.audit.verify, {});
    expect(verified.body.data).toMatchObject({ firstBroken: null, brokenCount: 0 });
  });

  it('throttles each token on its own: past the calls of a minute it is refused with the wait, changing nothing', async () => {
    const me = await person();
    const first = await tokenOf(me, ['read']);
    const second = await tokenOf(me, ['read']);
    const limit = server.config.tokenCallsPerMinute;
    server.config.tokenCallsPerMinute = 3;
    try {
      for (let i = 0; i < 3; i += 1) expect((await first.call(api.auth.flags, {})).body.status).toBe('0000');
      const refused = await refusedWithoutChange(() => first.call(api.auth.flags, {}));
      expect(refused).toMatchObject({ http: 429, body: { status: ERR.tokenRateLimited } });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
      expect((await second.call(api.auth.flags, {})).body.status).toBe('0000');
      // A new minute starts the count again.
      await server.database.db
        .update(accessTokens)
        .set({ windowStartedAt: new Date(Date.now() - 61_000) })
        .where(eq(accessTokens.tokenId, first.tokenId));
      expect((await first.call(api.auth.flags, {})).body.status).toBe('0000');
    } finally {
      server.config.tokenCallsPerMinute = limit;
    }
  });
});

describe('administrators and tokens', () => {
  it('lists every token with its owner and revokes any; a member cannot', async () => {
    const owner = await person({ name: 'Token Owner' });
    const { tokenId, call } = await tokenOf(owner, ['read'], 'balance reader');
    await call(api.auth.flags, {});
    const listed = await admin(api.tokens.adminList, { value: 'balance reader' });
    expect(listed.body.data.totalCount).toBe(1);
    expect(listed.body.data.list[0]).toMatchObject({
      tokenId,
      userId: owner.user.userId,
      userName: 'Token Owner',
      userLevel: 1,
      scopes: ['read'],
      state: 'active',
    });
    expect(listed.body.data.list[0]?.lastUsedAt).not.toBeNull();
    expect((await admin(api.tokens.adminList, { value: owner.user.userId })).body.data.totalCount).toBe(1);
    expect((await owner.session(api.tokens.adminList, {})).body.status).toBe(ERR.forbidden);

    const revoked = await admin(api.tokens.revoke, { tokenId });
    expect(revoked.body.data.state).toBe('revoked');
    expect((await call(api.auth.flags, {})).body.status).toBe(ERR.tokenInvalid);
    expect((await admin(api.tokens.adminList, { value: 'balance reader', activeOnly: true })).body.data.totalCount).toBe(0);
  });

  it('forbids tokens per level: creating is refused and existing tokens stop, until allowed again', async () => {
    const member = await person({ level: 1 });
    const senior = await person({ level: 2 });
    const memberToken = await tokenOf(member);
    const seniorToken = await tokenOf(senior);

    const refusedSetting = await refusedWithoutChange(() => member.session(api.tokens.updateSettings, { forbiddenLevels: [2] }));
    expect(refusedSetting.body.status).toBe(ERR.forbidden);
    expect((await admin(api.tokens.updateSettings, { forbiddenLevels: [0] })).http).toBe(400);

    const set = await admin(api.tokens.updateSettings, { forbiddenLevels: [1] });
    expect(set.body.data).toEqual({ forbiddenLevels: [1] });
    expect((await server.database.db.select().from(auditLog).orderBy(desc(auditLog.seq)).limit(1))[0]).toMatchObject({
      action: 'token.settingsUpdated',
      after: { forbiddenLevels: [1] },
    });
    expect((await admin(api.tokens.settings, {})).body.data).toEqual({ forbiddenLevels: [1] });

    const used = await refusedWithoutChange(() => memberToken.call(api.auth.flags, {}));
    expect(used).toMatchObject({ http: 403, body: { status: ERR.tokenLevelForbidden } });
    const created = await refusedWithoutChange(() =>
      member.session(api.tokens.create, { name: 'n', expiresAt: inDays(1), scopes: ['read'] }),
    );
    expect(created).toMatchObject({ http: 403, body: { status: ERR.tokenLevelForbidden } });
    const listed = await member.session(api.tokens.list, {});
    expect(listed.body.data).toMatchObject({ abilities: { create: false }, createRefusal: ERR.tokenLevelForbidden });
    expect(listed.body.data.list[0]?.state).toBe('forbidden');
    expect((await seniorToken.call(api.auth.flags, {})).body.status).toBe('0000');

    // The same setting again records nothing; allowing the level gives the tokens back.
    const audits = await state();
    await admin(api.tokens.updateSettings, { forbiddenLevels: [1] });
    expect(await state()).toBe(audits);
    await admin(api.tokens.updateSettings, { forbiddenLevels: [] });
    expect((await memberToken.call(api.auth.flags, {})).body.status).toBe('0000');
  });
});
