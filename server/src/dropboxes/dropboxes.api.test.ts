import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import { api, ERR, type DropboxRow, type ValidationErrorData } from '@eln/shared';
import { auditLog, dropboxes, dropboxRows } from '../db/schema.js';
import { startTestServer, type TestServer } from '../testing/harness.js';

let server: TestServer;
type Caller = Awaited<ReturnType<TestServer['as']>>;
let manager: Caller;
let managerToken: string;
let researcher: Caller;
let admin: Caller;

beforeAll(async () => {
  server = await startTestServer();
  const managerUser = await server.createUser({ name: 'Lee Manager', auth: { project: 'Y', schema: 'N', dropbox: 'Y', template: 'N' } });
  managerToken = (await server.signIn(managerUser.userId, managerUser.password)).accessToken;
  manager = server.callerWith(managerToken);
  researcher = await server.as(await server.createUser());
  admin = await server.as(server.admin);
});
afterAll(async () => {
  await server?.stop();
});

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));
const csv = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const rowsOf = (n: number, make = (i: number): DropboxRow => ({ code: `C${i}`, name: `Name ${i}` })) =>
  Array.from({ length: n }, (_, i) => make(i));
let titleCounter = 0;
const uniqueTitle = () => `Units ${++titleCounter}`;

async function create(caller: Caller, rows: DropboxRow[], title = uniqueTitle(), status: 'Y' | 'N' = 'Y') {
  return caller(api.dropboxes.create, { title, status, rows });
}

async function storedRows(dropboxNo: number) {
  return server.database.db
    .select({ code: dropboxRows.code, name: dropboxRows.name })
    .from(dropboxRows)
    .where(eq(dropboxRows.dropboxNo, dropboxNo))
    .orderBy(dropboxRows.position);
}

async function lastAudit() {
  const [row] = await server.database.db.select().from(auditLog).orderBy(desc(auditLog.seq)).limit(1);
  return row;
}

async function dropboxCount() {
  return (await server.database.db.select().from(dropboxes)).length;
}

