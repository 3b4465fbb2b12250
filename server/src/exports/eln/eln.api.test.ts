import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createWriteStream, existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { and, count, eq, inArray } from 'drizzle-orm';
import { ROCrate } from 'ro-crate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yazl from 'yazl';
import { api, ELN_IMPORT_LIMITS, noteDocumentName, type SavedBlock } from '@eln/shared';
import { verifyAuditChain } from '../../audit/audit.js';
import { auditLog, files, labNotes, noteSignatures, noteVersions, projects, users } from '../../db/schema.js';
import type { Db } from '../../db/client.js';
import { DatabaseDocumentStore } from '../../collab/persistence/documentStore.js';
import { contentOfState } from '../../collab/commands/liveDocuments.js';
import { DEMO_PASSWORD, seedDemo } from '../../seed/demoData.js';
import { startTestServer, type TestServer } from '../../testing/harness.js';
import { appendParagraph, connectWriter, eventually } from '../../testing/live.js';
import { storedFilesUnder } from '../../testing/storedFiles.js';
import { toAuthFlags } from '../../users/flags.js';
import { exportNoteNos, type ExportNote, type ExportProject } from '../projectContent.js';
import { CONSORTIUM_SCHEMA } from './consortiumSchema.js';
import {
  exportPublicKey,
  importElnArchive,
  writeElnArchive,
  type ElnExportOptions,
  type ElnExportResult,
  type ElnImportUser,
} from './index.js';
import { generateSigningKey, minisignPublicKeyFile, minisignSignature } from './minisign.js';

const run = promisify(execFile);
const MINISIGN = '/usr/bin/minisign';
const FIXTURES = path.join(path.dirname(new URL(import.meta.url).pathname), 'fixtures');

interface CrateEntity {
  '@id': string;
  '@type': string | string[];
  [property: string]: unknown;
}
interface CrateJson {
  '@context': unknown;
  '@graph': CrateEntity[];
}
interface ValidatorResult {
  id: string;
  status: string;
  message: string;
}
interface CrateValidator {
  results: ValidatorResult[];
  rootDataEntity(): void;
  checkFiles(files: Record<string, { exists: boolean; inCrate: boolean; isDir: boolean }>, crate?: unknown): void;
}
/** ro-crate's validator (its typings leave it out). */
const { Validator } = createRequire(import.meta.url)('ro-crate') as { Validator: new (crate: unknown) => CrateValidator };

let server: TestServer;
let db: Db;
let work: string;
let importer: ElnImportUser;
let importerPassword: string;
/** The CRISPR project's export, extracted once; each refusal case copies it. */
let crispr: { projectNo: number; archive: string; result: ElnExportResult; dir: string; root: string; crate: CrateJson };
const pdfCalls: Array<{ project: ExportProject; note: ExportNote }> = [];

const types = (e: CrateEntity) => ([] as string[]).concat(e['@type']);
const refIds = (value: unknown): string[] => ([] as unknown[]).concat(value ?? []).map((r) => (r as { '@id': string })['@id']);
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function userNamed(userId: string): Promise<ElnImportUser> {
  const [row] = await db.select().from(users).where(eq(users.userId, userId));
  if (!row) throw new Error(`no user ${userId}`);
  return { userNo: row.userNo, userId: row.userId, name: row.name, auth: toAuthFlags(row) };
}

async function projectNoOf(title: string): Promise<number> {
  const [row] = await db.select().from(projects).where(eq(projects.title, title));
  if (!row) throw new Error(`no project ${title}`);
  return row.projectNo;
}

/** A stand-in for the PDF maker (built elsewhere): a small PDF-looking file naming the note. */
async function fakePdf(project: ExportProject, note: ExportNote): Promise<Buffer> {
  pdfCalls.push({ project, note });
  return Buffer.from(`%PDF-1.7\n% ${note.labNoteNumber} v${note.latest?.version}\n%%EOF\n`);
}

async function exportProject(
  projectNo: number,
  name: string,
  extra: Partial<ElnExportOptions> = {},
  progress: Array<[number, number]> = [],
) {
  const archive = path.join(work, `${name}.eln`);
  const admin = await userNamed(server.admin.userId);
  const result = await writeElnArchive(
    db,
    {
      projectNo,
      noteNos: await exportNoteNos(db, projectNo),
      filesDir: server.config.filesDir,
      exportedAt: new Date('2026-05-04T01:30:00.000Z'),
      exportedBy: { userId: admin.userId, name: admin.name },
      lang: 'en',
      timeZone: 'Asia/Seoul',
      organization: 'ELN Laboratories',
      notePdf: fakePdf,
      ...extra,
    },
    createWriteStream(archive),
    (done, total) => progress.push([done, total]),
  );
  return { archive, result };
}

/** Unpacks with Debian's unzip (not the code under test); answers the folder, the root folder and the crate. */
async function extract(archive: string, name: string): Promise<{ dir: string; root: string; crate: CrateJson }> {
  const dir = path.join(work, `x-${name}`);
  await mkdir(dir, { recursive: true });
  await run('unzip', ['-q', archive, '-d', dir]);
  const [root, ...others] = await readdir(dir);
  expect(others).toEqual([]);
  const crate = JSON.parse(await readFile(path.join(dir, root!, 'ro-crate-metadata.json'), 'utf8')) as CrateJson;
  return { dir, root: root!, crate };
}

