import { and, eq, sql } from 'drizzle-orm';
import {
  api,
  type CallAnswer,
  type CallInput,
  type CallSpec,
  type CellDropbox,
  type DropboxCreateRequest,
  type PmNode,
  type SchemaBlockAttrs,
  type SchemaCreateRequest,
} from '@eln/shared';
import type { Db } from '../db/client.js';
import { dropboxes, schemas, schemaTypes, users } from '../db/schema.js';
import type { DemoDropboxChoice } from './demoContent.js';
import { demoThumbnailPng } from './demoImage.js';

/**
 * The demo company's catalogues and code lists: what a lab keeps beside its notes, created through the
 * API by people with the schema and dropbox rights.
 */
export const DEMO_SCHEMAS: Array<{ author: string; type: SchemaCreateRequest }> = [
  {
    author: 'jiwoo.kim@demo.eln',
    type: {
      code: 'REAGENT',
      title: 'Reagents 시약',
      description: 'Chemicals in stock, one schema per substance',
      schemas: [
        {
          title: 'Sodium chloride',
          description: 'Reagent grade',
          entries: [
            { field: 'CAS', value: '7647-14-5' },
            { field: 'Molar mass', value: '58.44 g/mol' },
            { field: 'Supplier', value: 'Daejung Chemicals' },
            { field: 'Storage', value: 'Room temperature, dry' },
          ],
        },
        {
          title: 'Ethanol (absolute)',
          entries: [
            { field: 'CAS', value: '64-17-5' },
            { field: 'Purity', value: '≥ 99.5 %' },
            { field: 'Hazard', value: 'Flammable liquid (H225)' },
            { field: 'Storage', value: 'Flammables cabinet' },
          ],
        },
        {
          title: 'Palladium(II) acetate',
          description: 'Catalyst precursor',
          entries: [
            { field: 'CAS', value: '3375-31-3' },
            { field: 'Molar mass', value: '224.51 g/mol' },
            { field: 'Supplier', value: 'Sigma-Aldrich' },
            { field: 'Storage', value: '2-8 °C, under argon' },
          ],
        },
        {
          title: 'Dimethyl sulfoxide',
          entries: [
            { field: 'CAS', value: '67-68-5' },
            { field: 'Grade', value: 'Cell culture' },
            { field: 'Storage', value: 'Room temperature' },
          ],
        },
      ],
    },
  },
  {
    author: 'emma.wilson@demo.eln',
    type: {
      code: 'EQUIPMENT',
      title: 'Equipment 장비',
      description: 'Instruments with their calibration state',
      schemas: [
        {
          title: 'HPLC Agilent 1260',
          entries: [
            { field: 'Asset no.', value: 'EQ-0142' },
            { field: 'Location', value: 'Analytics lab, room 204' },
            { field: 'Last qualification', value: '2026-09-14 (OQ/PQ)' },
          ],
        },
        {
          title: 'Centrifuge 5430R',
          entries: [
            { field: 'Asset no.', value: 'EQ-0088' },
            { field: 'Location', value: 'Biology lab, room 110' },
            { field: 'Max speed', value: '17,500 rpm' },
          ],
        },
        {
          title: 'pH meter SevenCompact',
          entries: [
            { field: 'Asset no.', value: 'EQ-0203' },
            { field: 'Calibration', value: 'Daily, 3-point (4.01 / 7.00 / 10.01)' },
          ],
        },
      ],
    },
  },
];

export const DEMO_DROPBOXES: Array<{ author: string; dropbox: DropboxCreateRequest }> = [
  {
    author: 'minho.park@demo.eln',
    dropbox: {
      title: 'Units',
      status: 'Y',
      rows: [
        { code: 'mg', name: 'milligram' },
        { code: 'mL', name: 'millilitre' },
        { code: 'mM', name: 'millimolar' },
        { code: 'C', name: 'degree Celsius' },
        { code: 'rpm', name: 'revolutions per minute' },
      ],
    },
  },
  {
    author: 'minho.park@demo.eln',
    dropbox: {
      title: 'Solvents',
      status: 'Y',
      rows: [
        { code: 'EtOH', name: 'Ethanol' },
        { code: 'MeOH', name: 'Methanol' },
        { code: 'DMSO', name: 'Dimethyl sulfoxide' },
        { code: 'THF', name: 'Tetrahydrofuran' },
        { code: 'H2O', name: 'Water (deionised)' },
      ],
    },
  },
  {
    author: 'emma.wilson@demo.eln',
    dropbox: {
      title: 'Sample states',
      status: 'Y',
      rows: [
        { code: 'S', name: 'Solid' },
        { code: 'L', name: 'Liquid' },
        { code: 'G', name: 'Gel' },
        { code: 'F', name: 'Frozen (-80 °C)' },
      ],
    },
  },
];

