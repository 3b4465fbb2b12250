import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import { api, ERR, LIMITS, type SchemaChildInput, type SchemaCreateRequest, type SchemaTypeDetail } from '@eln/shared';
import { auditLog, schemaEntries, schemas, schemaTypes } from '../db/schema.js';
import { startTestServer, type TestServer } from '../testing/harness.js';

let server: TestServer;
type Caller = Awaited<ReturnType<TestServer['as']>>;
let curator: Caller;
let researcher: Caller;
let admin: Caller;

beforeAll(async () => {
  server = await startTestServer();
  curator = await server.as(
    await server.createUser({ name: 'Han Curator', auth: { project: 'Y', schema: 'Y', dropbox: 'N', template: 'N' } }),
  );
  researcher = await server.as(await server.createUser());
  admin = await server.as(server.admin);
});
afterAll(async () => {
  await server?.stop();
});

let counter = 0;
const unique = () => `${++counter}-${Date.now().toString(36)}`;

const sodiumChloride = (): SchemaChildInput => ({
  title: 'Sodium chloride',
  description: 'Table salt, reagent grade',
  entries: [
    { field: 'CAS', value: '7647-14-5' },
    { field: 'MW', value: '58.44 g/mol' },
    { field: 'Supplier', value: 'Daejung' },
  ],
});
const ethanol = (): SchemaChildInput => ({
  title: 'Ethanol',
  entries: [
    { field: 'CAS', value: '64-17-5' },
    { field: 'Purity', value: '99.5 %' },
  ],
});

function reagentType(overrides: Partial<SchemaCreateRequest> = {}): SchemaCreateRequest {
  const id = unique();
  return {
    code: `REAGENT-${id}`,
    title: `Reagents ${id}`,
    description: 'Chemicals in stock',
    schemas: [sodiumChloride(), ethanol()],
    ...overrides,
  };
}

async function create(caller: Caller, body: SchemaCreateRequest = reagentType()) {
  return caller(api.schemas.create, body);
}

async function detail(caller: Caller, schemasTypeNo: number) {
  return caller(api.schemas.detail, { schemasTypeNo });
}

/** The request that sends a type back as its detail says it is, for update tests to change. */
function asUpdate(type: SchemaTypeDetail) {
  return {
    schemasTypeNo: type.schemasTypeNo,
    revision: type.revision,
    code: type.code,
    title: type.title,
    description: type.description,
    status: type.status,
    schemas: type.schemas.map((s) => ({
      schemaNo: s.schemaNo,
      title: s.title,
      description: s.description,
      status: s.status,
      entries: s.entries.map(({ field, value, status }) => ({ field, value, status })),
    })),
  };
}

/** Everything stored for the schema tables, to show a refusal changed nothing. */
async function snapshot() {
  const db = server.database.db;
  return {
    types: await db.select().from(schemaTypes).orderBy(schemaTypes.schemasTypeNo),
    schemas: await db.select().from(schemas).orderBy(schemas.schemaNo),
    entries: await db.select().from(schemaEntries).orderBy(schemaEntries.schemaNo, schemaEntries.position),
  };
}

async function lastAudit() {
  const [row] = await server.database.db.select().from(auditLog).orderBy(desc(auditLog.seq)).limit(1);
  return row;
}

