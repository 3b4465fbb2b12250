import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq, isNotNull } from 'drizzle-orm';
import * as Y from 'yjs';
import { noteDocumentName, type BlockTable, type PmNode } from '@eln/shared';
import {
  departments,
  dropboxes,
  files,
  labNotes,
  noteSignatures,
  noteVersions,
  projects,
  schemas,
  schemaTypes,
  templates,
  users,
} from '../db/schema.js';
import { DEMO_NOTES } from './demoNotes.js';
import { DatabaseDocumentStore } from '../collab/persistence/documentStore.js';
import { paragraphTexts } from '../testing/live.js';
import { verifyAuditChain } from '../audit/audit.js';
import { startTestServer, type TestServer } from '../testing/harness.js';
import { DEMO_DEPARTMENTS, DEMO_PASSWORD, DEMO_PROJECTS, DEMO_USERS, seedDemo } from './demoData.js';
import { DEMO_TEMPLATES } from './demoTemplates.js';
import { DEMO_DROPBOXES, DEMO_SCHEMAS } from './demoLibraries.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

async function loadedDoc(documentName: string): Promise<Y.Doc> {
  const doc = new Y.Doc();
  const state = await new DatabaseDocumentStore(server.database).load(documentName);
  if (state) Y.applyUpdate(doc, state);
  return doc;
}

describe('seed:demo', () => {
  it('builds the demo company through the API, and adds nothing the second time', async () => {
    // What a newcomer reads when seeding: nothing worth a warning (the block lists it sends match the server's).
    const warn = vi.spyOn(server.services.log, 'warn');
    const error = vi.spyOn(server.services.log, 'error');
    let added: number;
    try {
      added = await seedDemo(server, server.database.db);
      expect(warn.mock.calls.map(([fields, message]) => String(message ?? JSON.stringify(fields)))).toEqual([]);
      expect(error).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
      error.mockRestore();
    }
    const demoNotes = DEMO_TEMPLATES.flatMap((t) => t.notes).length;
    expect(added).toBe(
      DEMO_DEPARTMENTS.length +
        DEMO_USERS.length +
        DEMO_PROJECTS.length +
        DEMO_SCHEMAS.length +
        DEMO_DROPBOXES.length +
        DEMO_TEMPLATES.length +
        demoNotes +
        DEMO_NOTES.length,
    );
    expect(await seedDemo(server, server.database.db)).toBe(0);

    const db = server.database.db;
    expect((await db.select().from(departments)).length).toBe(DEMO_DEPARTMENTS.length);
    expect((await db.select().from(users)).length).toBe(DEMO_USERS.length + 1);
    const all = await db.select().from(projects);
    expect(all.map((p) => p.status).sort()).toEqual(['C', 'C', 'ING', 'ING', 'ING', 'ING']);
    expect(await verifyAuditChain(db)).toMatchObject({ ok: true });

    // Templates approved by someone other than their author, and notes started from them with their content.
    const library = await db.select().from(templates);
    expect(library.map((t) => [t.title, t.state]).sort()).toEqual(DEMO_TEMPLATES.map((t) => [t.title, 'A']).sort());
    const fromTemplates = await db.select().from(labNotes).where(isNotNull(labNotes.templateNo));
    expect(fromTemplates).toHaveLength(demoNotes);
    const texts = paragraphTexts(await loadedDoc(noteDocumentName(fromTemplates[0]!.noteNo)));
    expect(texts.length).toBeGreaterThan(2);

    // Notes in each working state, one signed after a declined first request, with its history kept.
    const byTitle = async (title: string) => (await db.select().from(labNotes).where(eq(labNotes.title, title)))[0];
    expect(await byTitle('Ligand screen round 1')).toMatchObject({ status: 'R', version: 1 });
    expect(await byTitle('Linearity')).toMatchObject({ status: 'T', version: 1 });
    expect(await byTitle('Week 2 observations')).toMatchObject({ status: 'W', version: 0 });
    const linearity = await byTitle('Linearity');
    const history = await db.select().from(noteSignatures).where(eq(noteSignatures.noteNo, linearity!.noteNo));
    expect(history.map((s) => s.status).sort()).toEqual(['F', 'T']);

    // A signed note with a photographed gel, its image a stored PNG of the note's own.
    const genotyping = await byTitle('Clone genotyping PCR');
    expect(genotyping).toMatchObject({ status: 'T', version: 1 });
    const [gel] = await db.select().from(files).where(eq(files.noteNo, genotyping!.noteNo));
    expect(gel).toMatchObject({ kind: 'image', extension: 'png' });
    const [saved] = await db.select().from(noteVersions).where(eq(noteVersions.noteNo, genotyping!.noteNo));
    expect(JSON.stringify(saved?.blocks)).toContain(gel!.fileId);
    // A note of a project its leader closed once a reviewer signed it: finished.
    expect(await byTitle('MTT assay, plate 1')).toMatchObject({ status: 'F', version: 1 });
    const closed = all.find((p) => p.title === 'Cell viability assays');
    expect(closed?.status).toBe('C');

    // The catalogues (schema types with their schemas) and code lists a new user finds.
    expect((await db.select().from(schemaTypes)).map((t) => t.code).sort()).toEqual(DEMO_SCHEMAS.map((s) => s.type.code).sort());
    expect(await db.select().from(schemas)).toHaveLength(DEMO_SCHEMAS.reduce((n, s) => n + (s.type.schemas?.length ?? 0), 0));
    // Each catalogue shows a picture, with the server's small copy beside it.
    expect((await db.select().from(schemaTypes)).map((t) => [t.thumbnailFileId !== null, t.thumbnailSmallFileId !== null])).toEqual(
      DEMO_SCHEMAS.map(() => [true, true]),
    );
    expect((await db.select().from(dropboxes)).map((d) => d.title).sort()).toEqual(DEMO_DROPBOXES.map((d) => d.dropbox.title).sort());
    // Used in a saved note: a schema block copied from the reagent catalogue, and dropbox cells with their rows.
    const ligands = await byTitle('Ligand screen round 1');
    const [ligandVersion] = await db.select().from(noteVersions).where(eq(noteVersions.noteNo, ligands!.noteNo));
    const blocks = ligandVersion!.blocks as Array<{ type: string; content: string; blockTable: BlockTable | null }>;
    const schemaBlock = JSON.parse(blocks.find((b) => b.type === 'schema')!.content) as PmNode;
    expect(schemaBlock.attrs).toMatchObject({ typeTitle: 'Reagents 시약', title: 'Palladium(II) acetate', revision: 1 });
    expect(schemaBlock.attrs?.entries).toContainEqual({ field: 'CAS', value: '3375-31-3' });
    const cells = blocks.flatMap((b) => b.blockTable?.body.flat() ?? []);
    const [units] = await db.select().from(dropboxes).where(eq(dropboxes.title, 'Units'));
    expect(cells.map((c) => c.dropbox).filter(Boolean)).toContainEqual(
      expect.objectContaining({ dropboxNo: units!.dropboxNo, title: 'Units', code: 'mg', name: 'milligram' }),
    );

    const member = await server.signIn(DEMO_USERS[1]!.userId, DEMO_PASSWORD);
    expect(member.user.name).toBe(DEMO_USERS[1]!.name);
    const [leader] = await db.select().from(users).where(eq(users.userId, DEMO_PROJECTS[0]!.leader));
    expect(leader?.authProject).toBe(true);
  });
});