describe(`${api.dropboxes.importCsv.path} reads CSV files`, () => {
  it('reads the Korean Excel default CP949 and answers every row checked, storing nothing in a preview', async () => {
    const before = await dropboxCount();
    const answer = await manager(api.dropboxes.importCsv, { file: fixture('units-cp949.csv').toString('base64') });
    expect(answer.body.status).toBe('0000');
    expect(answer.body.data).toMatchObject({ encoding: 'euc-kr', ok: true, stored: false });
    expect(answer.body.data.rows.map((r) => [r.line, r.code, r.name])).toEqual([
      [2, 'mg', '밀리그램'],
      [3, 'mL', '밀리리터'],
      [4, 'C', '섭씨 온도 ℃'],
      [5, 'RT', '실온 (상온)'],
    ]);
    expect(await dropboxCount()).toBe(before);
  });

  it('reads UTF-8 with a BOM, a header in any case, quoted commas, and skips blank lines', async () => {
    const answer = await manager(api.dropboxes.importCsv, { file: fixture('solvents-utf8-bom.csv').toString('base64') });
    expect(answer.body.data.encoding).toBe('utf-8');
    expect(answer.body.data.rows.map((r) => [r.code, r.name])).toEqual([
      ['EtOH', 'Ethanol, absolute'],
      ['MeOH', 'メタノール'],
      ['DMSO', '디메틸설폭사이드'],
    ]);
  });

  it('reads CP949 when told so, and refuses it read as UTF-8 (4501)', async () => {
    const file = fixture('units-cp949.csv').toString('base64');
    expect((await manager(api.dropboxes.importCsv, { file, encoding: 'euc-kr' })).body.data.rows[0]?.name).toBe('밀리그램');
    expect((await manager(api.dropboxes.importCsv, { file, encoding: 'utf-8' })).body.status).toBe(ERR.dropboxNotCsv);
  });

  it('refuses a binary file renamed .csv (4501) and a file without the code,name header (4502)', async () => {
    const binary = await manager(api.dropboxes.importCsv, { file: fixture('image-renamed.csv').toString('base64') });
    expect(binary.body.status).toBe(ERR.dropboxNotCsv);
    expect(binary.http).toBe(422);
    for (const text of ['mg,milligram\nmL,millilitre\n', 'code,label\nmg,milligram\n', 'name,code\nmg,milligram\n', 'code\nmg\n', '']) {
      expect((await manager(api.dropboxes.importCsv, { file: csv(text) })).body.status).toBe(ERR.dropboxCsvHeader);
    }
  });

  it('marks each row with its problems: duplicate code, empty first code, too long, empty name, over 200 rows', async () => {
    const lines = [
      'code,name',
      ',first has no code',
      'a,A',
      'a,again',
      `${'x'.repeat(101)},long code`,
      `b,${'n'.repeat(101)}`,
      'c,',
      ...rowsOf(196).map((r) => `${r.code},${r.name}`),
    ];
    const answer = await manager(api.dropboxes.importCsv, { file: csv(lines.join('\n')) });
    expect(answer.body.data.ok).toBe(false);
    const problems = answer.body.data.rows.map((r) => [r.line, r.problems]);
    expect(problems.slice(0, 6)).toEqual([
      [2, ['firstCodeEmpty']],
      [3, []],
      [4, ['duplicateCode']],
      [5, ['codeTooLong']],
      [6, ['nameTooLong']],
      [7, ['nameEmpty']],
    ]);
    expect(answer.body.data.rows).toHaveLength(202);
    expect(answer.body.data.rows.slice(200).map((r) => r.problems)).toEqual([['tooManyRows'], ['tooManyRows']]);
  });

  it('replaces a dropbox’s rows all or none, and audits the rows before and after', async () => {
    const { body } = await create(manager, [{ code: 'old', name: 'Old row' }]);
    const dropboxNo = body.data.dropboxNo;
    const refused = await manager(api.dropboxes.importCsv, { dropboxNo, file: csv('code,name\nmg,milligram\nmg,again\n') });
    expect(refused.body.status).toBe(ERR.dropboxRows);
    expect(refused.body.data).toMatchObject({
      rows: [
        { code: 'mg', problems: [] },
        { code: 'mg', problems: ['duplicateCode'] },
      ],
    });
    expect(await storedRows(dropboxNo)).toEqual([{ code: 'old', name: 'Old row' }]);

    const tooMany = await manager(api.dropboxes.importCsv, {
      dropboxNo,
      file: csv(['code,name', ...rowsOf(201).map((r) => `${r.code},${r.name}`)].join('\n')),
    });
    expect(tooMany.body.status).toBe(ERR.dropboxRows);
    expect(await storedRows(dropboxNo)).toEqual([{ code: 'old', name: 'Old row' }]);

    const stored = await manager(api.dropboxes.importCsv, {
      dropboxNo,
      file: fixture('units-cp949.csv').toString('base64'),
    });
    expect(stored.body.data).toMatchObject({ ok: true, stored: true, encoding: 'euc-kr' });
    expect((await storedRows(dropboxNo)).map((r) => r.code)).toEqual(['mg', 'mL', 'C', 'RT']);
    expect(await lastAudit()).toMatchObject({
      action: 'dropbox.imported',
      targetId: String(dropboxNo),
      before: { rows: [{ code: 'old', name: 'Old row' }] },
      after: { encoding: 'euc-kr', rows: [{ code: 'mg', name: '밀리그램' }, { code: 'mL' }, { code: 'C' }, { code: 'RT' }] },
    });
  });

  it('refuses an empty row list on import (header only)', async () => {
    const { body } = await create(manager, [{ code: 'keep', name: 'Kept' }]);
    const refused = await manager(api.dropboxes.importCsv, { dropboxNo: body.data.dropboxNo, file: csv('code,name\n') });
    expect(refused.body.status).toBe(ERR.dropboxRows);
    expect(await storedRows(body.data.dropboxNo)).toEqual([{ code: 'keep', name: 'Kept' }]);
  });
});