describe(api.schemas.create.path, () => {
  it('stores a type with its schemas and their entries in order, audited, and /check answers it', async () => {
    const body = reagentType();
    const created = await create(curator, body);
    expect(created.body.status).toBe('0000');
    const { schemasTypeNo } = created.body.data;
    const type = (await detail(curator, schemasTypeNo)).body.data;
    expect(type).toMatchObject({
      code: body.code,
      title: body.title,
      description: 'Chemicals in stock',
      status: 'Y',
      revision: 1,
      schemaCount: 2,
      updatedByName: 'Han Curator',
      abilities: { update: true },
    });
    expect(type.schemas.map((s) => [s.title, s.revision, s.entryCount])).toEqual([
      ['Sodium chloride', 1, 3],
      ['Ethanol', 1, 2],
    ]);
    expect(type.schemas[0]?.entries).toEqual([
      { field: 'CAS', value: '7647-14-5', status: 'Y' },
      { field: 'MW', value: '58.44 g/mol', status: 'Y' },
      { field: 'Supplier', value: 'Daejung', status: 'Y' },
    ]);
    const audit = await lastAudit();
    expect(audit).toMatchObject({ action: 'schema.created', targetType: 'schemaType', targetId: String(schemasTypeNo) });
    expect((audit?.after as { schemas: Array<{ title: string }> }).schemas.map((s) => s.title)).toEqual(['Sodium chloride', 'Ethanol']);
  });

  it('takes the limits exactly: 100 schemas, 200 entries, a 50-character code and names, a 25-character field, a 1000-character value', async () => {
    const id = unique();
    const big: SchemaCreateRequest = {
      code: `C${id}`.padEnd(LIMITS.schemaCode, 'x'),
      title: `T${id}`.padEnd(LIMITS.schemaTypeName, 'y'),
      schemas: Array.from({ length: LIMITS.schemas }, (_, i) => ({
        title: `Schema ${i}`.padEnd(LIMITS.schemaName, '.'),
        entries:
          i === 0
            ? Array.from({ length: LIMITS.schemaEntriesPerSchema }, (_, j) => ({
                field: `F${j}`.padEnd(LIMITS.schemaField, '-'),
                value: 'v'.repeat(LIMITS.schemaValue),
              }))
            : [{ field: 'only', value: 'one' }],
      })),
    };
    const created = await create(curator, big);
    expect(created.body.status).toBe('0000');
    const type = (await detail(curator, created.body.data.schemasTypeNo)).body.data;
    expect(type.schemas).toHaveLength(LIMITS.schemas);
    expect(type.schemas[0]?.entries).toHaveLength(LIMITS.schemaEntriesPerSchema);
  });

  it('refuses what breaks a rule, naming the field, and stores nothing', async () => {
    const before = await snapshot();
    const refusals: Array<[string, SchemaCreateRequest, string, string]> = [
      ['a 51-character code', reagentType({ code: 'c'.repeat(LIMITS.schemaCode + 1) }), 'code', 'tooLong'],
      ['an empty code', reagentType({ code: '  ' }), 'code', 'required'],
      ['a 51-character type name', reagentType({ title: 't'.repeat(LIMITS.schemaTypeName + 1) }), 'title', 'tooLong'],
      [
        'a 51-character schema name',
        reagentType({ schemas: [{ title: 's'.repeat(LIMITS.schemaName + 1), entries: [] }] }),
        'schemas.0.title',
        'tooLong',
      ],
      [
        'a 26-character field',
        reagentType({ schemas: [{ title: 'A', entries: [{ field: 'f'.repeat(LIMITS.schemaField + 1), value: 'v' }] }] }),
        'schemas.0.entries.0.field',
        'tooLong',
      ],
      [
        'a 1001-character value',
        reagentType({ schemas: [{ title: 'A', entries: [{ field: 'f', value: 'v'.repeat(LIMITS.schemaValue + 1) }] }] }),
        'schemas.0.entries.0.value',
        'tooLong',
      ],
      [
        'an empty value',
        reagentType({ schemas: [{ title: 'A', entries: [{ field: 'f', value: ' ' }] }] }),
        'schemas.0.entries.0.value',
        'required',
      ],
      [
        'an empty field',
        reagentType({ schemas: [{ title: 'A', entries: [{ field: '', value: 'v' }] }] }),
        'schemas.0.entries.0.field',
        'required',
      ],
      [
        '201 entries',
        reagentType({
          schemas: [
            { title: 'A', entries: Array.from({ length: LIMITS.schemaEntriesPerSchema + 1 }, (_, i) => ({ field: `f${i}`, value: 'v' })) },
          ],
        }),
        'schemas.0.entries',
        'tooMany',
      ],
      [
        '101 schemas',
        reagentType({ schemas: Array.from({ length: LIMITS.schemas + 1 }, (_, i) => ({ title: `S${i}`, entries: [] })) }),
        'schemas',
        'tooMany',
      ],
      [
        'two schemas of one name (case aside)',
        reagentType({
          schemas: [
            { title: 'Buffer', entries: [] },
            { title: ' buffer ', entries: [] },
          ],
        }),
        'schemas.1.title',
        'duplicateName',
      ],
      [
        'two entries of one field',
        reagentType({
          schemas: [
            {
              title: 'A',
              entries: [
                { field: 'CAS', value: '1' },
                { field: 'cas', value: '2' },
              ],
            },
          ],
        }),
        'schemas.0.entries.1.field',
        'duplicateName',
      ],
    ];
    for (const [what, body, field, reason] of refusals) {
      const answer = await create(curator, body);
      expect(answer.body.status, what).toBe(ERR.validation);
      const fields = (answer.body.data as unknown as { fields: Array<{ field: string; reason: string; message: string }> }).fields;
      expect(
        fields.find((f) => f.field === field),
        `${what}: ${JSON.stringify(fields)}`,
      ).toMatchObject({ reason });
    }
    expect(await snapshot()).toEqual(before);
  });

  it('refuses a code or a name another type has (case aside), with its own code, in the caller’s language', async () => {
    const first = reagentType();
    await create(curator, first);
    const before = await snapshot();
    const sameCode = await create(curator, reagentType({ code: first.code.toLowerCase() }));
    expect(sameCode.body.status).toBe(ERR.schemaCodeDuplicate);
    const sameTitle = await curator(api.schemas.create, reagentType({ title: first.title.toUpperCase() }), { language: 'ko' });
    expect(sameTitle.body).toMatchObject({ status: ERR.schemaTitleDuplicate, message: '이미 존재하는 스키마 유형 이름입니다.' });
    expect(await snapshot()).toEqual(before);
  });

  it('is for users with the schema flag and administrators: a researcher without it is refused (1003), nothing stored', async () => {
    const before = await snapshot();
    expect((await create(researcher)).body.status).toBe(ERR.forbidden);
    expect(await snapshot()).toEqual(before);
    expect((await create(admin)).body.status).toBe('0000');
  });
});

