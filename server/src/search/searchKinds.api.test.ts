import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_LEVEL, api, templateDocumentName, type SearchHit, type SearchKind } from '@eln/shared';
import { dropboxes, projects, schemaTypes, searchQueue, searchUnits } from '../db/schema.js';
import { startTestServer, type Caller, type TestServer } from '../testing/harness.js';
import { appendParagraph, connectWriter, eventually } from '../testing/live.js';

/**
 * Search beyond notes: projects, templates, schemas and dropboxes, each found by its fields, read by its own
 * policy (members and administrators; managers for what is unused or not yet approved), kept up to date
 * by the commands that change them and gone when they are deleted.
 */

const NO_FLAGS = { project: 'N', schema: 'N', dropbox: 'N', template: 'N' } as const;

let server: TestServer;
let url: string;
let leader: Caller;
let member: Caller;
let outsider: Caller;
let reader: Caller;
let author: Caller;
let approver: Caller;
let curator: Caller;
let admin: Caller;
let authorToken: string;
let approverPassword: string;
let leaderId: string;
let memberId: string;
let projectNo: number;

async function hits(who: Caller, q: string, extra: Record<string, unknown> = {}): Promise<SearchHit[]> {
  const result = await who(api.search.search, { q, page: 1, pageSize: 50, ...extra });
  expect(result.body.status, JSON.stringify(result.body)).toBe('0000');
  return result.body.data.list;
}

/** The hits of one kind and record, as `uid` ('' for the record's own title unit). */
async function found(who: Caller, q: string, kind: SearchKind, no: number): Promise<string[]> {
  return (await hits(who, q)).filter((h) => h.kind === kind && h.no === no).map((h) => h.uid ?? '');
}

/** Waits until the index answers `q` with exactly these units of the record, for `who`. */
async function indexed(who: Caller, q: string, kind: SearchKind, no: number, uids: string[]): Promise<void> {
  await eventually(
    async () => JSON.stringify((await found(who, q, kind, no)).sort()) === JSON.stringify([...uids].sort()),
    `${kind} ${no}: ${q}`,
  );
}

const rowsOf = async (kind: SearchKind, no: number) =>
  server.database.db
    .select()
    .from(searchUnits)
    .where(and(eq(searchUnits.kind, kind as 'note'), eq(searchUnits.recordNo, no)));

const queued = async (name: string) =>
  (await server.database.db.select().from(searchQueue).where(eq(searchQueue.documentName, name))).length > 0;

beforeAll(async () => {
  server = await startTestServer();
  url = await server.listen();
  const leaderUser = await server.createUser({ name: 'Leader' });
  const memberUser = await server.createUser({ name: 'Member' });
  const templateFlags = { ...NO_FLAGS, template: 'Y' } as const;
  const authorUser = await server.createUser({ name: 'Author', auth: templateFlags });
  const approverUser = await server.createUser({ name: 'Approver', auth: templateFlags });
  leaderId = leaderUser.userId;
  memberId = memberUser.userId;
  approverPassword = approverUser.password;
  authorToken = (await server.signIn(authorUser.userId, authorUser.password)).accessToken;
  leader = await server.as(leaderUser);
  member = await server.as(memberUser);
  outsider = await server.as(await server.createUser({ name: 'Outsider' }));
  reader = await server.as(await server.createUser({ name: 'Reader', auth: NO_FLAGS }));
  author = await server.as(authorUser);
  approver = await server.as(approverUser);
  curator = await server.as(await server.createUser({ name: 'Curator', auth: { ...NO_FLAGS, schema: 'Y', dropbox: 'Y' } }));
  admin = await server.as(await server.createUser({ name: 'Admin', level: ADMIN_LEVEL, auth: NO_FLAGS }));
  const created = await leader(api.projects.create, {
    title: 'Chromatography 연구',
    description: 'Column packing with 緩衝液 at 10 mM',
    signatureList: { department: '', user: [leaderId, memberId].join(',') },
  });
  expect(created.body.status).toBe('0000');
  projectNo = created.body.data.projectNo;
});

afterAll(() => server?.stop());