describe('creating and changing dropboxes', () => {
  it('creates with trimmed rows, answers the detail, and audits the creation', async () => {
    const title = uniqueTitle();
    const { body } = await create(
      manager,
      [
        { code: ' mg ', name: ' milligram ' },
        { code: '', name: 'no code (allowed after the first row)' },
      ],
      `  ${title}  `,
    );
    expect(body.status).toBe('0000');
    const detail = await researcher(api.dropboxes.detail, { dropboxNo: body.data.dropboxNo });
    expect(detail.body.data).toMatchObject({
      title,
      status: 'Y',
      rowCount: 2,
      updatedByName: 'Lee Manager',
      rows: [
        { code: 'mg', name: 'milligram' },
        { code: '', name: 'no code (allowed after the first row)' },
      ],
      abilities: { update: false },
    });
    expect(await lastAudit()).toMatchObject({
      action: 'dropbox.created',
      after: { title, status: 'Y', rows: [{ code: 'mg', name: 'milligram' }, { code: '' }] },
    });
  });

  it('refuses bad rows with each row’s problems, and a title empty, too long or taken, storing nothing', async () => {
    const before = await dropboxCount();
    const firstEmpty = await create(manager, [{ code: '', name: 'x' }]);
    expect(firstEmpty.body.status).toBe(ERR.dropboxRows);
    expect(firstEmpty.body.data).toMatchObject({ rows: [{ problems: ['firstCodeEmpty'] }] });
    expect(
      (
        await create(manager, [
          { code: 'a', name: 'A' },
          { code: 'a', name: 'B' },
        ])
      ).body.status,
    ).toBe(ERR.dropboxRows);
    expect((await create(manager, [{ code: 'x'.repeat(101), name: 'A' }])).body.status).toBe(ERR.dropboxRows);
    const tooMany = await create(manager, rowsOf(201));
    expect(tooMany.body.status).toBe(ERR.validation);
    expect(JSON.stringify(tooMany.body.data)).toContain('tooMany');
    // No rows: the field says how many are needed, its number filled in, in every language.
    const noRows = await manager<ValidationErrorData>(api.dropboxes.create.path, { title: uniqueTitle(), status: 'Y', rows: [] });
    expect(noRows.body.status).toBe(ERR.validation);
    expect(noRows.body.data.fields).toEqual([{ field: 'rows', reason: 'tooFew', params: { min: 1 }, message: 'Add at least 1.' }]);
    for (const [language, message] of [
      ['ko', '최소 1개 이상 추가해 주세요.'],
      ['ja', '1件以上追加してください。'],
    ] as const) {
      const answer = await server.call<ValidationErrorData>(
        api.dropboxes.create.path,
        { title: uniqueTitle(), status: 'Y', rows: [] },
        { token: managerToken, language },
      );
      expect(answer.body.data.fields[0]?.message).toBe(message);
    }
    for (const title of ['', '   ', 'x'.repeat(26)]) {
      expect((await create(manager, [{ code: 'a', name: 'A' }], title)).body.status).toBe(ERR.validation);
    }
    const taken = uniqueTitle();
    expect((await create(manager, [{ code: 'a', name: 'A' }], taken)).body.status).toBe('0000');
    const duplicate = await create(manager, [{ code: 'a', name: 'A' }], taken);
    expect(duplicate.body.status).toBe(ERR.dropboxDuplicate);
    expect(duplicate.http).toBe(409);
    expect(await dropboxCount()).toBe(before + 1);
  });

  it('accepts exactly 200 rows and codes of 100 characters', async () => {
    const rows = rowsOf(200, (i) => ({ code: `${i}`.padStart(100, 'c'), name: 'n'.repeat(100) }));
    const { body } = await create(manager, rows);
    expect(body.status).toBe('0000');
    expect(await storedRows(body.data.dropboxNo)).toHaveLength(200);
  });

  it('updates title and status with before and after in the audit trail; a used title is refused', async () => {
    const { body } = await create(manager, [{ code: 'a', name: 'A' }]);
    const dropboxNo = body.data.dropboxNo;
    const title = uniqueTitle();
    expect((await manager(api.dropboxes.update, { dropboxNo, title, status: 'N' })).body.status).toBe('0000');
    expect(await lastAudit()).toMatchObject({ action: 'dropbox.updated', before: { status: 'Y' }, after: { title, status: 'N' } });
    const other = await create(manager, [{ code: 'a', name: 'A' }]);
    const refused = await manager(api.dropboxes.update, { dropboxNo: other.body.data.dropboxNo, title, status: 'Y' });
    expect(refused.body.status).toBe(ERR.dropboxDuplicate);
    expect((await manager(api.dropboxes.update, { dropboxNo: 999_999, title: uniqueTitle(), status: 'Y' })).body.status).toBe(ERR.notFound);
  });
});

