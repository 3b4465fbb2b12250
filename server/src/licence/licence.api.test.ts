import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq, sql } from 'drizzle-orm';
import { api, ERR, PRODUCT } from '@eln/shared';
import { auditLog, licences, users } from '../db/schema.js';
import { startTestServer, type TestServer } from '../testing/harness.js';
import { testLicenceKey, testLicencePayload } from '../testing/licenceKeys.js';
import { signLicenceKey } from './licenceKey.js';
import { activeUserCount } from './licence.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});
afterEach(async () => {
  await server.database.db.delete(licences);
});

const DAY_MS = 86_400_000;
const inDays = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString();

async function register(licenceKey: string) {
  const admin = await server.as(server.admin);
  return admin(api.licence.register, { licenceKey });
}

async function licenceRows() {
  return server.database.db.select().from(licences);
}

async function signInStatus(user: { userId: string; password: string }) {
  return (await server.call(api.auth.signIn, { userId: user.userId, password: user.password })).body.status;
}

/** A payload whose signature no longer matches: the seat count changed after signing. */
function withForgedSeats(licenceKey: string, seats: number): string {
  const [payload, signature] = licenceKey.split('.');
  const terms = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')) as Record<string, unknown>;
  return `${Buffer.from(JSON.stringify({ ...terms, seats }), 'utf8').toString('base64url')}.${signature}`;
}

describe(api.licence.register.path, () => {
  it('registers a genuine key, answers its terms and status, and audits the registration', async () => {
    const answer = await register(testLicenceKey({ serial: 'ELN-0001', company: 'Lab Co', seats: 40 }));
    expect(answer.body.status).toBe('0000');
    expect(answer.body.data.licence).toMatchObject({
      status: 'valid',
      companyName: 'Lab Co',
      serialNumber: 'ELN-0001',
      seats: 40,
      keyId: 'eln-test-1',
      maxVersion: '1.9',
    });
    expect(answer.body.data.activeUsers).toBe(await activeUserCount(server.database.db));
    const [record] = await server.database.db.select().from(auditLog).orderBy(desc(auditLog.seq)).limit(1);
    expect(record).toMatchObject({
      action: 'licence.registered',
      targetType: 'licence',
      targetId: 'ELN-0001',
      before: null,
      after: { serial: 'ELN-0001', seats: 40 },
    });
  });

  it('replaces the registered licence: exactly one row, the audit record keeps the old terms', async () => {
    await register(testLicenceKey({ serial: 'ELN-OLD', seats: 10 }));
    const answer = await register(testLicenceKey({ serial: 'ELN-NEW', seats: 20 }));
    expect(answer.body.data.licence).toMatchObject({ serialNumber: 'ELN-NEW', seats: 20 });
    expect((await licenceRows()).map((r) => r.serialNumber)).toEqual(['ELN-NEW']);
    const [record] = await server.database.db.select().from(auditLog).orderBy(desc(auditLog.seq)).limit(1);
    expect(record).toMatchObject({
      action: 'licence.registered',
      before: { serial: 'ELN-OLD', seats: 10 },
      after: { serial: 'ELN-NEW', seats: 20 },
    });
  });

  it('refuses keys that are not genuine (1013) and keeps the registered one', async () => {
    await register(testLicenceKey({ serial: 'ELN-KEPT' }));
    const genuine = testLicenceKey({ seats: 5 });
    const unknownKeyId = testLicenceKey({ keyId: 'eln-unknown-9' });
    const otherSigner = signLicenceKey(
      testLicencePayload(),
      (await import('node:crypto')).generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    );
    for (const key of [withForgedSeats(genuine, 5000), unknownKeyId, otherSigner, 'not-a-key', `${genuine}x`, genuine.split('.')[0]!]) {
      const refused = await register(key);
      expect(refused.http).toBe(422);
      expect(refused.body.status).toBe(ERR.licenceNotGenuine);
    }
    expect((await licenceRows()).map((r) => r.serialNumber)).toEqual(['ELN-KEPT']);
  });

  it('refuses another product or a version this one exceeds (1014), saying which version runs', async () => {
    for (const overrides of [{ product: 'other-eln' }, { maxVersion: '1.3' }, { maxVersion: '0.9' }]) {
      const refused = await register(testLicenceKey(overrides));
      expect(refused.body.status).toBe(ERR.licenceOtherProduct);
      expect(refused.body.message).toContain(PRODUCT.version);
    }
    expect((await register(testLicenceKey({ maxVersion: '2.0' }))).body.status).toBe('0000');
    expect((await register(testLicenceKey({ maxVersion: '1.4' }))).body.status).toBe('0000');
  });

  it('refuses an expired licence (1015) and one not yet valid (1016), with the date, in the reader’s language', async () => {
    const expired = await register(testLicenceKey({ issued: inDays(-400), expires: '2026-01-31T00:00:00.000Z' }));
    expect(expired.body.status).toBe(ERR.licenceExpired);
    expect(expired.body.message).toContain('2026-01-31');
    const admin = await server.as(server.admin);
    const early = await admin(
      api.licence.register,
      { licenceKey: testLicenceKey({ starts: '2099-03-01T00:00:00.000Z', expires: '2100-03-01T00:00:00.000Z' }) },
      { language: 'ko' },
    );
    expect(early.body.status).toBe(ERR.licenceNotYetValid);
    expect(early.body.message).toBe('이 라이선스는 2099-03-01부터 유효합니다. 그날 이후에 등록해 주세요.');
    expect(await licenceRows()).toEqual([]);
  });

  it('refuses members, empty and oversized keys, and unknown fields, changing nothing', async () => {
    const member = await server.as(await server.createUser());
    expect((await member(api.licence.register, { licenceKey: testLicenceKey() })).http).toBe(403);
    const admin = await server.as(server.admin);
    for (const [body, reason] of [
      [{ licenceKey: '   ' }, 'required'],
      [{ licenceKey: 'a'.repeat(4097) }, 'tooLong'],
      [{ licenceKey: testLicenceKey(), seats: 500 }, 'unknownField'],
    ] as const) {
      const refused = await admin(api.licence.register, body);
      expect(refused.body.status).toBe(ERR.validation);
      expect(JSON.stringify(refused.body.data)).toContain(reason);
    }
    expect(await licenceRows()).toEqual([]);
  });
});