/** Zips folders (with Debian's zip) into a new archive: how a tampered copy is made. */
async function rezip(parent: string, folders: string[], name: string): Promise<string> {
  const archive = path.join(work, `${name}.eln`);
  await rm(archive, { force: true });
  await run('zip', ['-q', '-r', '-X', archive, ...folders], { cwd: parent });
  return archive;
}

/** A fresh copy of the CRISPR export's folder to change. */
async function copyOfExport(name: string): Promise<{ parent: string; rootDir: string }> {
  const parent = path.join(work, `t-${name}`);
  await cp(crispr.dir, parent, { recursive: true });
  return { parent, rootDir: path.join(parent, crispr.root) };
}

/** What an import could have written: counted before and after a refusal. */
async function state() {
  const counted = async (table: typeof projects | typeof labNotes | typeof files | typeof auditLog | typeof noteVersions) =>
    (await db.select({ n: count() }).from(table))[0]!.n;
  return {
    projects: await counted(projects),
    notes: await counted(labNotes),
    versions: await counted(noteVersions),
    files: await counted(files),
    audit: await counted(auditLog),
    stored: (await storedFilesUnder(server.config.filesDir)).sort(),
  };
}

async function expectRefused(archive: string, code: string, user: ElnImportUser = importer) {
  const before = await state();
  await expect(importElnArchive(db, server.config, user, archive, { lang: 'en' })).rejects.toMatchObject({ code });
  expect(await state()).toEqual(before);
}

/**
 * The ELN Consortium's checks (TheELNFileFormat tests/checks.py: checkParamMetadataJson), ported: the
 * descriptor has version and sdPublisher (and conformsTo), every entity of the root's hasPart tree occurs
 * once, has a @type, and is named when a Dataset or File; keywords are never a list; no empty values.
 */
function consortiumProblems(crate: CrateJson): string[] {
  const problems: string[] = [];
  const graph = crate['@graph'];
  const descriptors = graph.filter((e) => e['@id'] === 'ro-crate-metadata.json');
  if (descriptors.length !== 1) problems.push('descriptor not unique');
  for (const key of ['version', 'sdPublisher', 'conformsTo'])
    if (!(key in (descriptors[0] ?? {}))) problems.push(`descriptor lacks ${key}`);
  const visit = (id: string, depth: number) => {
    const nodes = graph.filter((e) => e['@id'] === id);
    if (nodes.length !== 1) return problems.push(`${id} occurs ${nodes.length} times`);
    const node = nodes[0]!;
    if (types(node).includes('Dataset') && !node.name) problems.push(`Dataset ${id} has no name`);
    if (types(node).includes('File') && !node.name) problems.push(`File ${id} has no name`);
    if (Array.isArray(node.keywords)) problems.push(`${id} has a list of keywords`);
    for (const [key, value] of Object.entries(node)) if (!String(value).trim()) problems.push(`${id} has an empty ${key}`);
    if (depth < 10) for (const child of refIds(node.hasPart)) visit(child, depth + 1);
  };
  const root = graph.find((e) => e['@id'] === './');
  if (!root) problems.push('no root dataset');
  for (const child of refIds(root?.hasPart)) visit(child, 0);
  return problems;
}

async function minisignVerify(rootDir: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(MINISIGN, [
      '-V',
      '-p',
      path.join(rootDir, 'eln-export-key.pub'),
      '-m',
      path.join(rootDir, 'ro-crate-metadata.json'),
    ]);
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof failed.code === 'number' ? failed.code : -1, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

async function listFiles(dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(`${relative}/`, ...(await listFiles(path.join(dir, entry.name), relative)));
    else out.push(relative);
  }
  return out;
}

beforeAll(async () => {
  for (const tool of [MINISIGN, '/usr/bin/unzip', '/usr/bin/zip', '/usr/bin/sha256sum'])
    expect(existsSync(tool), `${tool} is missing (apt-get install minisign unzip zip coreutils)`).toBe(true);
  work = await mkdtemp(path.join(os.tmpdir(), 'eln-archive-'));
  server = await startTestServer();
  db = server.database.db;
  server.config.filesDir = path.join(work, 'files');
  await seedDemo(server, db);
  const baseUrl = await server.listen();

  // The template note of the CRISPR project (a table and its chart) saved twice, the second time with a
  // paragraph typed in a live editor, so the archive holds more than one version.
  const junho = await server.as({ userId: 'junho.jung@demo.eln', password: DEMO_PASSWORD });
  const [b7] = await db.select().from(labNotes).where(eq(labNotes.title, 'B7 passage 3'));
  expect((await junho(api.notes.saveVersion, { labNoteNo: b7!.noteNo, version: 0, blockList: [] })).body.status).toBe('0000');
  const { accessToken } = await server.signIn('junho.jung@demo.eln', DEMO_PASSWORD);
  const editor = await connectWriter(baseUrl, noteDocumentName(b7!.noteNo), accessToken);
  appendParagraph(editor.doc, 'Day 4: split 1:3 into T75 flasks. 계대 배양 完了.');
  await eventually(() => editor.allDurable(), 'the paragraph to be stored');
  editor.destroy();
  expect((await junho(api.notes.saveVersion, { labNoteNo: b7!.noteNo, version: 1, blockList: [] })).body.status).toBe('0000');
  // And a note never saved.
  const projectNo = await projectNoOf('CRISPR knock-out line B7');
  expect((await junho(api.notes.create, { projectNo, title: 'Plan for round 2' })).body.status).toBe('0000');

  const created = await server.createUser({ name: '가져오기 Importer' });
  importerPassword = created.password;
  importer = await userNamed(created.userId);
  const progress: Array<[number, number]> = [];
  const exported = await exportProject(projectNo, 'crispr', {}, progress);
  crispr = { projectNo, ...exported, ...(await extract(exported.archive, 'crispr')) };
  // Progress: from 0 to the total, one step per note and one for the crate.
  expect(progress[0]).toEqual([0, 4]);
  expect(progress.at(-1)).toEqual([4, 4]);
}, 180_000);