describe(api.schemas.update.path, () => {
  it('changes the type and its schemas in one go: edits raise only the changed schema’s revision, new ones are added, missing ones removed', async () => {
    const { schemasTypeNo } = (await create(curator)).body.data;
    const loaded = (await detail(curator, schemasTypeNo)).body.data;
    const [salt, alcohol] = loaded.schemas;
    const update = asUpdate(loaded);
    update.title = `${loaded.title} (lab 2)`;
    update.schemas = [
      { ...update.schemas[0]!, entries: [...update.schemas[0]!.entries, { field: 'Lot', value: 'A-113', status: 'Y' }] },
      { title: 'Acetone', description: '', status: 'Y', entries: [{ field: 'CAS', value: '67-64-1', status: 'Y' }] },
    ] as typeof update.schemas;
    const answer = await curator(api.schemas.update, update);
    expect(answer.body).toMatchObject({ status: '0000', data: { revision: 2 } });
    const after = (await detail(curator, schemasTypeNo)).body.data;
    expect(after.title).toBe(update.title);
    expect(after.schemas.map((s) => [s.title, s.revision])).toEqual([
      ['Sodium chloride', 2],
      ['Acetone', 1],
    ]);
    expect(after.schemas[0]?.schemaNo).toBe(salt?.schemaNo);
    expect(after.schemas[0]?.entries.at(-1)).toEqual({ field: 'Lot', value: 'A-113', status: 'Y' });
    // Ethanol is gone with its entries.
    expect(await server.database.db.select().from(schemaEntries).where(eq(schemaEntries.schemaNo, alcohol!.schemaNo))).toEqual([]);
    const audit = await lastAudit();
    expect(audit).toMatchObject({ action: 'schema.updated', targetId: String(schemasTypeNo) });
    const sides = {
      before: audit?.before as { schemas: Array<{ title: string; revision: number }> },
      after: audit?.after as { title: string; schemas: Array<{ title: string; revision: number }> },
    };
    expect(sides.before.schemas.map((s) => [s.title, s.revision])).toEqual([
      ['Ethanol', 1],
      ['Sodium chloride', 1],
    ]);
    expect(sides.after.schemas.map((s) => [s.title, s.revision])).toEqual([
      ['Sodium chloride', 2],
      ['Acetone', 1],
    ]);
  });

  it('reorders without new revisions of the schemas, and an unchanged update stores and audits nothing', async () => {
    const { schemasTypeNo } = (await create(curator)).body.data;
    const loaded = (await detail(curator, schemasTypeNo)).body.data;
    const auditBefore = await lastAudit();
    expect((await curator(api.schemas.update, asUpdate(loaded))).body.data).toEqual({ revision: 1 });
    expect((await lastAudit())?.seq).toBe(auditBefore?.seq);
    const swapped = asUpdate(loaded);
    swapped.schemas.reverse();
    expect((await curator(api.schemas.update, swapped)).body.data).toEqual({ revision: 2 });
    const after = (await detail(curator, schemasTypeNo)).body.data;
    expect(after.schemas.map((s) => [s.title, s.revision])).toEqual([
      ['Ethanol', 1],
      ['Sodium chloride', 1],
    ]);
  });

  it('refuses an editor’s stale revision (9006), another type’s schema (4006), a clash and a rule break, storing nothing', async () => {
    const { schemasTypeNo } = (await create(curator)).body.data;
    const other = (await create(curator)).body.data.schemasTypeNo;
    const otherType = (await detail(curator, other)).body.data;
    const loaded = (await detail(curator, schemasTypeNo)).body.data;
    const first = asUpdate(loaded);
    first.description = 'changed by the first editor';
    expect((await curator(api.schemas.update, first)).body.status).toBe('0000');
    const before = await snapshot();

    const stale = asUpdate(loaded);
    stale.description = 'changed by a second editor who loaded revision 1';
    expect((await curator(api.schemas.update, stale)).body.status).toBe(ERR.conflict);

    const fresh = asUpdate((await detail(curator, schemasTypeNo)).body.data);
    const foreign = {
      ...fresh,
      schemas: [
        ...fresh.schemas,
        { schemaNo: otherType.schemas[0]!.schemaNo, title: 'Stolen', description: '', status: 'Y' as const, entries: [] },
      ],
    };
    expect((await curator(api.schemas.update, foreign)).body.status).toBe(ERR.schemaForeign);
    expect((await curator(api.schemas.update, { ...fresh, code: otherType.code })).body.status).toBe(ERR.schemaCodeDuplicate);
    expect((await curator(api.schemas.update, { ...fresh, title: otherType.title })).body.status).toBe(ERR.schemaTitleDuplicate);
    const twice = { ...fresh, schemas: [fresh.schemas[0]!, { ...fresh.schemas[0]!, title: 'Same schema again' }] };
    const sentTwice = await curator(api.schemas.update, twice);
    expect(sentTwice.body.status).toBe(ERR.validation);
    expect(JSON.stringify(sentTwice.body.data)).toContain('schemas.1.schemaNo');
    const tooMany = {
      ...fresh,
      schemas: [
        {
          ...fresh.schemas[0]!,
          entries: Array.from({ length: LIMITS.schemaEntriesPerSchema + 1 }, (_, i) => ({
            field: `f${i}`,
            value: 'v',
            status: 'Y' as const,
          })),
        },
      ],
    };
    expect((await curator(api.schemas.update, tooMany)).body.status).toBe(ERR.validation);
    expect((await researcher(api.schemas.update, fresh)).body.status).toBe(ERR.forbidden);
    expect((await curator(api.schemas.update, { ...fresh, schemasTypeNo: 2_000_000_000 })).body.status).toBe(ERR.schemaCheck);
    expect(await snapshot()).toEqual(before);
  });
});

