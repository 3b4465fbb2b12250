import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { api, noteDocumentName } from '@eln/shared';
import { documentUpdates, searchQueue, searchUnits } from '../db/schema.js';
import { initialUpdate } from '../seed/demoTemplates.js';
import { createTestDatabase, startTestServer } from '../testing/harness.js';
import { eventually } from '../testing/live.js';
import { rebuildSearchIndex } from './rebuild.js';

const silent = { warn: () => undefined, error: () => undefined };

describe('npm run search:rebuild', () => {
  it('rebuilds a lost index from the notes and records, removes rows of records gone, and prints progress', async () => {
    const { database, dispose } = await createTestDatabase();
    try {
      const server = await startTestServer({ database });
      let noteNo: number;
      let dropboxNo: number;
      try {
        const writer = await server.createUser({ name: 'Writer', auth: { project: 'Y', schema: 'N', dropbox: 'Y', template: 'N' } });
        const caller = await server.as(writer);
        const project = await caller(api.projects.create, {
          title: 'Rebuilt project',
          description: '',
          signatureList: { department: '', user: writer.userId },
        });
        noteNo = (await caller(api.notes.create, { projectNo: project.body.data.projectNo, title: 'Rebuilt note' })).body.data.labNoteNo;
        const content = {
          type: 'doc',
          content: [{ type: 'paragraph', attrs: { blockUid: 'prebuild00000001' }, content: [{ type: 'text', text: 'Xanthene dye' }] }],
        };
        await database.db.insert(documentUpdates).values({ documentName: noteDocumentName(noteNo), update: initialUpdate(content) });
        const dropbox = await caller(api.dropboxes.create, {
          title: 'Rebuilt units',
          status: 'Y',
          rows: [{ code: 'mg', name: 'Milligram' }],
        });
        dropboxNo = dropbox.body.data.dropboxNo;
        await eventually(async () => (await database.db.select().from(searchQueue)).length === 0, 'the first indexing');
      } finally {
        await server.stop();
      }
      const units = async () =>
        (await database.db.select().from(searchUnits)).map((row) => `${row.kind}:${row.recordNo}:${row.blockUid}`).sort();
      const before = await units();
      expect(before).toEqual(
        expect.arrayContaining([`note:${noteNo}:`, `note:${noteNo}:prebuild00000001`, `dropbox:${dropboxNo}:mg`, `dropbox:${dropboxNo}:`]),
      );
      // The index lost (a restore without it) and a row of a record that is no more, with no server running.
      await database.db.delete(searchUnits);
      await database.db.insert(searchUnits).values({
        kind: 'template',
        recordNo: 999_999,
        blockUid: '',
        projectNo: null,
        blockOrder: 0,
        text: 'Orphan',
        vector: "'orphan':1A",
      });
      const lines: string[] = [];
      const failed = await rebuildSearchIndex(database.db, (line) => lines.push(line), silent);
      expect(failed).toEqual([]);
      expect(await units()).toEqual(before);
      expect(await database.db.select().from(searchQueue)).toEqual([]);
      expect(lines[0]).toMatch(/^search:rebuild: \d+ notes and records queued$/);
      const total = Number(/(\d+) notes/.exec(lines[0]!)![1]);
      expect(total).toBeGreaterThanOrEqual(4);
      expect(lines).toContain(`search:rebuild: ${total} of ${total} indexed (100 %)`);
      expect(lines.at(-1)).toBe('search:rebuild: done');
      const orphan = await database.db
        .select()
        .from(searchUnits)
        .where(and(eq(searchUnits.kind, 'template'), eq(searchUnits.recordNo, 999_999)));
      expect(orphan).toEqual([]);
    } finally {
      await dispose();
    }
  });
});