afterAll(async () => {
  await server?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('.eln export', () => {
  it('is a ZIP with exactly one root folder holding the crate, its signature and the public key', async () => {
    const { stdout } = await run('unzip', ['-Z1', crispr.archive]);
    const names = stdout.trim().split('\n');
    expect(new Set(names.map((n) => n.split('/')[0]))).toEqual(new Set([crispr.root]));
    expect(names.every((n) => n.startsWith(`${crispr.root}/`) && !n.includes('..'))).toBe(true);
    expect(crispr.root).toBe('CRISPR-knock-out-line-B7-2026-05-04');
    expect(crispr.result.fileName).toBe(`${crispr.root}.eln`);
    for (const file of ['ro-crate-metadata.json', 'ro-crate-metadata.json.minisig', 'eln-export-key.pub', 'SHA256SUMS'])
      expect(names).toContain(`${crispr.root}/${file}`);
    // The archive's own size and hash, as measured while writing.
    const bytes = await readFile(crispr.archive);
    expect(crispr.result.bytes).toBe(bytes.length);
    expect(crispr.result.sha256).toBe(sha256(bytes));
    expect(crispr.result).toMatchObject({ noteCount: 3, damagedFiles: [] });
  });

  it('passes the consortium rules, its JSON Schema (ajv) and the ro-crate validator', async () => {
    const { crate, dir, root } = crispr;
    expect(consortiumProblems(crate)).toEqual([]);
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats(ajv);
    const validate = ajv.compile(CONSORTIUM_SCHEMA);
    expect(validate(crate), JSON.stringify(validate.errors)).toBe(true);

    expect(crate['@context']).toBe('https://w3id.org/ro/crate/1.2/context');
    const graph = new Map(crate['@graph'].map((e) => [e['@id'], e]));
    expect(graph.get('ro-crate-metadata.json')).toMatchObject({
      '@type': 'CreativeWork',
      about: { '@id': './' },
      conformsTo: { '@id': 'https://w3id.org/ro/crate/1.2' },
      version: '1.0',
      sdPublisher: { '@id': '#publisher' },
    });
    const rootEntity = graph.get('./')!;
    expect(rootEntity).toMatchObject({
      '@type': 'Dataset',
      datePublished: '2026-05-04T01:30:00.000Z',
      license: { '@id': '#license' },
      version: '1',
    });
    expect(graph.get('#publisher')).toMatchObject({ '@type': 'Organization', name: 'ELN Laboratories' });

    const rocrate = new ROCrate(crate, { array: true, link: true });
    await rocrate.resolveContext();
    expect(rocrate.resolveTerm('sha256')).toBe('http://schema.org/sha256');
    const validator = new Validator(rocrate);
    validator.rootDataEntity();
    const onDisk = Object.fromEntries(
      (await listFiles(path.join(dir, root))).map((f) => [f, { exists: true, inCrate: false, isDir: f.endsWith('/') }]),
    );
    validator.checkFiles(onDisk);
    expect(validator.results.filter((r) => r.status === 'error')).toEqual([]);
    // Every file on disk is described, but the signature (what it signs cannot list it); the notes' `files/`
    // folders are only folders (a warning).
    const undescribed = validator.results
      .filter((r) => r.id === 'validCrateDataEntityInCrateDir')
      .map((r) => (r as ValidatorResult & { entity: string }).entity);
    expect(undescribed.filter((entry) => !/(^|\/)files\/$/.test(entry))).toEqual(['ro-crate-metadata.json.minisig']);
  });

  it('lists every file with name, encodingFormat, contentSize (a string) and a sha256 that matches, for sha256sum -c too', async () => {
    const rootDir = path.join(crispr.dir, crispr.root);
    const fileEntities = crispr.crate['@graph'].filter((e) => types(e).includes('File'));
    expect(fileEntities.length).toBeGreaterThan(8);
    for (const entity of fileEntities) {
      expect(entity).toMatchObject({
        name: expect.any(String),
        encodingFormat: expect.any(String),
        contentSize: expect.any(String),
        sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      });
      const bytes = await readFile(path.join(rootDir, entity['@id'].replace(/^\.\//, '')));
      expect(entity.contentSize, entity['@id']).toBe(String(bytes.length));
      expect(entity.sha256, entity['@id']).toBe(sha256(bytes));
    }
    const sums = await run('sha256sum', ['-c', '--strict', 'SHA256SUMS'], { cwd: rootDir });
    expect(sums.stdout.trim().split('\n')).toHaveLength(fileEntities.length - 1);
    expect(sums.stdout).not.toContain('FAILED');
  });

  it('is verified offline by minisign -V with the shipped public key, and refused once one byte of the crate changes', async () => {
    const rootDir = path.join(crispr.dir, crispr.root);
    const { keyId, minisignPub } = await exportPublicKey(db);
    expect(await readFile(path.join(rootDir, 'eln-export-key.pub'), 'utf8')).toBe(minisignPub);
    expect(crispr.result.keyId).toBe(keyId);
    const verified = await minisignVerify(rootDir);
    expect(verified.code, verified.output).toBe(0);
    expect(verified.output).toContain('Signature and comment signature verified');
    expect(verified.output).toContain('project:');
    expect(verified.output).toContain('CRISPR knock-out line B7');
    expect(verified.output).toContain(`exporter:${server.admin.userId}`);

    const { rootDir: tampered } = await copyOfExport('minisign');
    const metadata = await readFile(path.join(tampered, 'ro-crate-metadata.json'));
    metadata[200] = metadata[200]! ^ 0x01;
    await writeFile(path.join(tampered, 'ro-crate-metadata.json'), metadata);
    expect((await minisignVerify(tampered)).code).not.toBe(0);
  });

  it('holds the project and its notes as Datasets, each version as blocks and HTML, the PDF, images, people, signatures, template origin and audit records', async () => {
    const graph = new Map(crispr.crate['@graph'].map((e) => [e['@id'], e]));
    const project = graph.get('project/')!;
    expect(project).toMatchObject({ '@type': 'Dataset', name: 'CRISPR knock-out line B7' });
    const notes = refIds(project.hasPart).map((id) => graph.get(id)!);
    expect(notes.map((n) => n.name).sort()).toEqual(['B7 passage 3', 'Clone genotyping PCR', 'Plan for round 2']);
    for (const note of notes) expect(note).toMatchObject({ '@type': 'Dataset', identifier: expect.stringMatching(/^LN-\d{4}-\d{6}$/) });
    // People are top-level Person entities, referred to by @id.
    for (const entity of crispr.crate['@graph']) {
      for (const key of ['author', 'agent'])
        for (const id of refIds(entity[key])) expect(types(graph.get(id)!), `${entity['@id']} ${key}`).toContain('Person');
    }

    // The twice-saved note: both versions as JSON and HTML, the latest as PDF; its template origin.
    const b7 = notes.find((n) => n.name === 'B7 passage 3')!;
    const [b7Row] = await db.select().from(labNotes).where(eq(labNotes.title, 'B7 passage 3'));
    const parts = refIds(b7.hasPart).map((id) => graph.get(id)!);
    expect(parts.map((p) => p.name).sort()).toEqual([`${b7Row!.labNoteNumber}-v2.pdf`, 'v1.html', 'v1.json', 'v2.html', 'v2.json']);
    const rootDir = path.join(crispr.dir, crispr.root);
    for (const version of [1, 2]) {
      const file = JSON.parse(await readFile(path.join(rootDir, 'project', b7Row!.labNoteNumber, `v${version}.json`), 'utf8')) as {
        blocks: SavedBlock[];
        blocksHash: string;
      };
      const [stored] = await db
        .select()
        .from(noteVersions)
        .where(and(eq(noteVersions.noteNo, b7Row!.noteNo), eq(noteVersions.version, version)));
      expect(file.blocks).toEqual(stored!.blocks);
      expect(file.blocksHash).toBe(stored!.blocksHash);
    }
    const v2Html = await readFile(path.join(rootDir, 'project', b7Row!.labNoteNumber, 'v2.html'), 'utf8');
    expect(v2Html).toContain('Day 4: split 1:3 into T75 flasks. 계대 배양 完了.');
    expect(v2Html).toContain('<table');
    expect(pdfCalls.filter((c) => c.note.noteNo === b7Row!.noteNo).map((c) => [c.project.projectNo, c.note.latest?.version])).toEqual([
      [crispr.projectNo, 2],
    ]);
    expect(await readFile(path.join(rootDir, 'project', b7Row!.labNoteNumber, `${b7Row!.labNoteNumber}-v2.pdf`), 'utf8')).toContain(
      '%PDF-',
    );
    const template = graph.get(refIds(b7.isBasedOn)[0]!)!;
    expect(template).toMatchObject({ '@type': 'CreativeWork', name: expect.any(String), version: expect.stringMatching(/^\d+\.\d+$/) });
    expect(crispr.crate['@graph'].find((e) => types(e).includes('CreateAction') && refIds(e.result)[0] === b7['@id'])).toMatchObject({
      instrument: { '@id': template['@id'] },
    });

    // The signed note: its photographed gel (linked from the HTML by its place in the archive) and its signature.
    const pcr = notes.find((n) => n.name === 'Clone genotyping PCR')!;
    const [pcrRow] = await db.select().from(labNotes).where(eq(labNotes.title, 'Clone genotyping PCR'));
    const [gel] = await db.select().from(files).where(eq(files.noteNo, pcrRow!.noteNo));
    const gelEntity = graph.get(`project/${pcrRow!.labNoteNumber}/files/${gel!.fileId}.png`)!;
    expect(gelEntity).toMatchObject({
      '@type': 'File',
      name: gel!.originName,
      encodingFormat: 'image/png',
      sha256: gel!.sha256,
      contentSize: String(gel!.size),
      identifier: gel!.fileId,
    });
    expect(await readFile(path.join(rootDir, 'project', pcrRow!.labNoteNumber, 'v1.html'), 'utf8')).toContain(
      `src="files/${gel!.fileId}.png"`,
    );
    const [signature] = await db
      .select()
      .from(noteSignatures)
      .where(and(eq(noteSignatures.noteNo, pcrRow!.noteNo), eq(noteSignatures.status, 'T')));
    const comment = refIds(pcr.comment)
      .map((id) => graph.get(id)!)
      .find((c) => c.creativeWorkStatus === 'signed, intact')!;
    expect(comment).toMatchObject({
      '@type': 'Comment',
      genre: 'reviewer signature',
      alternateName: signature!.signatureName,
      version: '1',
      identifier: signature!.blocksHash,
      dateCreated: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+09:00$/),
      about: { '@id': `project/${pcrRow!.labNoteNumber}/v1.json` },
    });
    expect(new Date(comment.dateCreated as string).getTime()).toBe(signature!.signedAt!.getTime());
    expect(comment.text).toContain('Asia/Seoul');
    expect(comment.text).toContain(signature!.blocksHash!);

    // The project's audit records as Actions, each with its hash and the fields the hash covers.
    const actions = crispr.crate['@graph'].filter((e) => e['@id'].startsWith('#audit-'));
    const records = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetType, 'note'), eq(auditLog.targetId, String(pcrRow!.noteNo))));
    expect(records.length).toBeGreaterThan(2);
    for (const record of records) {
      const action = actions.find((a) => a['@id'] === `#audit-${record.seq}`)!;
      expect(action).toMatchObject({ '@type': 'Action', name: record.action, identifier: record.hash, object: { '@id': pcr['@id'] } });
      expect(JSON.parse(action.description as string)).toMatchObject({ seq: record.seq, prevHash: record.prevHash, action: record.action });
    }
    expect(actions.some((a) => a.name === 'project.created' && refIds(a.object)[0] === 'project/')).toBe(true);
  });

  it('writes declined and pending signatures as Comments too', async () => {
    const { archive } = await exportProject(await projectNoOf('HPLC method validation'), 'hplc');
    const { crate } = await extract(archive, 'hplc');
    const comments = crate['@graph'].filter((e) => types(e).includes('Comment') && e.genre === 'reviewer signature');
    expect(comments.map((c) => c.creativeWorkStatus).sort()).toEqual(['declined', 'signed, intact']);
    expect(comments.find((c) => c.creativeWorkStatus === 'declined')!.text).toContain('I am away until the 30th');
    expect(consortiumProblems(crate)).toEqual([]);
  });
});

describe('.eln import', () => {
  /** A demo project exported and imported: blocks, files and signatures compared with the originals. */
  async function roundTrip(title: string) {
    const projectNo = await projectNoOf(title);
    const { archive } = await exportProject(projectNo, `round-${projectNo}`);
    const imported = await importElnArchive(db, server.config, importer, archive, { lang: 'en' });
    const originals = await db.select().from(labNotes).where(eq(labNotes.projectNo, projectNo));
    const copies = await db.select().from(labNotes).where(eq(labNotes.projectNo, imported.projectNo));
    expect(imported).toMatchObject({ signed: 'thisServer', noteCount: originals.length });
    expect(copies.map((n) => n.title).sort()).toEqual(originals.map((n) => n.title).sort());
    const asImporter = await server.as({ userId: importer.userId, password: importerPassword });
    for (const original of originals) {
      const copy = copies.find((n) => n.title === original.title)!;
      expect(copy).toMatchObject({ status: 'W', version: 1, writerUserNo: importer.userNo, templateNo: null });
      // Files: the same bytes, in new rows of the new note, stored anew.
      const originalFiles = await db.select().from(files).where(eq(files.noteNo, original.noteNo));
      const copyFiles = await db.select().from(files).where(eq(files.noteNo, copy.noteNo));
      expect(copyFiles.map((f) => [f.originName, f.sha256, f.size]).sort()).toEqual(
        originalFiles.map((f) => [f.originName, f.sha256, f.size]).sort(),
      );
      for (const file of copyFiles) expect(sha256(await readFile(path.join(server.config.filesDir, file.storagePath)))).toBe(file.sha256);
      const oldIdOf = new Map(copyFiles.map((f) => [f.fileId, originalFiles.find((o) => o.sha256 === f.sha256)!.fileId]));
      // Blocks: the original latest version's, in order and with their IDs, then the history section.
      const [copyVersion] = await db.select().from(noteVersions).where(eq(noteVersions.noteNo, copy.noteNo));
      const copyBlocks = copyVersion!.blocks as SavedBlock[];
      const [originalVersion] = original.version
        ? await db
            .select()
            .from(noteVersions)
            .where(and(eq(noteVersions.noteNo, original.noteNo), eq(noteVersions.version, original.version)))
        : [];
      const originalBlocks = (originalVersion?.blocks ?? []) as SavedBlock[];
      const withOldFileIds = (block: SavedBlock) => ({
        ...block,
        content: [...oldIdOf].reduce((text, [id, old]) => text.replaceAll(id, old), block.content),
      });
      expect(copyBlocks.slice(0, originalBlocks.length).map(withOldFileIds)).toEqual(originalBlocks);
      const history = copyBlocks.slice(originalBlocks.length);
      expect(history[0]?.blockClass).toBe('horizontalRule');
      expect(JSON.parse(history[1]!.content)).toMatchObject({ type: 'heading', content: [{ text: 'Imported record (history only)' }] });
      const historyText = history.map((b) => b.content).join('\n');
      expect(historyText).toContain(original.labNoteNumber);
      expect(historyText).toContain("verified with this server's key");
      // Signatures: history only, never live.
      const signed = await db
        .select()
        .from(noteSignatures)
        .where(and(eq(noteSignatures.noteNo, original.noteNo), eq(noteSignatures.status, 'T')));
      for (const signature of signed) {
        expect(historyText).toContain(signature.blocksHash!);
        expect(historyText).toContain(`printed name “${signature.signatureName}”`);
        expect(historyText).toContain('reviewer signature');
      }
      expect(await db.select().from(noteSignatures).where(eq(noteSignatures.noteNo, copy.noteNo))).toEqual([]);
      // The live document is the saved version: nothing unsaved, and the importer may write it.
      const state = await new DatabaseDocumentStore(server.database).load(noteDocumentName(copy.noteNo));
      expect(state).not.toBeNull();
      expect(contentOfState(state!).content?.length).toBe(copyBlocks.length);
      const listed = await asImporter(api.notes.blockList, { labNoteNo: copy.noteNo });
      expect(listed.body.status).toBe('0000');
      expect(listed.body.data).toMatchObject({
        changed: false,
        note: { version: 1, status: 'W', signatureList: [], abilities: { write: true } },
      });
    }
    return imported;
  }

  it('round-trips every demo project: same blocks, same files, signatures as history only, notes writable', async () => {
    const titles = (await db.select({ title: projects.title }).from(projects)).map((p) => p.title);
    for (const title of titles) await roundTrip(title);
    expect(await verifyAuditChain(db)).toMatchObject({ ok: true });
  }, 120_000);

  it('audits the import with the original signatures, and makes a taken title unique', async () => {
    const first = await importElnArchive(db, server.config, importer, crispr.archive, {
      lang: 'en',
      archiveName: 'crispr.eln',
      clientAddress: '203.0.113.7',
    });
    const second = await importElnArchive(db, server.config, importer, crispr.archive, { lang: 'ko' });
    expect(second.title).not.toBe(first.title);
    expect(second.title).toMatch(/^CRISPR knock-out line \(\d+\)$/);
    const [record] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'export.imported'), eq(auditLog.targetId, String(first.projectNo))));
    const [signature] = await db
      .select()
      .from(noteSignatures)
      .innerJoin(labNotes, eq(labNotes.noteNo, noteSignatures.noteNo))
      .where(and(eq(labNotes.title, 'Clone genotyping PCR'), eq(noteSignatures.status, 'T')));
    expect(record).toMatchObject({ actorUserNo: importer.userNo, targetType: 'project', clientAddress: '203.0.113.7' });
    expect(record!.after).toMatchObject({ archive: 'crispr.eln', signed: 'thisServer' });
    expect(JSON.stringify(record!.after)).toContain(signature!.note_signatures.blocksHash!);
    // The Korean import writes its history section in Korean.
    const [koNote] = await db
      .select()
      .from(labNotes)
      .where(and(eq(labNotes.projectNo, second.projectNo), eq(labNotes.title, 'Clone genotyping PCR')));
    const [koVersion] = await db.select().from(noteVersions).where(eq(noteVersions.noteNo, koNote!.noteNo));
    expect(JSON.stringify(koVersion!.blocks)).toContain('가져온 기록 (이력 전용)');
    const notes = await db.select().from(labNotes).where(eq(labNotes.projectNo, first.projectNo));
    const created = await db
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.action, 'note.created'),
          inArray(
            auditLog.targetId,
            notes.map((n) => String(n.noteNo)),
          ),
        ),
      );
    expect(created).toHaveLength(notes.length);
  });

  it('imports an archive signed by another key as otherKey, and an unsigned one (sha256 still checked) as unsigned', async () => {
    // Re-signed by another notebook's key, shipped in the archive (its hash updated in the crate first).
    const { parent, rootDir } = await copyOfExport('other-key');
    const other = generateSigningKey();
    const pub = Buffer.from(minisignPublicKeyFile(other));
    await writeFile(path.join(rootDir, 'eln-export-key.pub'), pub);
    const crate = JSON.parse(await readFile(path.join(rootDir, 'ro-crate-metadata.json'), 'utf8')) as CrateJson;
    Object.assign(
      crate['@graph'].find((e) => e['@id'] === 'eln-export-key.pub')!,
      { sha256: sha256(pub), contentSize: String(pub.length) },
    );
    const metadata = Buffer.from(JSON.stringify(crate));
    await writeFile(path.join(rootDir, 'ro-crate-metadata.json'), metadata);
    await writeFile(
      path.join(rootDir, 'ro-crate-metadata.json.minisig'),
      minisignSignature(other, metadata, { untrusted: 'other', trusted: 'another notebook' }),
    );
    const otherKey = await importElnArchive(db, server.config, importer, await rezip(parent, [crispr.root], 'other-key'), { lang: 'en' });
    expect(otherKey).toMatchObject({ signed: 'otherKey', keyId: other.keyId, noteCount: 3 });

    const unsignedCopy = await copyOfExport('unsigned');
    await rm(path.join(unsignedCopy.rootDir, 'ro-crate-metadata.json.minisig'));
    const unsigned = await importElnArchive(db, server.config, importer, await rezip(unsignedCopy.parent, [crispr.root], 'unsigned'), {
      lang: 'en',
    });
    expect(unsigned).toMatchObject({ signed: 'unsigned', keyId: null, noteCount: 3 });
  });

  it('accepts an eLabFTW archive: experiments become notes with their text, image and comments; a type it refuses is left out', async () => {
    const archive = path.join(FIXTURES, 'elabftw-export.eln');
    const result = await importElnArchive(db, server.config, importer, archive, { lang: 'en' });
    expect(result).toMatchObject({ signed: 'unsigned', noteCount: 12, fileCount: 1, title: 'eLabFTW export' });
    expect(result.skippedFiles).toEqual(['./Molecular-biology - Facilis-illum-sed-reprehenderit - a7658b02/autesse.json']);
    const notes = await db.select().from(labNotes).where(eq(labNotes.projectNo, result.projectNo));
    expect(notes.every((n) => [...n.title].length <= 25)).toBe(true);
    const blocksOf = async (title: string) => {
      const note = notes.find((n) => n.title === title);
      const [version] = await db.select().from(noteVersions).where(eq(noteVersions.noteNo, note!.noteNo));
      return version!.blocks as SavedBlock[];
    };
    const aspirin = await blocksOf('Synthesis of Aspirin');
    expect(aspirin[0]).toMatchObject({ blockClass: 'heading-1' });
    expect(JSON.parse(aspirin[0]!.content)).toMatchObject({ type: 'heading', content: [{ text: 'Introduction' }] });
    expect(aspirin.some((b) => b.content.includes('The yield of aspirin was 80%'))).toBe(true);
    const gold = await blocksOf('Gold master experiment');
    const [image] = await db
      .select()
      .from(files)
      .where(
        inArray(
          files.noteNo,
          notes.map((n) => n.noteNo),
        ),
      );
    expect(image).toMatchObject({
      originName: 'example.jpg',
      kind: 'image',
      mimeType: 'image/jpeg',
      sha256: 'b73626c9a9ed8561ed6126df2493bc0d84fb8feedc9fe34aed94f7d2d5f4f60f',
    });
    expect(gold.some((b) => b.type === 'image' && b.content.includes(image!.fileId))).toBe(true);
    expect(gold.map((b) => b.content).join()).toContain('Great results on the DNA extraction');
    const skipped = await blocksOf('Facilis illum sed reprehe');
    expect(skipped.map((b) => b.content).join()).toContain('Not imported: the file autesse.json');
    expect(await blocksOf('フルーツフライの食性に関する研究')).not.toHaveLength(0);
  });
});