describe(api.dropboxes.cellCopy.path, () => {
  it('hands a table cell the sealed copy of a used dropbox and one of its rows, or of the list alone', async () => {
    const title = uniqueTitle();
    const { dropboxNo } = (
      await create(
        manager,
        [
          { code: 'mg', name: 'milligram' },
          { code: '', name: 'other' },
        ],
        title,
      )
    ).body.data;
    const chosen = (await researcher(api.dropboxes.cellCopy, { dropboxNo, code: 'mg' })).body.data;
    const { seal, ...copied } = chosen;
    expect(copied).toEqual({ dropboxNo, title, code: 'mg', name: 'milligram' });
    expect(seal).toBe(server.services.catalogueSeals.seal('dropboxCell', copied).seal);
    // A later row may have an empty code: it is still a row to choose.
    expect((await researcher(api.dropboxes.cellCopy, { dropboxNo, code: '' })).body.data).toMatchObject({
      code: '',
      name: 'other',
    });
    expect((await researcher(api.dropboxes.cellCopy, { dropboxNo, code: null })).body.data).toMatchObject({
      dropboxNo,
      title,
      code: null,
      name: null,
    });
    const notARow = await researcher<ValidationErrorData>(api.dropboxes.cellCopy.path, { dropboxNo, code: 'kg' });
    expect(notARow.http).toBe(400);
    expect(notARow.body.data.fields).toEqual([{ field: 'code', reason: 'invalidValue' }]);
    // An unused dropbox is offered to no new cell, not even by its manager.
    await manager(api.dropboxes.update, { dropboxNo, title, status: 'N' });
    expect((await manager(api.dropboxes.cellCopy, { dropboxNo, code: 'mg' })).body.status).toBe(ERR.notFound);
    expect((await researcher(api.dropboxes.cellCopy, { dropboxNo, code: 'mg' })).body.status).toBe(ERR.notFound);
    expect((await researcher(api.dropboxes.cellCopy, { dropboxNo: 2_000_000_000, code: null })).body.status).toBe(ERR.notFound);
    expect((await researcher(api.dropboxes.cellCopy, { dropboxNo, code: 'c'.repeat(101) })).http).toBe(400);
  });
});

describe('who may do what', () => {
  it('refuses members without the dropbox flag to create, update, import or preview (403), changing nothing', async () => {
    const { body } = await create(manager, [{ code: 'a', name: 'A' }]);
    const before = await dropboxCount();
    const attempts = [
      researcher(api.dropboxes.create, { title: uniqueTitle(), status: 'Y', rows: [{ code: 'a', name: 'A' }] }),
      researcher(api.dropboxes.update, { dropboxNo: body.data.dropboxNo, title: uniqueTitle(), status: 'N' }),
      researcher(api.dropboxes.importCsv, { dropboxNo: body.data.dropboxNo, file: csv('code,name\nz,Z\n') }),
      researcher(api.dropboxes.importCsv, { file: csv('code,name\nz,Z\n') }),
    ];
    for (const attempt of await Promise.all(attempts)) {
      expect(attempt.http).toBe(403);
      expect(attempt.body.status).toBe(ERR.forbidden);
    }
    expect(await dropboxCount()).toBe(before);
    expect(await storedRows(body.data.dropboxNo)).toEqual([{ code: 'a', name: 'A' }]);
  });

  it('lets administrators manage without the flag', async () => {
    expect((await create(admin, [{ code: 'a', name: 'A' }])).body.status).toBe('0000');
  });

  it('shows unused dropboxes only to managers: hidden from the list, the detail and the dashboard count', async () => {
    const unusedTitle = uniqueTitle();
    const { body } = await create(manager, [{ code: 'a', name: 'A' }], unusedTitle, 'N');
    const hidden = await researcher(api.dropboxes.detail, { dropboxNo: body.data.dropboxNo });
    expect(hidden.body.status).toBe(ERR.notFound);
    const researcherList = await researcher(api.dropboxes.list, { value: unusedTitle });
    expect(researcherList.body.data).toMatchObject({ totalCount: 0, list: [], abilities: { create: false } });
    const managerList = await manager(api.dropboxes.list, { value: unusedTitle });
    expect(managerList.body.data).toMatchObject({
      totalCount: 1,
      list: [{ title: unusedTitle, status: 'N', rowCount: 1 }],
      abilities: { create: true },
    });
    const all = await server.database.db.select().from(dropboxes);
    const counts = async (caller: Caller) => (await caller(api.dashboard.counts, {})).body.data.dropboxes;
    expect(await counts(manager)).toBe(all.length);
    expect(await counts(researcher)).toBe(all.filter((d) => d.status === 'Y').length);
  });

  it('lists with paging, the title filter matching literally and the status filter', async () => {
    const prefix = `Pg${Date.now() % 100000}`;
    for (let i = 0; i < 12; i++) await create(manager, [{ code: 'a', name: 'A' }], `${prefix} ${i}`, i % 3 === 0 ? 'N' : 'Y');
    const page2 = await manager(api.dropboxes.list, { value: prefix, page: 2, pageSize: 5 });
    expect(page2.body.data.totalCount).toBe(12);
    expect(page2.body.data.list.map((d) => d.title)).toEqual([6, 5, 4, 3, 2].map((i) => `${prefix} ${i}`));
    const unused = await manager(api.dropboxes.list, { value: prefix, status: 'N' });
    expect(unused.body.data.list.map((d) => d.title)).toEqual([9, 6, 3, 0].map((i) => `${prefix} ${i}`));
    expect((await manager(api.dropboxes.list, { value: '%' })).body.data.list.every((d) => d.title.includes('%'))).toBe(true);
  });
});
