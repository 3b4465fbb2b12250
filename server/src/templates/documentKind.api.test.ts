import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray, sql } from 'drizzle-orm';
import { api, TEMPLATE_STATE } from '@eln/shared';
import { templates } from '../db/schema.js';
import { startTestServer, type TestServer } from '../testing/harness.js';
import { templateDocumentKind } from './documentKind.js';

/** The live template kind's write check, asked for many templates at once (one group commit). */

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startTestServer();
  const manager = await server.createUser({ name: 'Manager Moon', auth: { project: 'Y', schema: 'N', dropbox: 'N', template: 'Y' } });
  token = (await server.signIn(manager.userId, manager.password)).accessToken;
});
afterAll(async () => {
  await server?.stop();
});

async function createTemplate(title: string): Promise<number> {
  const { body } = await server.call(api.templates.create, { title, description: '' }, { token });
  if (!body.data) throw new Error(`template not created: ${body.status} ${body.message}`);
  return body.data.templateNo;
}

describe('the live template kind, asked for a group of templates', () => {
  it('answers each template in the order asked: drafts only, and locks every asked row', async () => {
    const [draft, checking, approved, deleted] = await Promise.all(
      ['Draft', 'Checked in', 'Approved', 'Deleted'].map((title) => createTemplate(`${title} template`)),
    );
    const { db } = server.database;
    await db.update(templates).set({ state: TEMPLATE_STATE.checking }).where(eq(templates.templateNo, checking!));
    await db.update(templates).set({ state: TEMPLATE_STATE.approved }).where(eq(templates.templateNo, approved!));
    await db.update(templates).set({ deletedAt: new Date() }).where(eq(templates.templateNo, deleted!));
    const kind = templateDocumentKind(db);
    const asked = [draft!, checking!, approved!, deleted!];
    const { answers, lockedBy, me } = await db.transaction(async (tx) => {
      const answers = await kind.writable!([...asked.map(String), '99999999', `0${draft}`, 'x', String(draft)], tx);
      // A row locked `share` by one transaction alone carries its id as xmax: the asked templates are locked by this one.
      const rows = await tx
        .select({ templateNo: templates.templateNo, xmax: sql<string>`xmax::text`, me: sql<string>`pg_current_xact_id()::text` })
        .from(templates)
        .where(inArray(templates.templateNo, asked));
      return { answers, lockedBy: new Map(rows.map((row) => [row.templateNo, row.xmax])), me: rows[0]?.me };
    });
    expect(answers).toEqual([true, false, false, false, false, false, false, true]);
    for (const templateNo of asked) expect(lockedBy.get(templateNo)).toBe(me);
    // Names that cannot name a template are answered no.
    expect(await db.transaction((tx) => kind.writable!(['01', 'x'], tx))).toEqual([false, false]);
  });
});
