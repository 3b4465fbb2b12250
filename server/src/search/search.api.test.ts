import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, ERR, LIMITS, noteDocumentName, type PmNode, type SearchHit } from '@eln/shared';
import { documentUpdates, labNotes, searchUnits } from '../db/schema.js';
import { initialUpdate } from '../seed/demoTemplates.js';
import { createTestDatabase, startTestServer, type Caller, type TestServer } from '../testing/harness.js';
import { appendParagraph, connectWriter, eventually } from '../testing/live.js';

/** A well-formed seal: the index reads catalogue copies as stored, whoever sealed them. */
const SEAL = 'a'.repeat(43);
const text = (value: string): PmNode => ({ type: 'text', text: value });
const para = (uid: string, value: string): PmNode => ({ type: 'paragraph', attrs: { blockUid: uid }, content: [text(value)] });
const cell = (type: 'tableCell' | 'tableHeader', value: string, dropbox: unknown = null): PmNode => ({
  type,
  attrs: { colspan: 1, rowspan: 1, colwidth: null, dropbox },
  content: [{ type: 'paragraph', content: value ? [text(value)] : [] }],
});

const UID = {
  heading: 'hsearch000000001',
  body: 'psearch000000001',
  cjk: 'psearch000000002',
  lot: 'psearch000000003',
  phrase: 'psearch000000004',
  reversed: 'psearch000000005',
  table: 'tsearch000000001',
  chart: 'ksearch000000001',
  image: 'isearch000000001',
  file: 'fsearch000000001',
  date: 'dsearch000000001',
  schema: 'ssearch000000001',
  buffer: 'psearch000000006',
  trisBuffer: 'psearch000000007',
};

const content: PmNode = {
  type: 'doc',
  content: [
    { type: 'heading', attrs: { blockUid: UID.heading, level: 2 }, content: [text('Gradient calibration')] },
    para(UID.body, 'We repeated the gradient twice before lunch.'),
    para(UID.cjk, '묽은염산을 넣고 緩衝液を調製した'),
    para(UID.lot, 'Used lot 24-117 of 2-propanol at 10mM.'),
    para(UID.phrase, 'The pH drift was small.'),
    para(UID.reversed, 'A drift of the pH was seen.'),
    para(UID.buffer, 'Phosphate buffer made fresh.'),
    para(UID.trisBuffer, 'Tris buffer made fresh.'),
    {
      type: 'table',
      attrs: { blockUid: UID.table },
      content: [
        { type: 'tableRow', content: [cell('tableHeader', 'Sample'), cell('tableHeader', 'Reagent')] },
        {
          type: 'tableRow',
          content: [
            cell('tableCell', 'Absorbance'),
            cell('tableCell', '', { dropboxNo: 1, title: 'Reagents', code: 'RG-7781', name: 'Quinhydrone', seal: SEAL }),
          ],
        },
      ],
    },
    {
      type: 'chart',
      attrs: {
        blockUid: UID.chart,
        chartType: 'bar',
        name: 'Yieldcurve',
        xLabel: 'Minutes',
        yLabel: 'Turbidity',
        dataName: '',
        label: '',
        tableUid: UID.table,
      },
    },
    { type: 'image', attrs: { blockUid: UID.image, fileId: 'none', title: 'Electrophoresis gel' } },
    { type: 'fileAttachment', attrs: { blockUid: UID.file, fileId: 'none', name: 'spectrometer-export.csv', size: 10 } },
    { type: 'date', attrs: { blockUid: UID.date, value: '2026-03-14' } },
    {
      type: 'schemaBlock',
      attrs: {
        blockUid: UID.schema,
        schemasTypeNo: 1,
        schemaNo: 1,
        typeTitle: 'Reagent',
        title: 'Sodium azide',
        revision: 1,
        seal: SEAL,
        entries: [{ field: 'Hazard', value: 'Acutely toxic' }],
      },
    },
  ],
};

let server: TestServer;
let leader: Caller;
let member: Caller;
let outsider: Caller;
let admin: Caller;
let projectNo: number;
let labNoteNo: number;
let memberId: string;
let leaderId: string;
let leaderToken: string;
let baseUrl: Promise<string> | undefined;
/** The server's address, listening from the first test that needs one on. */
const listening = () => (baseUrl ??= server.listen());