describe('search finds projects', () => {
  it('by title and description, for its members and administrators only', async () => {
    await indexed(leader, 'chromatography', 'project', projectNo, ['']);
    for (const q of ['연구', '緩衝', '"10 mM"', 'packing']) expect(await found(leader, q, 'project', projectNo), q).toEqual(['']);
    const [hit] = (await hits(member, 'packing')).filter((h) => h.kind === 'project');
    expect(hit).toMatchObject({
      kind: 'project',
      no: projectNo,
      projectNo,
      projectTitle: 'Chromatography 연구',
      labNoteNo: null,
      uid: null,
    });
    expect(hit!.snippet.marks.length).toBeGreaterThan(0);
    expect(await found(admin, 'packing', 'project', projectNo)).toEqual(['']);
    expect(await found(outsider, 'packing', 'project', projectNo)).toEqual([]);
    expect(await found(reader, 'packing', 'project', projectNo)).toEqual([]);
  });

  it('as the project changes, and keeps it only by the kinds and filters asked for', async () => {
    const changed = await leader(api.projects.update, {
      projectNo,
      description: 'Gel filtration run',
      signatureList: { department: '', user: [leaderId, memberId].join(',') },
    });
    expect(changed.body.status).toBe('0000');
    await indexed(leader, 'filtration', 'project', projectNo, ['']);
    expect(await found(leader, 'packing', 'project', projectNo)).toEqual([]);
    expect((await hits(leader, 'filtration', { kinds: ['project'] })).map((h) => h.kind)).toEqual(['project']);
    expect(await hits(leader, 'filtration', { kinds: ['note', 'template'] })).toEqual([]);
    expect((await hits(leader, 'filtration', { projectNo })).map((h) => h.no)).toEqual([projectNo]);
    expect(await hits(leader, 'filtration', { projectNo: projectNo + 1000 })).toEqual([]);
    expect(await hits(leader, 'filtration', { status: 'W' })).toEqual([]);
  });

  it('marks a completed project as finished', async () => {
    // Closing a project has its own tests (reviewer signatures); here only what search makes of its status.
    const setStatus = (status: 'ING' | 'C') => server.database.db.update(projects).set({ status }).where(eq(projects.projectNo, projectNo));
    try {
      await setStatus('C');
      expect((await hits(leader, 'filtration', { kinds: ['project'] }))[0]).toMatchObject({ no: projectNo, finished: true, signed: false });
    } finally {
      await setStatus('ING');
    }
    expect((await hits(leader, 'filtration', { kinds: ['project'] }))[0]).toMatchObject({ no: projectNo, finished: false });
  });

  it('not for a member removed from it', async () => {
    expect(await found(member, 'filtration', 'project', projectNo)).toEqual(['']);
    const removed = await leader(api.projects.update, { projectNo, signatureList: { department: '', user: leaderId } });
    expect(removed.body.status).toBe('0000');
    expect(await found(member, 'filtration', 'project', projectNo)).toEqual([]);
    expect(await found(leader, 'filtration', 'project', projectNo)).toEqual(['']);
  });
});

describe('search finds templates', () => {
  let templateNo: number;
  let blockUid: string;

  it('a draft, by title, description and blocks, for those who manage templates only', async () => {
    const created = await author(api.templates.create, { title: 'Westernblot protocol', description: 'Transfer at 4 °C overnight' });
    expect(created.body.status).toBe('0000');
    templateNo = created.body.data.templateNo;
    const client = await connectWriter(url, templateDocumentName(templateNo), authorToken);
    try {
      blockUid = appendParagraph(client.doc, 'Block with 5 % 탈지분유 for an hour');
      await eventually(() => client.allDurable(), 'the draft to be stored');
    } finally {
      client.destroy();
    }
    await indexed(author, '탈지', 'template', templateNo, [blockUid]);
    expect(await found(author, 'westernblot', 'template', templateNo)).toEqual(['']);
    expect(await found(author, 'overnight', 'template', templateNo)).toEqual(['']);
    expect(await found(approver, '탈지분유', 'template', templateNo)).toEqual([blockUid]);
    expect(await found(admin, 'westernblot', 'template', templateNo)).toEqual(['']);
    expect(await found(reader, 'westernblot', 'template', templateNo)).toEqual([]);
    expect(await found(reader, '탈지', 'template', templateNo)).toEqual([]);
    const [hit] = (await hits(author, 'westernblot')).filter((h) => h.kind === 'template');
    expect(hit).toMatchObject({ no: templateNo, title: 'Westernblot protocol', projectNo: null, labNoteNo: null, status: null });
  });

  it('an approved one for everyone, by its approved version; a new draft for those who manage templates only', async () => {
    expect((await author(api.templates.checkIn, { templateNo, version: 0, blockList: [] })).body.status).toBe('0000');
    const approved = await approver(api.templates.approve, { templateNo, version: '1.1', revision: 1, password: approverPassword });
    expect(approved.body.status).toBe('0000');
    await indexed(reader, '탈지', 'template', templateNo, [blockUid]);
    expect(await found(reader, 'westernblot', 'template', templateNo)).toEqual(['']);
    expect((await author(api.templates.reopen, { templateNo })).body.status).toBe('0000');
    const client = await connectWriter(url, templateDocumentName(templateNo), authorToken);
    let draftUid: string;
    try {
      draftUid = appendParagraph(client.doc, 'Unapproved stripping buffer');
      await eventually(() => client.allDurable(), 'the new draft to be stored');
    } finally {
      client.destroy();
    }
    // The draft's stored update queued the template: once indexed again, it still holds the approved version only.
    await eventually(async () => !(await queued(templateDocumentName(templateNo))), 'the template to be indexed again');
    expect(await found(reader, 'stripping', 'template', templateNo)).toEqual([]);
    expect(await found(reader, '탈지', 'template', templateNo)).toEqual([blockUid]);
    for (const manager of [author, approver, admin]) expect(await found(manager, 'stripping', 'template', templateNo)).toEqual([draftUid]);
    // A block the draft keeps as approved is found once, as approved.
    expect(await found(approver, '탈지', 'template', templateNo)).toEqual([blockUid]);
  });

  it('not once deleted, and its rows go', async () => {
    expect((await author(api.templates.delete, { templateNo })).body.status).toBe('0000');
    expect(await found(reader, 'westernblot', 'template', templateNo)).toEqual([]);
    expect(await found(admin, 'westernblot', 'template', templateNo)).toEqual([]);
    await eventually(async () => (await rowsOf('template', templateNo)).length === 0, 'the deleted template rows to go');
  });
});