/** Makes a call of the route table as one user; answers its data (and throws on a refusal). */
type Call = <C extends CallSpec>(spec: C, body: CallInput<C>) => Promise<CallAnswer<C>>;

/** Calls the API as one user: a call of the route table, and a file upload for an owner (answering the file's ID). */
type Caller = Call & {
  upload(owner: { labNoteNo: number } | { schemasTypeNo: number }, name: string, content: Buffer): Promise<string>;
};
export type CallAs = (userNo: number) => Promise<Caller>;

export async function userNoOf(db: Db, userId: string): Promise<number> {
  const [row] = await db.select({ userNo: users.userNo }).from(users).where(eq(users.userId, userId));
  if (!row) throw new Error(`demo user ${userId} missing`);
  return row.userNo;
}

/** Adds the catalogues and code lists that are not there yet (by code or title); answers how many it added. */
export async function seedLibraries(db: Db, as: CallAs): Promise<number> {
  let added = 0;
  for (const { author, type } of DEMO_SCHEMAS) {
    const [exists] = await db
      .select()
      .from(schemaTypes)
      .where(sql`lower(${schemaTypes.code}) = lower(${type.code})`);
    if (exists?.thumbnailFileId) continue;
    const asAuthor = await as(await userNoOf(db, author));
    const schemasTypeNo = exists?.schemasTypeNo ?? (await asAuthor(api.schemas.create, type)).schemasTypeNo;
    // A run stopped between the two leaves a type without its picture: the next run adds it.
    const fileId = await asAuthor.upload({ schemasTypeNo }, `${type.code.toLowerCase()}.png`, demoThumbnailPng(type.code));
    await asAuthor(api.schemas.setThumbnail, { schemasTypeNo, fileId });
    added += 1;
  }
  for (const { author, dropbox } of DEMO_DROPBOXES) {
    const [exists] = await db.select({ no: dropboxes.dropboxNo }).from(dropboxes).where(eq(dropboxes.title, dropbox.title));
    if (exists) continue;
    await (
      await as(await userNoOf(db, author))
    )(api.dropboxes.create, dropbox);
    added += 1;
  }
  return added;
}

/** The server's sealed copy of a demo schema (by type code and schema title), as a writer's dialog gets it. */
async function demoSchemaBlock(
  db: Db,
  call: Call,
  { typeCode, schemaTitle }: { typeCode: string; schemaTitle: string },
): Promise<SchemaBlockAttrs> {
  const [row] = await db
    .select({ schemaNo: schemas.schemaNo })
    .from(schemas)
    .innerJoin(schemaTypes, eq(schemaTypes.schemasTypeNo, schemas.schemasTypeNo))
    .where(and(eq(schemaTypes.code, typeCode), eq(schemas.title, schemaTitle)));
  if (!row) throw new Error(`demo schema ${typeCode} / ${schemaTitle} missing`);
  return call(api.schemas.blockCopy, { schemaNo: row.schemaNo });
}

/** The server's sealed copy of a demo dropbox (by title) and one of its rows, as a writer's dialog gets it. */
async function demoCellDropbox(db: Db, call: Call, { demoDropbox, code }: DemoDropboxChoice): Promise<CellDropbox> {
  const [row] = await db.select({ dropboxNo: dropboxes.dropboxNo }).from(dropboxes).where(eq(dropboxes.title, demoDropbox));
  if (!row) throw new Error(`demo dropbox ${demoDropbox} missing`);
  return call(api.dropboxes.cellCopy, { dropboxNo: row.dropboxNo, code });
}

const isPlaceholder = <K extends string>(value: unknown, key: K): value is Record<K, string> =>
  typeof value === 'object' && value !== null && typeof (value as Record<string, unknown>)[key] === 'string';

/** The demo content with its schema blocks and dropbox cells copied (through `call`) from the catalogues the seed made. */
export async function withDemoCatalogues(db: Db, call: Call, node: PmNode): Promise<PmNode> {
  const content = node.content ? await Promise.all(node.content.map((child) => withDemoCatalogues(db, call, child))) : undefined;
  let attrs = node.attrs;
  if (node.type === 'schemaBlock' && isPlaceholder(attrs?.demoSchema, 'typeCode')) {
    const { demoSchema, ...rest } = attrs;
    attrs = { ...rest, ...(await demoSchemaBlock(db, call, demoSchema as { typeCode: string; schemaTitle: string })) };
  }
  if (node.type === 'tableCell' && isPlaceholder(attrs?.dropbox, 'demoDropbox'))
    attrs = { ...attrs, dropbox: await demoCellDropbox(db, call, attrs.dropbox as DemoDropboxChoice) };
  return { ...node, ...(attrs ? { attrs } : {}), ...(content ? { content } : {}) };
}