async function hits(who: Caller, q: string, extra: Record<string, unknown> = {}): Promise<SearchHit[]> {
  const result = await who(api.search.search, { q, page: 1, pageSize: 50, ...extra });
  expect(result.body.status, JSON.stringify(result.body)).toBe('0000');
  return result.body.data.list;
}

const uids = (list: SearchHit[]) => list.filter((h) => h.labNoteNo === labNoteNo).map((h) => h.uid);

beforeAll(async () => {
  server = await startTestServer();
  const leaderUser = await server.createUser({ name: 'Leader' });
  const memberUser = await server.createUser({ name: 'Member' });
  const outsiderUser = await server.createUser({ name: 'Outsider' });
  memberId = memberUser.userId;
  leaderId = leaderUser.userId;
  leaderToken = (await server.signIn(leaderUser.userId, leaderUser.password)).accessToken;
  leader = await server.as(leaderUser);
  member = await server.as(memberUser);
  outsider = await server.as(outsiderUser);
  admin = await server.as(server.admin);
  const created = await leader(api.projects.create, {
    title: 'Search project',
    description: '',
    signatureList: { department: '', user: [leaderUser.userId, memberUser.userId].join(',') },
  });
  projectNo = created.body.data.projectNo;
  const note = await leader(api.notes.create, { projectNo, title: 'Titration notebook' });
  labNoteNo = note.body.data.labNoteNo;
  await server.database.db.insert(documentUpdates).values({ documentName: noteDocumentName(labNoteNo), update: initialUpdate(content) });
  await eventually(async () => (await hits(leader, 'gradient')).length > 0, 'the note to be indexed');
});

afterAll(() => server?.stop());

