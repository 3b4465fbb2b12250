import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { departments, projects, users } from '../db/schema.js';
import { verifyAuditChain } from '../audit/audit.js';
import { startTestServer, type TestServer } from '../testing/harness.js';
import { DEMO_DEPARTMENTS, DEMO_PASSWORD, DEMO_PROJECTS, DEMO_USERS, seedDemo } from './demoData.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

describe('seed:demo', () => {
  it('builds the demo company through the API, and adds nothing the second time', async () => {
    const added = await seedDemo(server, server.database.db);
    expect(added).toBe(DEMO_DEPARTMENTS.length + DEMO_USERS.length + DEMO_PROJECTS.length);
    expect(await seedDemo(server, server.database.db)).toBe(0);

    const db = server.database.db;
    expect((await db.select().from(departments)).length).toBe(DEMO_DEPARTMENTS.length);
    expect((await db.select().from(users)).length).toBe(DEMO_USERS.length + 1);
    const all = await db.select().from(projects);
    expect(all.map((p) => p.status).sort()).toEqual(['C', 'C', 'ING', 'ING', 'ING', 'ING']);
    expect(await verifyAuditChain(db)).toMatchObject({ ok: true });

    const member = await server.signIn(DEMO_USERS[1]!.userId, DEMO_PASSWORD);
    expect(member.user.name).toBe(DEMO_USERS[1]!.name);
    const [leader] = await db.select().from(users).where(eq(users.userId, DEMO_PROJECTS[0]!.leader));
    expect(leader?.authProject).toBe(true);
  });
});