describe('search finds schemas', () => {
  let schemasTypeNo: number;
  let saltNo: string;
  let secretNo: string;

  it('by code, title, and each schema by title, fields and values, unused ones for managers only', async () => {
    const created = await curator(api.schemas.create, {
      code: 'RGT-24',
      title: 'Reagent shelf',
      description: '',
      schemas: [
        {
          title: 'Sodium chloride',
          description: '',
          entries: [
            { field: 'CAS', value: '7647-14-5' },
            { field: '등급', value: '시약급' },
            { field: 'Supplier', value: 'Retiredvendor', status: 'N' },
          ],
        },
        { title: 'Secretreagent', description: '', status: 'N', entries: [] },
      ],
    });
    expect(created.body.status, JSON.stringify(created.body)).toBe('0000');
    schemasTypeNo = created.body.data.schemasTypeNo;
    const detail = (await curator(api.schemas.detail, { schemasTypeNo })).body.data;
    saltNo = String(detail.schemas.find((s: { title: string }) => s.title === 'Sodium chloride')!.schemaNo);
    secretNo = String(detail.schemas.find((s: { title: string }) => s.title === 'Secretreagent')!.schemaNo);
    await indexed(reader, 'sodium', 'schema', schemasTypeNo, [saltNo]);
    expect(await found(reader, 'RGT-24', 'schema', schemasTypeNo)).toEqual(['']);
    expect(await found(reader, 'reagent shelf', 'schema', schemasTypeNo)).toEqual(['']);
    expect(await found(reader, '7647-14-5', 'schema', schemasTypeNo)).toEqual([saltNo]);
    expect(await found(reader, 'cas', 'schema', schemasTypeNo)).toEqual([saltNo]);
    expect(await found(reader, '등급', 'schema', schemasTypeNo)).toEqual([saltNo]);
    expect(await found(reader, '시약', 'schema', schemasTypeNo)).toEqual([saltNo]);
    // An unused entry is copied into no note: it is not indexed, for anyone.
    expect(await found(curator, 'retiredvendor', 'schema', schemasTypeNo)).toEqual([]);
    expect(await found(reader, 'secretreagent', 'schema', schemasTypeNo)).toEqual([]);
    expect(await found(curator, 'secretreagent', 'schema', schemasTypeNo)).toEqual([secretNo]);
    expect(await found(admin, 'secretreagent', 'schema', schemasTypeNo)).toEqual([secretNo]);
    const [hit] = (await hits(reader, 'sodium')).filter((h) => h.kind === 'schema');
    expect(hit).toMatchObject({ no: schemasTypeNo, title: 'Reagent shelf', uid: saltNo, projectNo: null });
  });

  it('as the type changes: a removed schema goes, an unused type is for managers only', async () => {
    const detail = (await curator(api.schemas.detail, { schemasTypeNo })).body.data;
    const salt = detail.schemas.find((s: { title: string }) => s.title === 'Sodium chloride')!;
    const updated = await curator(api.schemas.update, {
      schemasTypeNo,
      revision: detail.revision,
      code: 'RGT-24',
      title: 'Reagent shelf',
      description: '',
      status: 'N',
      schemas: [{ schemaNo: salt.schemaNo, title: 'Sodium chloride', description: '', entries: [{ field: 'CAS', value: '7647-14-5' }] }],
    });
    expect(updated.body.status, JSON.stringify(updated.body)).toBe('0000');
    await eventually(
      async () => !(await rowsOf('schema', schemasTypeNo)).some((row) => row.blockUid === secretNo),
      'the removed schema to go',
    );
    expect(await found(curator, 'secretreagent', 'schema', schemasTypeNo)).toEqual([]);
    await indexed(curator, '등급', 'schema', schemasTypeNo, []);
    expect(await found(curator, 'sodium', 'schema', schemasTypeNo)).toEqual([saltNo]);
    expect(await found(reader, 'sodium', 'schema', schemasTypeNo)).toEqual([]);
    expect(await found(reader, 'RGT-24', 'schema', schemasTypeNo)).toEqual([]);
  });
});