describe('reading schemas', () => {
  it('lists types newest first with paging, a title substring and a status filter; the unused are the managers’ only', async () => {
    const marker = `Zeta${unique()}`;
    const used = (await create(curator, reagentType({ title: `${marker} kits` }))).body.data.schemasTypeNo;
    const unused = (await create(curator, reagentType({ title: `Old ${marker} stock`, status: 'N' }))).body.data.schemasTypeNo;
    const list = (await curator(api.schemas.list, { value: marker.toLowerCase() })).body.data;
    expect(list).toMatchObject({ totalCount: 2, abilities: { create: true } });
    expect(list.list.map((t) => t.schemasTypeNo)).toEqual([unused, used]);
    expect(list.list[1]).toMatchObject({ schemaCount: 2, status: 'Y', updatedByName: 'Han Curator' });
    const paged = (await curator(api.schemas.list, { value: marker, pageSize: 1, page: 2 })).body.data;
    expect(paged.list.map((t) => t.schemasTypeNo)).toEqual([used]);
    expect((await curator(api.schemas.list, { value: marker, status: 'N' })).body.data.list.map((t) => t.schemasTypeNo)).toEqual([unused]);
    const seen = (await researcher(api.schemas.list, { value: marker })).body.data;
    expect(seen).toMatchObject({ totalCount: 1, abilities: { create: false } });
    expect(seen.list.map((t) => t.schemasTypeNo)).toEqual([used]);
    // An unused type is not there for a researcher: 4003, as spec §8 says for /check.
    expect((await detail(researcher, unused)).body.status).toBe(ERR.schemaCheck);
    expect((await detail(researcher, used)).body.data.abilities).toEqual({ update: false });
    const all = (await researcher(api.schemas.usedTypes)).body.data.list;
    expect(all.some((t) => t.schemasTypeNo === used)).toBe(true);
    expect(all.some((t) => t.schemasTypeNo === unused)).toBe(false);
    const counts = (await researcher(api.dashboard.counts)).body.data;
    expect(counts.schemas).toBe(all.length);
  });

  it('/basic/all lists a type’s schemas without entries and /attr/all one schema’s entries, unused ones only for managers', async () => {
    const { schemasTypeNo } = (
      await create(
        curator,
        reagentType({
          schemas: [
            {
              ...sodiumChloride(),
              entries: [
                { field: 'CAS', value: '7647-14-5' },
                { field: 'Old lot', value: 'X-1', status: 'N' },
              ],
            },
            { ...ethanol(), status: 'N' },
          ],
        }),
      )
    ).body.data;
    const forCurator = (await curator(api.schemas.childList, { schemasTypeNo })).body.data.list;
    expect(forCurator.map((s) => [s.title, s.entryCount, s.status])).toEqual([
      ['Sodium chloride', 2, 'Y'],
      ['Ethanol', 2, 'N'],
    ]);
    const forResearcher = (await researcher(api.schemas.childList, { schemasTypeNo })).body.data.list;
    // The list's count of schemas is what each may read: the unused Ethanol is not counted for a researcher.
    const typeTitle = (await detail(curator, schemasTypeNo)).body.data.title;
    const countIn = async (caller: Caller) =>
      (await caller(api.schemas.list, { value: typeTitle })).body.data.list.find((t) => t.schemasTypeNo === schemasTypeNo)?.schemaCount;
    expect(await countIn(curator)).toBe(2);
    expect(await countIn(researcher)).toBe(1);
    expect((await researcher(api.schemas.usedTypes)).body.data.list.find((t) => t.schemasTypeNo === schemasTypeNo)?.schemaCount).toBe(1);
    expect(forResearcher.map((s) => [s.title, s.entryCount])).toEqual([['Sodium chloride', 1]]);
    const salt = forCurator[0]!;
    const entries = (await researcher(api.schemas.childDetail, { schemaNo: salt.schemaNo })).body.data;
    expect(entries).toMatchObject({ schemaNo: salt.schemaNo, schemasTypeNo, title: 'Sodium chloride', revision: 1 });
    expect(entries.entries).toEqual([{ field: 'CAS', value: '7647-14-5', status: 'Y' }]);
    expect((await researcher(api.schemas.childDetail, { schemaNo: forCurator[1]!.schemaNo })).body.status).toBe(ERR.schemaCheck);
    expect((await curator(api.schemas.childDetail, { schemaNo: forCurator[1]!.schemaNo })).body.data.entries).toHaveLength(2);
    expect((await researcher(api.schemas.childDetail, { schemaNo: 2_000_000_000 })).body.status).toBe(ERR.schemaCheck);
  });

  it('/block hands a note the sealed copy of a used schema of a used type, its used entries only; nothing else, for anyone', async () => {
    const { schemasTypeNo } = (
      await create(
        curator,
        reagentType({
          schemas: [
            {
              ...sodiumChloride(),
              entries: [
                { field: 'CAS', value: '7647-14-5' },
                { field: 'Old lot', value: 'X-1', status: 'N' },
              ],
            },
            { ...ethanol(), status: 'N' },
          ],
        }),
      )
    ).body.data;
    const type = (await detail(curator, schemasTypeNo)).body.data;
    const [salt, spirit] = type.schemas;
    const copy = (await researcher(api.schemas.blockCopy, { schemaNo: salt!.schemaNo })).body.data;
    const { seal, ...copied } = copy;
    expect(copied).toEqual({
      schemasTypeNo,
      schemaNo: salt!.schemaNo,
      typeTitle: type.title,
      title: 'Sodium chloride',
      revision: 1,
      entries: [{ field: 'CAS', value: '7647-14-5' }],
    });
    expect(seal).toBe(server.services.catalogueSeals.seal('schemaBlock', copied).seal);
    // /basic/all says which schemas a note may copy; an unused schema is refused even to its curator.
    const offers = (await curator(api.schemas.childList, { schemasTypeNo })).body.data.list;
    expect(offers.map((o) => [o.title, o.copyable])).toEqual([
      ['Sodium chloride', true],
      ['Ethanol', false],
    ]);
    expect((await curator(api.schemas.blockCopy, { schemaNo: spirit!.schemaNo })).body.status).toBe(ERR.schemaCheck);
    // A type set to unused takes its schemas out of notes' reach too.
    await curator(api.schemas.update, { ...asUpdate(type), status: 'N' });
    expect((await curator(api.schemas.blockCopy, { schemaNo: salt!.schemaNo })).body.status).toBe(ERR.schemaCheck);
    expect((await researcher(api.schemas.blockCopy, { schemaNo: salt!.schemaNo })).body.status).toBe(ERR.schemaCheck);
    expect((await researcher(api.schemas.blockCopy, { schemaNo: 2_000_000_000 })).body.status).toBe(ERR.schemaCheck);
    expect((await researcher(api.schemas.blockCopy, { schemaNo: 'one' })).http).toBe(400);
  });
});
