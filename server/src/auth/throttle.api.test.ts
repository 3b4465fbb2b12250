import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import { api, ERR } from '@eln/shared';
import { auditLog, signInThrottle } from '../db/schema.js';
import { startTestServer, type TestServer } from '../testing/harness.js';
import { throttleKeys } from './throttle.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ throttle: { accountLockAfter: 5, addressLockAfter: 8 } });
});
afterAll(async () => {
  await server?.stop();
});

const attempt = (userId: string, password: string, remoteAddress = '203.0.113.1') =>
  server.call<{ retryAfter?: number }>(api.auth.signIn.path, { userId, password }, { remoteAddress });

describe('repeated failed sign-ins', () => {
  it('lock the account after the threshold; even the right password is refused while locked', async () => {
    const researcher = await server.createUser();
    for (let i = 1; i < 5; i += 1) expect((await attempt(researcher.userId, `wrong-${i}`)).body.status).toBe(ERR.badCredentials);
    const locking = await attempt(researcher.userId, 'wrong-5');
    expect(locking.http).toBe(429);
    expect(locking.body.status).toBe(ERR.tooManyAttempts);
    expect(locking.body.data.retryAfter).toBe(900);
    expect(locking.headers['retry-after']).toBe('900');
    expect(locking.body.message).toBe('Too many failed attempts. Try again in 15 minutes.');

    const right = await attempt(researcher.userId, researcher.password);
    expect(right.http).toBe(429);
    const [audit] = await server.database.db.select().from(auditLog).orderBy(desc(auditLog.seq)).limit(1);
    expect(audit).toMatchObject({ action: 'user.signInRefused', reason: 'locked' });
  });

  it('audit a lock once, count the attempts it refuses, and report the count with the next sign-in', async () => {
    const researcher = await server.createUser();
    const from = '203.0.113.9';
    for (let i = 0; i < 5; i += 1) await attempt(researcher.userId, `wrong-${i}`, from);
    const auditRows = async () => (await server.database.db.select().from(auditLog)).length;
    const atLock = await auditRows();
    const lockRecords = await server.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.targetId, researcher.userId))
      .orderBy(desc(auditLog.seq))
      .limit(2);
    expect(lockRecords.map((r) => [r.action, r.reason])).toEqual([
      ['user.signInRefused', 'locked'],
      ['user.signInFailed', null],
    ]);

    // 50 refused attempts, wrong and right passwords, from the same and another address: nothing audited.
    for (let i = 0; i < 50; i += 1) {
      const refused = await attempt(researcher.userId, i % 2 ? researcher.password : 'wrong', i % 3 ? from : '203.0.113.10');
      expect(refused.http).toBe(429);
    }
    expect(await auditRows()).toBe(atLock);
    const [row] = await server.database.db
      .select()
      .from(signInThrottle)
      .where(eq(signInThrottle.key, throttleKeys.account(researcher.userId)));
    expect(row?.refusedWhileLocked).toBe(50);

    await server.database.db
      .update(signInThrottle)
      .set({ lockedUntil: new Date(Date.now() - 1000) })
      .where(eq(signInThrottle.key, throttleKeys.account(researcher.userId)));
    expect((await attempt(researcher.userId, researcher.password, from)).body.status).toBe('0000');
    const [signIn] = await server.database.db.select().from(auditLog).orderBy(desc(auditLog.seq)).limit(1);
    expect(signIn).toMatchObject({ action: 'user.signIn', after: { refusedWhileLocked: 50 } });
  });

  it('lock an unknown account exactly like a real one, so the answers reveal nothing', async () => {
    const answers: string[] = [];
    for (let i = 0; i < 6; i += 1) answers.push((await attempt('ghost.account@lab.test', 'guess', '203.0.113.2')).body.status);
    const researcher = await server.createUser();
    const real: string[] = [];
    for (let i = 0; i < 6; i += 1) real.push((await attempt(researcher.userId, 'guess', '203.0.113.3')).body.status);
    expect(answers).toEqual(real);
    expect(answers.slice(-2)).toEqual([ERR.tooManyAttempts, ERR.tooManyAttempts]);
  });

  it('unlock when the lock time has passed, and a success clears the count', async () => {
    const researcher = await server.createUser();
    for (let i = 0; i < 5; i += 1) await attempt(researcher.userId, 'wrong', '203.0.113.4');
    expect((await attempt(researcher.userId, researcher.password, '203.0.113.4')).http).toBe(429);
    await server.database.db
      .update(signInThrottle)
      .set({ lockedUntil: new Date(Date.now() - 1000) })
      .where(eq(signInThrottle.key, throttleKeys.account(researcher.userId)));
    expect((await attempt(researcher.userId, researcher.password, '203.0.113.4')).body.status).toBe('0000');
    const [row] = await server.database.db
      .select()
      .from(signInThrottle)
      .where(eq(signInThrottle.key, throttleKeys.account(researcher.userId)));
    expect(row).toBeUndefined();
  });

  it('lock a client address that guesses across many accounts, but not other addresses', async () => {
    const victim = await server.createUser();
    for (let i = 0; i < 8; i += 1) await attempt(`spray${i}@lab.test`, 'Password1!', '198.51.100.7');
    const fromAttacker = await attempt(victim.userId, victim.password, '198.51.100.7');
    expect(fromAttacker.http).toBe(429);
    const fromElsewhere = await attempt(victim.userId, victim.password, '198.51.100.8');
    expect(fromElsewhere.body.status).toBe('0000');
  });

  it('limit find-ID guessing per address', async () => {
    const statuses: string[] = [];
    for (let i = 0; i < 10; i += 1) {
      const result = await server.call(api.auth.findId, { name: `Name ${i}`, phone: '010-0000-0000' }, { remoteAddress: '192.0.2.50' });
      statuses.push(result.body.status);
    }
    expect(statuses.slice(0, 7).every((s) => s === ERR.noMatchingAccount)).toBe(true);
    expect(statuses.at(-1)).toBe(ERR.tooManyAttempts);
  });
});