describe('search', () => {
  it.each([
    ['title', 'titration', ''],
    ['heading', 'gradient calibration', UID.heading],
    ['paragraph', 'lunch', UID.body],
    ['table cell', 'absorbance', UID.table],
    ['dropbox cell code', 'RG-7781', UID.table],
    ['dropbox cell name', 'quinhydrone', UID.table],
    ['chart name', 'yieldcurve', UID.chart],
    ['chart label', 'turbidity', UID.chart],
    ['image title', 'electrophoresis', UID.image],
    ['file name', 'spectrometer', UID.file],
    ['date', '2026-03-14', UID.date],
    ['schema block title', 'sodium azide', UID.schema],
    ['schema block field', 'hazard', UID.schema],
    ['schema block value', 'acutely toxic', UID.schema],
  ])('finds a %s', async (_, q, uid) => {
    const list = await hits(leader, q);
    expect(uids(list)).toContain(uid || null);
    const hit = list.find((h) => (h.uid ?? '') === uid)!;
    expect(hit).toMatchObject({
      kind: 'note',
      no: labNoteNo,
      title: 'Titration notebook',
      projectNo,
      projectTitle: 'Search project',
      signed: false,
      finished: false,
    });
    expect(hit.snippet.marks.length).toBeGreaterThan(0);
  });

  it('finds two Korean or Japanese characters inside longer text, and marks them', async () => {
    for (const term of ['염산', '緩衝', '衝液を']) {
      const [hit] = await hits(leader, term);
      expect(hit?.uid).toBe(UID.cjk);
      const { text: shown, marks } = hit!.snippet;
      expect(marks.map((m) => shown.slice(m.start, m.end))).toEqual([term]);
    }
    expect(await hits(leader, '염소')).toEqual([]);
  });

  it('finds lot codes, units and chemical names as written, and Latin prefixes', async () => {
    expect(uids(await hits(leader, '24-117'))).toEqual([UID.lot]);
    expect(await hits(leader, '24-118')).toEqual([]);
    expect(await hits(leader, '117-24')).toEqual([]);
    expect(uids(await hits(leader, '2-propanol'))).toEqual([UID.lot]);
    expect(uids(await hits(leader, '"10 mM"'))).toEqual([UID.lot]);
    expect(uids(await hits(leader, 'propan'))).toEqual([UID.lot]);
    expect(uids(await hits(leader, 'propanal'))).toEqual([]);
  });

  it('finds a quoted phrase only with its words in order, side by side', async () => {
    expect(uids(await hits(leader, '"pH drift"'))).toEqual([UID.phrase]);
    expect(new Set(uids(await hits(leader, 'ph drift')))).toEqual(new Set([UID.phrase, UID.reversed]));
  });

  it('leaves out units holding an excluded word or phrase', async () => {
    expect(uids(await hits(leader, 'buffer -tris'))).toEqual([UID.buffer]);
    expect(uids(await hits(leader, 'drift -"drift of"'))).toEqual([UID.phrase]);
    expect(await hits(leader, '-tris')).toEqual([]);
  });

  it('ranks a heading above body text', async () => {
    expect(uids(await hits(leader, 'gradient'))).toEqual([UID.heading, UID.body]);
  });

  it('filters by project, status and writer', async () => {
    expect(uids(await hits(leader, 'lunch', { projectNo }))).toEqual([UID.body]);
    expect(await hits(leader, 'lunch', { projectNo: projectNo + 1000 })).toEqual([]);
    expect(uids(await hits(leader, 'lunch', { status: 'W' }))).toEqual([UID.body]);
    expect(await hits(leader, 'lunch', { status: 'T' })).toEqual([]);
    expect(await hits(leader, 'lunch', { writer: memberId })).toEqual([]);
    expect(await hits(leader, 'lunch', { kinds: ['project'] })).toEqual([]);
  });

  it('filters by the date a record was made, in the server’s time zone, and refuses dates out of order', async () => {
    const [note] = await server.database.db.select().from(labNotes).where(eq(labNotes.noteNo, labNoteNo));
    const madeOn = new Intl.DateTimeFormat('en-CA', { timeZone: server.config.timeZone }).format(note!.createdAt);
    const dayBefore = new Date(Date.parse(`${madeOn}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    expect(uids(await hits(leader, 'lunch', { startDate: madeOn, endDate: madeOn }))).toEqual([UID.body]);
    expect(uids(await hits(leader, 'lunch', { startDate: dayBefore }))).toEqual([UID.body]);
    expect(await hits(leader, 'lunch', { endDate: dayBefore })).toEqual([]);
    const reversed = await leader(api.search.search, { q: 'lunch', startDate: madeOn, endDate: dayBefore, page: 1, pageSize: 10 });
    expect(reversed.body.status).toBe(ERR.validation);
  });

  it('finds signed and finished notes, marked as such', async () => {
    // The signature and finishing flows have their own tests; here only what search makes of the status.
    const setStatus = (status: 'W' | 'T' | 'F') =>
      server.database.db.update(labNotes).set({ status }).where(eq(labNotes.noteNo, labNoteNo));
    try {
      await setStatus('T');
      expect(await hits(leader, 'lunch', { status: 'T' })).toMatchObject([{ uid: UID.body, status: 'T', signed: true, finished: false }]);
      await setStatus('F');
      expect(await hits(leader, 'lunch')).toMatchObject([{ uid: UID.body, status: 'F', signed: false, finished: true }]);
    } finally {
      await setStatus('W');
    }
  });

  it('finds only what the caller may read: members and administrators, not outsiders', async () => {
    expect(uids(await hits(member, 'lunch'))).toEqual([UID.body]);
    expect(uids(await hits(admin, 'lunch'))).toEqual([UID.body]);
    expect(await hits(outsider, 'lunch')).toEqual([]);
  });

  it('refuses an empty, too long or NUL-carrying query with 9001', async () => {
    for (const q of ['', '   ', 'x'.repeat(LIMITS.searchQuery + 1), 'a\u0000b']) {
      const result = await leader(api.search.search, { q, page: 1, pageSize: 10 });
      expect(result.http, JSON.stringify(q)).toBe(400);
      expect(result.body.status).toBe(ERR.validation);
    }
    const unknown = await leader(api.search.search, { q: 'lunch', page: 1, pageSize: 10, everything: true });
    expect(unknown.body.status).toBe(ERR.validation);
  });

  it('finds a live edit within 2 s of the editor sending it', async () => {
    const editor = await connectWriter(await listening(), noteDocumentName(labNoteNo), leaderToken);
    try {
      const sent = Date.now();
      appendParagraph(editor.doc, 'Freshly typed zymogram');
      await eventually(async () => (await hits(leader, 'zymogram')).length === 1, 'the edit to be found', 2_000);
      expect(Date.now() - sent).toBeLessThan(2_000);
    } finally {
      editor.destroy();
    }
  });

  it('says which saved version a match was found in, or that only the unsaved draft holds it', async () => {
    const note = await leader(api.notes.create, { projectNo, title: 'Vermilion ledger' });
    const no = note.body.data.labNoteNo;
    const first = { type: 'doc', content: [para('pversion00000001', 'Vermilion assay prepared')] } satisfies PmNode;
    await server.database.db.insert(documentUpdates).values({ documentName: noteDocumentName(no), update: initialUpdate(first) });
    const versionOf = async (q: string) => (await hits(leader, q)).find((hit) => hit.labNoteNo === no)?.version;
    const foundIn = (q: string, version: number | null) =>
      eventually(
        async () => (await versionOf(q)) === version,
        `"${q}" to be found in ${version === null ? 'the draft' : `version ${version}`}`,
      );
    await foundIn('vermilion assay', null);
    expect(await versionOf('vermilion ledger')).toBeNull();

    expect((await leader(api.notes.saveVersion, { labNoteNo: no, version: 0, blockList: [] })).body.status).toBe('0000');
    await foundIn('vermilion assay', 1);
    expect(await versionOf('vermilion ledger')).toBe(1);

    const editor = await connectWriter(await listening(), noteDocumentName(no), leaderToken);
    try {
      appendParagraph(editor.doc, 'Cinnabar addendum');
      await foundIn('cinnabar', null);
      // The block the version holds as it is still says so.
      expect(await versionOf('vermilion assay')).toBe(1);
      expect((await leader(api.notes.saveVersion, { labNoteNo: no, version: 1, blockList: [] })).body.status).toBe('0000');
      await foundIn('cinnabar', 2);
      expect(await versionOf('vermilion assay')).toBe(2);
    } finally {
      editor.destroy();
    }
  });

  it('finds nothing of a project the caller was removed from', async () => {
    expect(uids(await hits(member, 'lunch'))).toEqual([UID.body]);
    const removed = await leader(api.projects.update, { projectNo, signatureList: { department: '', user: leaderId } });
    expect(removed.body.status).toBe('0000');
    expect(await hits(member, 'lunch')).toEqual([]);
    expect(uids(await hits(leader, 'lunch'))).toEqual([UID.body]);
  });

  it('drops a deleted note at once, and its rows at the next pass', async () => {
    const deleted = await leader(api.notes.delete, { labNoteNo });
    expect(deleted.body.status).toBe('0000');
    expect(await hits(leader, 'lunch')).toEqual([]);
    expect(await hits(admin, 'lunch')).toEqual([]);
    const rows = async () =>
      (
        await server.database.db
          .select()
          .from(searchUnits)
          .where(and(eq(searchUnits.kind, 'note'), eq(searchUnits.recordNo, labNoteNo)))
      ).length;
    await eventually(async () => (await rows()) === 0, 'the deleted note rows to go', 5_000);
  });
});

describe('search index across restarts', () => {
  it('indexes what was stored while no server ran', async () => {
    const { database, dispose } = await createTestDatabase();
    try {
      const first = await startTestServer({ database });
      const writer = await first.createUser({ name: 'Writer' });
      const caller = await first.as(writer);
      const project = await caller(api.projects.create, {
        title: 'Restarts',
        description: '',
        signatureList: { department: '', user: writer.userId },
      });
      const note = await caller(api.notes.create, { projectNo: project.body.data.projectNo, title: 'Before the stop' });
      await first.stop();
      // Stored with no server running (as a process that died after its commit): only the queue knows.
      const update = initialUpdate({ type: 'doc', content: [para('psearch000000099', 'Stored while stopped: xylenol')] });
      await database.db.insert(documentUpdates).values({ documentName: noteDocumentName(note.body.data.labNoteNo), update });
      const second = await startTestServer({ database });
      try {
        const again = await second.as(writer);
        await eventually(async () => (await hits(again, 'xylenol')).length === 1, 'the stored edit to be found after the restart');
      } finally {
        await second.stop();
      }
    } finally {
      await dispose();
    }
  });
});
