import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LicenceInfoAnswer } from '@eln/shared';
import { licences } from '../db/schema.js';
import { startTestServer, type TestServer } from '../testing/harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

describe('/v1/licence/info', () => {
  it('answers no licence, then the registered one with the active user count; administrators only', async () => {
    const admin = await server.as(server.admin);
    expect((await admin<LicenceInfoAnswer>('/v1/licence/info')).body.data).toEqual({ licence: null, activeUsers: 1 });
    const expiresAt = new Date('2027-12-31T00:00:00.000Z');
    await server.database.db.insert(licences).values({ companyName: 'Lab Co', serialNumber: 'ELN-0001', seats: 50, expiresAt });
    await server.createUser();
    const answer = (await admin<LicenceInfoAnswer>('/v1/licence/info')).body.data;
    expect(answer).toMatchObject({ activeUsers: 2, licence: { companyName: 'Lab Co', serialNumber: 'ELN-0001', seats: 50, expiresAt: expiresAt.toISOString() } });
    const member = await server.as(await server.createUser());
    expect((await member('/v1/licence/info')).http).toBe(403);
  });

  it('keeps a single licence: the database refuses a second one', async () => {
    const error = await server.database.db
      .insert(licences)
      .values({ singleton: false, companyName: 'Other', serialNumber: 'X', seats: 1, expiresAt: new Date() })
      .then(() => null, (e: unknown) => e);
    expect(String((error as { cause?: Error })?.cause?.message)).toMatch(/licences_only_one/);
  });
});