describe('sign-in under the licence', () => {
  it('lets members in under a valid licence, and refuses the next member once seats are exceeded by one', async () => {
    const researcher = await server.createUser();
    await register(testLicenceKey({ seats: await activeUserCount(server.database.db) }));
    expect(await signInStatus(researcher)).toBe('0000');
    const oneTooMany = await server.createUser();
    expect(await signInStatus(oneTooMany)).toBe(ERR.licence);
    expect(await signInStatus(researcher)).toBe(ERR.licence);
    await expect(server.signIn(server.admin.userId, server.admin.password)).resolves.toMatchObject({ user: { level: 10 } });
    const info = await (await server.as(server.admin))(api.licence.info);
    expect(info.body.data.licence?.status).toBe('seatsExceeded');
    await server.database.db.update(users).set({ active: false }).where(eq(users.userNo, oneTooMany.userNo));
    expect(await signInStatus(researcher)).toBe('0000');
  });

  it('refuses members once the licence expires, audits why, and still lets administrators in', async () => {
    const researcher = await server.createUser();
    const expires = Date.now() + 5000;
    await register(testLicenceKey({ expires: new Date(expires).toISOString() }));
    expect(await signInStatus(researcher)).toBe('0000');
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, expires - Date.now()) + 50));
    expect(await signInStatus(researcher)).toBe(ERR.licence);
    const [record] = await server.database.db.select().from(auditLog).orderBy(desc(auditLog.seq)).limit(1);
    expect(record).toMatchObject({ action: 'user.signInRefused', reason: 'licence expired' });
    await expect(server.signIn(server.admin.userId, server.admin.password)).resolves.toMatchObject({ user: { level: 10 } });
  });

  it('treats a licence edited in the database (more seats, later expiry) as not genuine', async () => {
    const researcher = await server.createUser();
    await register(testLicenceKey({ seats: 1 }));
    expect(await signInStatus(researcher)).toBe(ERR.licence);
    await server.database.db.update(licences).set({ seats: 10_000 });
    expect(await signInStatus(researcher)).toBe(ERR.licence);
    const info = await (await server.as(server.admin))(api.licence.info);
    expect(info.body.data.licence).toMatchObject({ status: 'notGenuine', seats: 10_000 });
    await server.database.db.update(licences).set({ seats: 1, expiresAt: new Date('2100-01-01T00:00:00Z') });
    expect(await signInStatus(researcher)).toBe(ERR.licence);
  });

  it('detects a clock set back behind the last time the server saw', async () => {
    const researcher = await server.createUser();
    await register(testLicenceKey());
    expect(await signInStatus(researcher)).toBe('0000');
    // As if the server had run a day ahead and the clock were then turned back.
    await server.database.db.update(licences).set({ lastSeenAt: sql`now() + interval '1 day'` });
    expect(await signInStatus(researcher)).toBe(ERR.licence);
    const info = await (await server.as(server.admin))(api.licence.info);
    expect(info.body.data.licence?.status).toBe('clockSetBack');
    // Within the tolerance (an NTP step) members still get in.
    await server.database.db.update(licences).set({ lastSeenAt: sql`now() + interval '10 minutes'` });
    expect(await signInStatus(researcher)).toBe('0000');
  });

  it('keeps a single licence: the database refuses a second row', async () => {
    await register(testLicenceKey());
    const [row] = await licenceRows();
    const error = await server.database.db
      .insert(licences)
      .values({ ...row!, singleton: false })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(String((error as { cause?: Error })?.cause?.message)).toMatch(/licences_only_one/);
  });
});

describe(api.licence.info.path, () => {
  it('answers no licence, then the registered one; administrators only', async () => {
    const admin = await server.as(server.admin);
    expect((await admin(api.licence.info)).body.data.licence).toBeNull();
    await register(testLicenceKey({ company: '연구소 株式会社', expires: '2099-12-31T00:00:00.000Z' }));
    const answer = (await admin(api.licence.info)).body.data;
    expect(answer.licence).toMatchObject({ companyName: '연구소 株式会社', expiresAt: '2099-12-31T00:00:00.000Z', status: 'valid' });
    const member = await server.as(await server.createUser());
    expect((await member(api.licence.info)).http).toBe(403);
  });
});