describe('.eln import refusals (nothing written)', () => {
  it('refuses a changed file (sha256 mismatch): 8005', async () => {
    const { parent, rootDir } = await copyOfExport('bad-file');
    const [pcr] = await db
      .select()
      .from(labNotes)
      .where(and(eq(labNotes.projectNo, crispr.projectNo), eq(labNotes.title, 'Clone genotyping PCR')));
    const [gel] = await db.select().from(files).where(eq(files.noteNo, pcr!.noteNo));
    const gelPath = path.join(rootDir, 'project', pcr!.labNoteNumber, 'files', `${gel!.fileId}.png`);
    const bytes = await readFile(gelPath);
    bytes[bytes.length - 20] = bytes[bytes.length - 20]! ^ 0xff;
    await writeFile(gelPath, bytes);
    await expectRefused(await rezip(parent, [crispr.root], 'bad-file'), '8005');
  });

  it('refuses a changed crate (signature mismatch): 8004', async () => {
    const { parent, rootDir } = await copyOfExport('bad-crate');
    const metadataPath = path.join(rootDir, 'ro-crate-metadata.json');
    await writeFile(metadataPath, (await readFile(metadataPath, 'utf8')).replace('"Clone genotyping PCR"', '"Clone genotyping PCS"'));
    await expectRefused(await rezip(parent, [crispr.root], 'bad-crate'), '8004');
  });

  it('refuses a signature by a key it cannot check (none shipped, not this server’s): 8009', async () => {
    const { parent, rootDir } = await copyOfExport('unknown-key');
    await rm(path.join(rootDir, 'eln-export-key.pub'));
    const metadata = await readFile(path.join(rootDir, 'ro-crate-metadata.json'));
    await writeFile(
      path.join(rootDir, 'ro-crate-metadata.json.minisig'),
      minisignSignature(generateSigningKey(), metadata, { untrusted: 'x', trusted: 'y' }),
    );
    await expectRefused(await rezip(parent, [crispr.root], 'unknown-key'), '8009');
  });

  it('refuses a note whose blocks do not fit the editor, even with matching checksums: 8008', async () => {
    const { parent, rootDir } = await copyOfExport('bad-blocks');
    const [b7] = await db
      .select()
      .from(labNotes)
      .where(and(eq(labNotes.projectNo, crispr.projectNo), eq(labNotes.title, 'B7 passage 3')));
    const versionPath = path.join(rootDir, 'project', b7!.labNoteNumber, 'v2.json');
    const version = JSON.parse(await readFile(versionPath, 'utf8')) as { blocks: SavedBlock[] };
    version.blocks[0]!.content = JSON.stringify({ type: 'iframe', attrs: { src: 'https://example.com' } });
    const bytes = Buffer.from(JSON.stringify(version));
    await writeFile(versionPath, bytes);
    // The crate is brought in line (and left unsigned), so only the content itself is wrong.
    const metadataPath = path.join(rootDir, 'ro-crate-metadata.json');
    const crate = JSON.parse(await readFile(metadataPath, 'utf8')) as CrateJson;
    Object.assign(
      crate['@graph'].find((e) => e['@id'] === `project/${b7!.labNoteNumber}/v2.json`)!,
      { sha256: sha256(bytes), contentSize: String(bytes.length) },
    );
    await writeFile(metadataPath, JSON.stringify(crate));
    await rm(path.join(rootDir, 'ro-crate-metadata.json.minisig'));
    await expectRefused(await rezip(parent, [crispr.root], 'bad-blocks'), '8008');
  });

  it('refuses what is not a ZIP: 8001', async () => {
    const notZip = path.join(work, 'not-a-zip.eln');
    await writeFile(notZip, 'ro-crate-metadata.json, but not a ZIP at all\n');
    await expectRefused(notZip, '8001');
  });

  it('refuses two root folders, a file beside the root folder, and a missing descriptor: 8002', async () => {
    const two = await copyOfExport('two-roots');
    await mkdir(path.join(two.parent, 'second'));
    await writeFile(path.join(two.parent, 'second', 'readme.txt'), 'another root');
    await expectRefused(await rezip(two.parent, [crispr.root, 'second'], 'two-roots'), '8002');

    const beside = await copyOfExport('beside');
    await writeFile(path.join(beside.parent, 'stray.txt'), 'outside the root folder');
    await expectRefused(await rezip(beside.parent, [crispr.root, 'stray.txt'], 'beside'), '8002');

    const missing = await copyOfExport('no-descriptor');
    await rm(path.join(missing.rootDir, 'ro-crate-metadata.json'));
    await expectRefused(await rezip(missing.parent, [crispr.root], 'no-descriptor'), '8002');
  });

  it('refuses a listed file missing from the archive: 8006', async () => {
    const { parent, rootDir } = await copyOfExport('missing-file');
    await rm(path.join(rootDir, 'SHA256SUMS'));
    await expectRefused(await rezip(parent, [crispr.root], 'missing-file'), '8006');
  });

  it('refuses one packed file listed under several ids, or one file claimed by two notes: 8003', async () => {
    // Unsigned copies, so that it is the crate's shape that refuses them, not a broken signature.
    const aliases = await copyOfExport('aliases');
    await rm(path.join(aliases.rootDir, 'ro-crate-metadata.json.minisig'));
    const crate = JSON.parse(await readFile(path.join(aliases.rootDir, 'ro-crate-metadata.json'), 'utf8')) as CrateJson;
    const file = crate['@graph'].find((e) => e['@type'] === 'File' && String(e['@id']).includes('/files/'))!;
    // `./x` and `x` name one entry of the archive: read once per alias, a small archive could unpack without end.
    crate['@graph'].push({ ...file, '@id': `./${String(file['@id'])}` });
    await writeFile(path.join(aliases.rootDir, 'ro-crate-metadata.json'), JSON.stringify(crate));
    await expectRefused(await rezip(aliases.parent, [crispr.root], 'aliases'), '8003');

    const shared = await copyOfExport('shared-file');
    await rm(path.join(shared.rootDir, 'ro-crate-metadata.json.minisig'));
    const sharedCrate = JSON.parse(await readFile(path.join(shared.rootDir, 'ro-crate-metadata.json'), 'utf8')) as CrateJson;
    const notes = sharedCrate['@graph'].filter(
      (e) =>
        e['@type'] === 'Dataset' &&
        Array.isArray(e.hasPart) &&
        (e.hasPart as Array<{ '@id': string }>).some((part) => part['@id'].includes('/files/')),
    );
    const [withFile] = notes;
    const attachment = (withFile!.hasPart as Array<{ '@id': string }>).find((part) => part['@id'].includes('/files/'))!;
    const other = sharedCrate['@graph'].find(
      (e) =>
        e['@type'] === 'Dataset' &&
        e !== withFile &&
        Array.isArray(e.hasPart) &&
        (e.hasPart as Array<{ '@id': string }>).some((part) => /v\d+\.json$/.test(part['@id'])),
    )!;
    (other.hasPart as Array<{ '@id': string }>).push({ '@id': attachment['@id'] });
    await writeFile(path.join(shared.rootDir, 'ro-crate-metadata.json'), JSON.stringify(sharedCrate));
    await expectRefused(await rezip(shared.parent, [crispr.root], 'shared-file'), '8003');
  });

  it('refuses too many entries and a zip bomb before unpacking: 8007', async () => {
    const many = new yazl.ZipFile();
    for (let i = 0; i <= ELN_IMPORT_LIMITS.entries; i += 1) many.addBuffer(Buffer.alloc(0), `root/f${i}.txt`, { compress: false });
    many.end();
    const manyPath = path.join(work, 'many.eln');
    await new Promise<void>((resolve, reject) =>
      many.outputStream.pipe(createWriteStream(manyPath)).on('close', resolve).on('error', reject),
    );
    await expectRefused(manyPath, '8007');

    // 64 MB of zeros packs into about 64 kB: more than ELN_IMPORT_LIMITS.compressionRatio allows.
    const bomb = new yazl.ZipFile();
    bomb.addBuffer(Buffer.from('{}'), 'root/ro-crate-metadata.json');
    bomb.addBuffer(Buffer.alloc(64 * 1024 * 1024), 'root/zeros.bin', { compressionLevel: 9 });
    bomb.end();
    const bombPath = path.join(work, 'bomb.eln');
    await new Promise<void>((resolve, reject) =>
      bomb.outputStream.pipe(createWriteStream(bombPath)).on('close', resolve).on('error', reject),
    );
    expect((await stat(bombPath)).size).toBeLessThan(1024 * 1024);
    await expectRefused(bombPath, '8007');
  });

  it('refuses a user who may not create projects: 1003', async () => {
    const noFlag = await server.createUser({ auth: { project: 'N', schema: 'N', dropbox: 'N', template: 'N' } });
    await expectRefused(crispr.archive, '1003', await userNamed(noFlag.userId));
  });
});
