import { afterEach, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { api } from '@eln/shared';
import { auditLog } from '../db/schema.js';
import { loadConfig, parseTrustProxy } from '../config.js';
import { startTestServer, type TestServer } from '../testing/harness.js';

/** The address a client claims for itself, in front of what the proxy appended to X-Forwarded-For. */
const FORGED = '203.0.113.66';
const APPENDED_BY_PROXY = '198.51.100.7';
const FORWARDED = `${FORGED}, ${APPENDED_BY_PROXY}`;

let server: TestServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

async function auditedAddressOf(userId: string): Promise<string | null> {
  const [record] = await server!.database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, 'user.signInFailed'), eq(auditLog.targetId, userId)))
    .orderBy(desc(auditLog.seq))
    .limit(1);
  return record?.clientAddress ?? null;
}

/** A failed sign-in over real HTTP from loopback (the "proxy") with a forged X-Forwarded-For. */
async function auditedAddressThroughLoopback(trustProxy: boolean | string): Promise<string | null> {
  server = await startTestServer({ config: { trustProxy } });
  const base = await server.listen();
  const userId = `spoof.${String(trustProxy).replace(/\W/g, '')}@lab.test`;
  const response = await fetch(`${base}/server${api.auth.signIn.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': FORWARDED },
    body: JSON.stringify({ userId, password: 'wrong-password-1' }),
  });
  expect(response.status).toBe(422);
  return auditedAddressOf(userId);
}

describe('TRUST_PROXY', () => {
  it("set to the proxy's address records the address the proxy saw, not the one the client forged", async () => {
    expect(await auditedAddressThroughLoopback('127.0.0.1')).toBe(APPENDED_BY_PROXY);
  });

  it('believes no X-Forwarded-For from a client that is not the proxy', async () => {
    server = await startTestServer({ config: { trustProxy: '127.0.0.1' } });
    const userId = 'direct.client@lab.test';
    const result = await server.call(
      api.auth.signIn,
      { userId, password: 'wrong-password-1' },
      { remoteAddress: '192.0.2.9', headers: { 'x-forwarded-for': FORWARDED } },
    );
    expect(result.http).toBe(422);
    expect(await auditedAddressOf(userId)).toBe('192.0.2.9');
  });

  it('unset ignores X-Forwarded-For altogether', async () => {
    expect(await auditedAddressThroughLoopback(false)).toBe('127.0.0.1');
  });

  it('as `true` trusts every hop, so the forged address wins (why the README discourages it)', async () => {
    expect(await auditedAddressThroughLoopback(true)).toBe(FORGED);
  });

  it('reads addresses as text and true/false as such, and refuses a hop count (Fastify would trust nothing)', () => {
    expect(parseTrustProxy('172.30.0.10')).toBe('172.30.0.10');
    expect(parseTrustProxy('10.0.0.0/8, 127.0.0.1')).toBe('10.0.0.0/8, 127.0.0.1');
    expect(parseTrustProxy('true')).toBe(true);
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(() => loadConfig({ TRUST_PROXY: '1' })).toThrow(/hop count/);
    expect(loadConfig({ TRUST_PROXY: '172.30.0.10' }).trustProxy).toBe('172.30.0.10');
  });
});