describe('search finds dropboxes', () => {
  let dropboxNo: number;

  it('by title and each row by code and by name, for everyone while used', async () => {
    const created = await curator(api.dropboxes.create, {
      title: 'Lab units',
      status: 'Y',
      rows: [
        { code: 'mg', name: '밀리그램' },
        { code: 'LOT-24-117', name: 'Quinhydrone batch' },
      ],
    });
    expect(created.body.status, JSON.stringify(created.body)).toBe('0000');
    dropboxNo = created.body.data.dropboxNo;
    await indexed(reader, '24-117', 'dropbox', dropboxNo, ['LOT-24-117']);
    expect(await found(reader, 'quinhydrone', 'dropbox', dropboxNo)).toEqual(['LOT-24-117']);
    expect(await found(reader, '그램', 'dropbox', dropboxNo)).toEqual(['mg']);
    expect(await found(reader, 'mg', 'dropbox', dropboxNo)).toEqual(['mg']);
    expect(await found(reader, 'lab units', 'dropbox', dropboxNo)).toEqual(['']);
    const [hit] = (await hits(reader, 'quinhydrone')).filter((h) => h.kind === 'dropbox');
    expect(hit).toMatchObject({ no: dropboxNo, title: 'Lab units', uid: 'LOT-24-117', projectNo: null });
    expect((await hits(reader, 'quinhydrone', { kinds: ['dropbox'] })).length).toBe(1);
    expect(await hits(reader, 'quinhydrone', { kinds: ['schema'] })).toEqual([]);
  });

  it('rows replaced by an import go, and an unused dropbox is for managers only', async () => {
    const file = Buffer.from('code,name\nmL,Millilitre\n', 'utf8').toString('base64');
    const imported = await curator(api.dropboxes.importCsv, { dropboxNo, file });
    expect(imported.body.status, JSON.stringify(imported.body)).toBe('0000');
    await indexed(reader, 'millilitre', 'dropbox', dropboxNo, ['mL']);
    await indexed(reader, 'quinhydrone', 'dropbox', dropboxNo, []);
    expect((await rowsOf('dropbox', dropboxNo)).map((row) => row.blockUid).sort()).toEqual(['', 'mL']);
    const hidden = await curator(api.dropboxes.update, { dropboxNo, title: 'Lab units', status: 'N' });
    expect(hidden.body.status).toBe('0000');
    expect(await found(reader, 'millilitre', 'dropbox', dropboxNo)).toEqual([]);
    expect(await found(curator, 'millilitre', 'dropbox', dropboxNo)).toEqual(['mL']);
    expect(await found(admin, 'millilitre', 'dropbox', dropboxNo)).toEqual(['mL']);
  });

  it('a dropbox or schema type deleted goes with its rows, however it was deleted', async () => {
    // No call deletes them; a deletion in the database (an operator's) is queued by the tables' triggers all the same.
    const made = await curator(api.dropboxes.create, { title: 'Doomed units', status: 'Y', rows: [{ code: 'kg', name: 'Kilogramme' }] });
    const doomedNo = made.body.data.dropboxNo;
    await indexed(reader, 'kilogramme', 'dropbox', doomedNo, ['kg']);
    await server.database.db.delete(dropboxes).where(eq(dropboxes.dropboxNo, doomedNo));
    expect(await found(curator, 'kilogramme', 'dropbox', doomedNo)).toEqual([]);
    await eventually(async () => (await rowsOf('dropbox', doomedNo)).length === 0, 'the deleted dropbox rows to go');
    const type = await curator(api.schemas.create, {
      code: 'DOOMED',
      title: 'Doomed shelf',
      description: '',
      schemas: [{ title: 'Doomedsalt', description: '', entries: [] }],
    });
    const typeNo = type.body.data.schemasTypeNo;
    await eventually(async () => (await rowsOf('schema', typeNo)).length === 2, 'the schema type to be indexed');
    await server.database.db.delete(schemaTypes).where(eq(schemaTypes.schemasTypeNo, typeNo));
    expect(await found(curator, 'doomedsalt', 'schema', typeNo)).toEqual([]);
    await eventually(async () => (await rowsOf('schema', typeNo)).length === 0, 'the deleted schema type rows to go');
  });
});
