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
import { api, ELN_IMPORT_LIMITS, elnInflationBound, ERR, noteDocumentName, type SavedBlock } from '@eln/shared';
import { verifyAuditChain } from '../../audit/audit.js';
import { auditLog, extraFileTypes, files, labNotes, noteSignatures, noteVersions, projects, users } from '../../db/schema.js';
import type { Db } from '../../db/client.js';
import { snapshotOfState } from '../../collab/documents/contentSnapshots.js';
import { DatabaseDocumentStore, loadDocumentState } from '../../collab/persistence/documentStore.js';
import { contentOfState } from '../../collab/commands/liveDocuments.js';
import { DEMO_PASSWORD, seedDemo } from '../../seed/demoData.js';
import { startTestServer, type TestServer } from '../../testing/harness.js';
import { appendParagraph, connectWriter, eventually } from '../../testing/live.js';
import { storedFilesUnder } from '../../testing/storedFiles.js';
import { toAuthFlags } from '../../users/flags.js';
import { notePageHtml } from '../pdf/noteHtml.js';
import { exportNoteNos, loadExportNote, loadExportProject, type ExportNote, type ExportProject } from '../projectContent.js';
import { CONSORTIUM_SCHEMA } from './consortiumSchema.js';
import { WELL_KNOWN_KEYS } from './crate.js';
import {
  exportPublicKey,
  ImportBudget,
  importElnArchive,
  writeElnArchive,
  type ElnExportOptions,
  type ElnExportResult,
  type ElnImportUser,
} from './index.js';
import { generateSigningKey, minisignPublicKeyFile, minisignSignature, verifyMinisign } from './minisign.js';
import { ArchiveReader } from './zipReader.js';

const run = promisify(execFile);
/** What the never-saved note of the CRISPR project holds: its live document alone, never a version. */
const UNSAVED_TEXT = 'Round 2: order new guides, never saved. 저장 안 함.';
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
let baseUrl: string;
/** The CRISPR project's export, extracted once; each refusal case copies it. */
let crispr: { projectNo: number; archive: string; result: ElnExportResult; dir: string; root: string; crate: CrateJson };
const pdfCalls: Array<{ project: ExportProject; note: ExportNote }> = [];

const types = (e: CrateEntity) => ([] as string[]).concat(e['@type']);
const refIds = (value: unknown): string[] => ([] as unknown[]).concat(value ?? []).map((r) => (r as { '@id': string })['@id']);
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** The stored files of these notes. */
const filesOfNotes = (notes: ReadonlyArray<{ noteNo: number }>) =>
  db
    .select()
    .from(files)
    .where(
      inArray(
        files.noteNo,
        notes.map((n) => n.noteNo),
      ),
    );

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
      keysUrl: `${server.config.publicUrl}${WELL_KNOWN_KEYS}`,
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

/** A note's live document's blocks, as a save would derive them. */
async function liveBlocks(noteNo: number): Promise<SavedBlock[]> {
  const state = await loadDocumentState(db, noteDocumentName(noteNo));
  return state ? snapshotOfState(state).savedBlocks('LABNOTE') : [];
}

async function expectRefused(archive: string, code: string, user: ElnImportUser = importer, budget?: ImportBudget) {
  const before = await state();
  await expect(importElnArchive(db, server.config, user, archive, { lang: 'en', budget })).rejects.toMatchObject({ code });
  expect(await state()).toEqual(before);
}

/** Writes a ZIP made with yazl (not the code under test). */
async function writeZip(zip: yazl.ZipFile, name: string): Promise<string> {
  const target = path.join(work, name);
  zip.end();
  await new Promise<void>((resolve, reject) => zip.outputStream.pipe(createWriteStream(target)).on('close', resolve).on('error', reject));
  return target;
}

/** The crate's root entity and the Dataset of the note of that title. */
function datasetOf(crate: CrateJson, title: string): CrateEntity {
  const found = crate['@graph'].find((e) => types(e).includes('Dataset') && e.name === title);
  if (!found) throw new Error(`no Dataset ${title}`);
  return found;
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
  baseUrl = await server.listen();

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
  // And a note never saved, with a paragraph in its live document only.
  const projectNo = await projectNoOf('CRISPR knock-out line B7');
  const plan = await junho(api.notes.create, { projectNo, title: 'Plan for round 2' });
  expect(plan.body.status).toBe('0000');
  const planEditor = await connectWriter(baseUrl, noteDocumentName(plan.body.data.labNoteNo), accessToken);
  appendParagraph(planEditor.doc, UNSAVED_TEXT);
  await eventually(() => planEditor.allDurable(), 'the unsaved paragraph to be stored');
  planEditor.destroy();

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
    // The trusted comment is where this notebook publishes its keys, as the format's specification says.
    expect(verified.output).toContain(`Trusted comment: ${server.config.publicUrl}/.well-known/keys.json`);
    const signatureFile = await readFile(path.join(rootDir, 'ro-crate-metadata.json.minisig'), 'utf8');
    expect(signatureFile.split('\n')[0]).toContain('CRISPR knock-out line B7');
    expect(signatureFile.split('\n')[0]).toContain(`exporter:${server.admin.userId}`);

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

  it("keeps each version's authorship: who wrote which block, in its blocks file and as the version's contributors", async () => {
    const graph = new Map(crispr.crate['@graph'].map((e) => [e['@id'], e]));
    const [b7Row] = await db.select().from(labNotes).where(eq(labNotes.title, 'B7 passage 3'));
    const folder = path.join(crispr.dir, crispr.root, 'project', b7Row!.labNoteNumber);
    const versionFile = async (version: number) =>
      JSON.parse(await readFile(path.join(folder, `v${version}.json`), 'utf8')) as {
        blocks: SavedBlock[];
        authors: Record<string, Array<{ userId: string; name: string }>>;
        restoredFrom: number | null;
        reason: string | null;
      };
    const [v1, v2] = [await versionFile(1), await versionFile(2)];
    // Version 1 is the template's content, which the server copied in: nobody's live edits.
    expect(Object.keys(v1.authors).sort()).toEqual(v1.blocks.map((b) => b.blockUid).sort());
    expect(Object.values(v1.authors).flat()).toEqual([]);
    expect([v1.restoredFrom, v1.reason, v2.restoredFrom]).toEqual([null, null, null]);
    const [junho] = await db.select().from(users).where(eq(users.userId, 'junho.jung@demo.eln'));
    const typed = v2.blocks.find((b) => b.content.includes('Day 4: split 1:3'))!;
    expect(v2.authors[typed.blockUid]).toEqual([{ userId: junho!.userId, name: junho!.name }]);
    for (const block of v2.blocks.filter((b) => b !== typed)) expect(v2.authors[block.blockUid], block.blockUid).toEqual([]);
    // In the crate: the version's files name their contributors as Person entities.
    const entityOf = (version: number) => graph.get(`project/${b7Row!.labNoteNumber}/v${version}.json`)!;
    expect(entityOf(1).contributor).toBeUndefined();
    const contributors = refIds(entityOf(2).contributor).map((id) => graph.get(id)!);
    expect(contributors).toMatchObject([{ '@type': 'Person', name: junho!.name, identifier: junho!.userId }]);
  });

  it('writes declined and pending signatures as Comments too', async () => {
    const { archive } = await exportProject(await projectNoOf('HPLC method validation'), 'hplc');
    const { crate } = await extract(archive, 'hplc');
    const comments = crate['@graph'].filter((e) => types(e).includes('Comment') && e.genre === 'reviewer signature');
    expect(comments.map((c) => c.creativeWorkStatus).sort()).toEqual(['declined', 'signed, intact']);
    expect(comments.find((c) => c.creativeWorkStatus === 'declined')!.text).toContain('I am away until the 30th');
    expect(consortiumProblems(crate)).toEqual([]);
  });

  it('writes a never-saved note’s live document as its draft, never as a version, and says the PDF copies are in', async () => {
    const { crate, dir, root } = crispr;
    const graph = new Map(crate['@graph'].map((e) => [e['@id'], e]));
    const plan = datasetOf(crate, 'Plan for round 2');
    expect(plan).toMatchObject({ version: '0', creativeWorkStatus: 'being written' });
    const parts = refIds(plan.hasPart).map((id) => graph.get(id)!);
    expect(parts.map((p) => p.name).sort()).toEqual(['draft.html', 'draft.json']);
    for (const part of parts)
      expect(part).toMatchObject({ creativeWorkStatus: 'unsaved draft', description: expect.stringMatching(/draft/i) });
    const draft = JSON.parse(await readFile(path.join(dir, root, plan['@id'], 'draft.json'), 'utf8')) as {
      format: string;
      blocks: SavedBlock[];
    };
    expect(draft.format).toBe('eln-note-draft');
    expect(draft.blocks.map((b) => b.content).join()).toContain(UNSAVED_TEXT);
    expect(await readFile(path.join(dir, root, plan['@id'], 'draft.html'), 'utf8')).toContain(UNSAVED_TEXT);
    const rootEntity = graph.get('./')!;
    expect(rootEntity.description).toContain("Each note's latest saved version is also included as PDF.");
    expect(graph.get(refIds(rootEntity.additionalProperty)[0]!)).toMatchObject({
      '@type': 'PropertyValue',
      propertyID: 'pdfCopies',
      value: 'included',
    });
  });

  it('without a PDF printer is complete but for the PDF copies, says so in its crate, and stays valid and signed', async () => {
    const { archive } = await exportProject(crispr.projectNo, 'no-pdf', { notePdf: undefined, pdfOmitted: 'noBrowser' });
    const { crate, dir, root } = await extract(archive, 'no-pdf');
    const rootDir = path.join(dir, root);
    expect((await listFiles(rootDir)).filter((f) => f.endsWith('.pdf'))).toEqual([]);
    // Everything else is there: every version as JSON and HTML, the files, the draft.
    const names = (await listFiles(rootDir)).map((f) => f.split('/').at(-1));
    const withPdf = (await listFiles(path.join(crispr.dir, crispr.root)))
      .filter((f) => !f.endsWith('.pdf'))
      .map((f) => f.split('/').at(-1));
    expect(names.sort()).toEqual(withPdf.sort());
    const graph = new Map(crate['@graph'].map((e) => [e['@id'], e]));
    const rootEntity = graph.get('./')!;
    expect(rootEntity.description).toContain('This archive holds no PDF copies of the notes');
    expect(rootEntity.description).toContain('Chromium is not installed');
    expect(graph.get(refIds(rootEntity.additionalProperty)[0]!)).toMatchObject({
      '@type': 'PropertyValue',
      propertyID: 'pdfCopies',
      value: 'omitted',
      description: expect.stringContaining('Chromium is not installed'),
    });
    expect(consortiumProblems(crate)).toEqual([]);
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats(ajv);
    const validate = ajv.compile(CONSORTIUM_SCHEMA);
    expect(validate(crate), JSON.stringify(validate.errors)).toBe(true);
    const rocrate = new ROCrate(crate, { array: true, link: true });
    await rocrate.resolveContext();
    const validator = new Validator(rocrate);
    validator.rootDataEntity();
    expect(validator.results.filter((r) => r.status === 'error')).toEqual([]);
    const verified = await minisignVerify(rootDir);
    expect(verified.code, verified.output).toBe(0);
    expect((await run('sha256sum', ['-c', '--strict', 'SHA256SUMS'], { cwd: rootDir })).stdout).not.toContain('FAILED');
    expect(await importElnArchive(db, server.config, importer, archive, { lang: 'en' })).toMatchObject({
      signed: 'thisServer',
      noteCount: 3,
    });
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
      const [writer] = await db.select().from(users).where(eq(users.userNo, original.writerUserNo));
      // Saved there: version 1 here. Never saved: unsaved here too. Written by its writer there, held by the importer.
      const unsaved = original.version === 0;
      // A note imported before keeps the authors it came with.
      const authors = original.importedAuthors ?? [writer!.name];
      expect(copy).toMatchObject({
        status: 'W',
        version: unsaved ? 0 : 1,
        writerUserNo: importer.userNo,
        importedAuthors: authors,
        templateNo: null,
      });
      // Files: the same bytes, in new rows of the new note, stored anew.
      const originalFiles = await db.select().from(files).where(eq(files.noteNo, original.noteNo));
      const copyFiles = await db.select().from(files).where(eq(files.noteNo, copy.noteNo));
      expect(copyFiles.map((f) => [f.originName, f.sha256, f.size]).sort()).toEqual(
        originalFiles.map((f) => [f.originName, f.sha256, f.size]).sort(),
      );
      for (const file of copyFiles) expect(sha256(await readFile(path.join(server.config.filesDir, file.storagePath)))).toBe(file.sha256);
      const oldIdOf = new Map(copyFiles.map((f) => [f.fileId, originalFiles.find((o) => o.sha256 === f.sha256)!.fileId]));
      // Blocks: the original latest version's (never saved: its live document's), in order and with their
      // IDs, then the history section; a never-saved note's only in its live document.
      const copyVersions = await db.select().from(noteVersions).where(eq(noteVersions.noteNo, copy.noteNo));
      expect(copyVersions).toHaveLength(unsaved ? 0 : 1);
      const copyBlocks = unsaved ? await liveBlocks(copy.noteNo) : (copyVersions[0]!.blocks as SavedBlock[]);
      const [originalVersion] = original.version
        ? await db
            .select()
            .from(noteVersions)
            .where(and(eq(noteVersions.noteNo, original.noteNo), eq(noteVersions.version, original.version)))
        : [];
      const originalBlocks = unsaved ? await liveBlocks(original.noteNo) : ((originalVersion?.blocks ?? []) as SavedBlock[]);
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
      expect(historyText).toContain(`Written by ${authors.join(', ')} in the original notebook.`);
      if (unsaved) expect(historyText).toContain('Never saved in the original notebook');
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
        changed: unsaved,
        note: {
          version: unsaved ? 0 : 1,
          status: 'W',
          signatureList: [],
          abilities: { write: true },
          importedAuthors: authors,
          name: importer.name,
        },
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
    const archive = path.join(FIXTURES, 'consortium', 'elabftw', 'export.eln');
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
    // Authors are eLabFTW's people by name (given and family name), not accounts here.
    expect(notes.find((n) => n.title === 'Gold master experiment')).toMatchObject({ importedAuthors: ['Nicola Mohr'], version: 1 });
    expect(notes.every((n) => n.writerUserNo === importer.userNo && n.importedAuthors?.length === 1)).toBe(true);
    const [image] = await filesOfNotes(notes);
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

  it('takes the types administrators added to uploads, checked on their content as uploads are', async () => {
    const archive = path.join(FIXTURES, 'consortium', 'elabftw', 'export.eln');
    const skippedJson = './Molecular-biology - Facilis-illum-sed-reprehenderit - a7658b02/autesse.json';
    try {
      // Added as binary with a signature the JSON does not start with: still left out.
      await db
        .insert(extraFileTypes)
        .values({ extension: 'json', mimeType: 'application/json', check: 'signature', signatures: ['89504e47'] });
      expect((await importElnArchive(db, server.config, importer, archive, { lang: 'en' })).skippedFiles).toEqual([skippedJson]);
      // Added as text: taken, stored with the type's MIME type.
      await db.update(extraFileTypes).set({ check: 'text', signatures: [] }).where(eq(extraFileTypes.extension, 'json'));
      const result = await importElnArchive(db, server.config, importer, archive, { lang: 'en' });
      expect(result).toMatchObject({ fileCount: 2, skippedFiles: [] });
      const stored = await filesOfNotes(await db.select().from(labNotes).where(eq(labNotes.projectNo, result.projectNo)));
      expect(stored.find((f) => f.originName === 'autesse.json')).toMatchObject({ kind: 'file', mimeType: 'application/json' });
    } finally {
      await db.delete(extraFileTypes).where(eq(extraFileTypes.extension, 'json'));
    }
  });
});

describe('.eln import: authors and unsaved notes', () => {
  const noteIn = async (projectNo: number, title: string) => {
    const [found] = await db
      .select()
      .from(labNotes)
      .where(and(eq(labNotes.projectNo, projectNo), eq(labNotes.title, title)));
    if (!found) throw new Error(`no note ${title}`);
    return found;
  };

  it('keeps the authors by name, not the importer, and they survive another export and import', async () => {
    const [junho] = await db.select().from(users).where(eq(users.userId, 'junho.jung@demo.eln'));
    const first = await importElnArchive(db, server.config, importer, crispr.archive, { lang: 'en' });
    const b7 = await noteIn(first.projectNo, 'B7 passage 3');
    expect(b7).toMatchObject({ writerUserNo: importer.userNo, importedAuthors: [junho!.name] });
    const asImporter = await server.as({ userId: importer.userId, password: importerPassword });
    const listed = await asImporter(api.projects.editor, { projectNo: first.projectNo });
    expect(listed.body.status).toBe('0000');
    expect(listed.body.data.list.find((n) => n.title === 'B7 passage 3')).toMatchObject({
      importedAuthors: [junho!.name],
      name: importer.name,
      writer: importer.userId,
    });
    // Its PDF names them too, and who imported it.
    const exported = (await loadExportNote(db, b7.noteNo, server.config.filesDir))!;
    const page = notePageHtml(
      (await loadExportProject(db, first.projectNo))!,
      exported,
      { ...exported.latest!, blocks: exported.latest!.blocks },
      { lang: 'en', timeZone: 'UTC', exportedAt: new Date(), exportedBy: { userId: importer.userId, name: importer.name } },
      () => null,
    );
    expect(page).toContain(`${junho!.name} (imported) · Imported by ${importer.name} · ${importer.userId}`);
    // A note written here has none.
    const [native] = await db
      .select()
      .from(labNotes)
      .where(eq(labNotes.noteNo, (await noteIn(crispr.projectNo, 'B7 passage 3')).noteNo));
    expect(native!.importedAuthors).toBeNull();

    // Exported again, the note's author is the person of the first archive, by name; imported again, still.
    const again = await exportProject(first.projectNo, 'authors-again');
    const { crate } = await extract(again.archive, 'authors-again');
    const graph = new Map(crate['@graph'].map((e) => [e['@id'], e]));
    const authors = refIds(datasetOf(crate, 'B7 passage 3').author).map((id) => graph.get(id)!);
    expect(authors).toEqual([{ '@id': expect.stringMatching(/^#author-/), '@type': 'Person', name: junho!.name }]);
    expect(consortiumProblems(crate)).toEqual([]);
    const second = await importElnArchive(db, server.config, importer, again.archive, { lang: 'en' });
    expect(await noteIn(second.projectNo, 'B7 passage 3')).toMatchObject({ importedAuthors: [junho!.name] });
  });

  it('brings a never-saved note unsaved: no version, its draft and the history in its live document', async () => {
    const imported = await importElnArchive(db, server.config, importer, crispr.archive, { lang: 'en' });
    const plan = await noteIn(imported.projectNo, 'Plan for round 2');
    expect(plan).toMatchObject({ version: 0, status: 'W' });
    expect(await db.select().from(noteVersions).where(eq(noteVersions.noteNo, plan.noteNo))).toEqual([]);
    const live = (await liveBlocks(plan.noteNo)).map((b) => b.content).join('\n');
    expect(live).toContain(UNSAVED_TEXT);
    expect(live).toContain('Never saved in the original notebook');
    const asImporter = await server.as({ userId: importer.userId, password: importerPassword });
    const viewer = await asImporter(api.notes.viewer, { labNoteNo: plan.noteNo });
    expect(viewer.body.data).toMatchObject({ version: 0, blockList: [], savedAt: null, savedBy: null });
    const listed = await asImporter(api.notes.blockList, { labNoteNo: plan.noteNo });
    expect(listed.body.data).toMatchObject({ changed: true, note: { version: 0, status: 'W', abilities: { write: true } } });
    const [created] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'note.created'), eq(auditLog.targetId, String(plan.noteNo))));
    expect(created!.after).toMatchObject({ version: 0 });
    expect(created!.after).not.toHaveProperty('blocksHash');
    // Saved once here, it becomes version 1 like any note.
    expect((await asImporter(api.notes.saveVersion, { labNoteNo: plan.noteNo, version: 0, blockList: [] })).body.data).toMatchObject({
      version: 1,
    });
  });

  it('brings a never-saved note of an archive without drafts unsaved too, holding the history alone', async () => {
    const { parent, rootDir } = await copyOfExport('no-drafts');
    await rm(path.join(rootDir, 'ro-crate-metadata.json.minisig'));
    const metadataPath = path.join(rootDir, 'ro-crate-metadata.json');
    const crate = JSON.parse(await readFile(metadataPath, 'utf8')) as CrateJson;
    const plan = datasetOf(crate, 'Plan for round 2');
    const draftIds = refIds(plan.hasPart);
    delete plan.hasPart;
    crate['@graph'] = crate['@graph'].filter((e) => !draftIds.includes(e['@id']));
    await writeFile(metadataPath, JSON.stringify(crate));
    for (const id of draftIds) await rm(path.join(rootDir, id));
    const imported = await importElnArchive(db, server.config, importer, await rezip(parent, [crispr.root], 'no-drafts'), { lang: 'en' });
    const note = await noteIn(imported.projectNo, 'Plan for round 2');
    expect(note).toMatchObject({ version: 0 });
    expect(await db.select().from(noteVersions).where(eq(noteVersions.noteNo, note.noteNo))).toEqual([]);
    const live = await liveBlocks(note.noteNo);
    expect(live[0]).toMatchObject({ blockClass: 'horizontalRule' });
    expect(live.map((b) => b.content).join()).not.toContain(UNSAVED_TEXT);
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

  it('refuses an archive that unpacks to more than archiveRatio times its own size, though no entry is packed past compressionRatio: 8007', async () => {
    // A valid crate listing 80 files of 900 kB of zeros: each under compressionCheckBytes, so no entry's own
    // ratio is checked, together about a thousand times the archive. Unchecked, all of it would be unpacked and hashed.
    const zeros = Buffer.alloc(900 * 1024);
    const digest = sha256(zeros);
    const files = Array.from({ length: 80 }, (_, i) => `note/zeros-${i}.bin`);
    const crate = {
      '@context': 'https://w3id.org/ro/crate/1.2/context',
      '@graph': [
        {
          '@id': 'ro-crate-metadata.json',
          '@type': 'CreativeWork',
          about: { '@id': './' },
          conformsTo: { '@id': 'https://w3id.org/ro/crate/1.2' },
        },
        { '@id': './', '@type': 'Dataset', name: 'Inflated', hasPart: [{ '@id': 'note/' }] },
        { '@id': 'note/', '@type': 'Dataset', name: 'Zeros', text: 'zeros', hasPart: files.map((id) => ({ '@id': id })) },
        ...files.map((id) => ({
          '@id': id,
          '@type': 'File',
          name: id.split('/')[1],
          encodingFormat: 'application/octet-stream',
          contentSize: String(zeros.length),
          sha256: digest,
        })),
      ],
    };
    const zip = new yazl.ZipFile();
    zip.addBuffer(Buffer.from(JSON.stringify(crate)), 'root/ro-crate-metadata.json');
    for (const file of files) zip.addBuffer(zeros, `root/${file}`, { compressionLevel: 9 });
    const archive = await writeZip(zip, 'inflated.eln');
    const { size } = await stat(archive);
    expect(files.length * zeros.length).toBeGreaterThan(elnInflationBound(size));
    expect(files.length * zeros.length).toBeLessThan(ELN_IMPORT_LIMITS.totalBytes);
    await expectRefused(archive, '8007');
    // The bound is the smaller of the ratio and the absolute cap.
    expect(elnInflationBound(size)).toBe(size * ELN_IMPORT_LIMITS.archiveRatio);
    expect(elnInflationBound(ELN_IMPORT_LIMITS.archiveBytes)).toBe(ELN_IMPORT_LIMITS.totalBytes);
  });

  it('counts the imports under way against one budget: one that does not fit is refused (8019), and the budget is given back however an import ends', async () => {
    const reader = await ArchiveReader.open(crispr.archive);
    const unpacked = reader.unpackedBytes;
    reader.close();
    expect(unpacked).toBeGreaterThan(0);
    const budget = new ImportBudget(ELN_IMPORT_LIMITS.concurrentBytes);
    // Another import holds all but a little of it.
    const held = budget.reserve(budget.capacity - unpacked + 1);
    await expectRefused(crispr.archive, ERR.elnImportBusy, importer, budget);
    expect(budget.inUse()).toBe(budget.capacity - unpacked + 1);
    held();
    expect(budget.inUse()).toBe(0);
    // A refused import gives its share back, as does one that succeeds.
    await expectRefused(path.join(work, 'not-a-zip.eln'), '8001', importer, budget);
    const { parent, rootDir } = await copyOfExport('budget-bad-file');
    await rm(path.join(rootDir, 'SHA256SUMS'));
    await expectRefused(await rezip(parent, [crispr.root], 'budget-bad-file'), '8006', importer, budget);
    expect(budget.inUse()).toBe(0);
    await importElnArchive(db, server.config, importer, crispr.archive, { lang: 'en', budget });
    expect(budget.inUse()).toBe(0);

    // Two at once with room for one: one is imported, the other refused, nothing of it written.
    const room = new ImportBudget(Math.floor(unpacked * 1.5));
    const projectsBefore = (await state()).projects;
    const results = await Promise.allSettled([
      importElnArchive(db, server.config, importer, crispr.archive, { lang: 'en', budget: room }),
      importElnArchive(db, server.config, importer, crispr.archive, { lang: 'en', budget: room }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(results.find((r) => r.status === 'rejected')).toMatchObject({ reason: { code: ERR.elnImportBusy } });
    expect((await state()).projects).toBe(projectsBefore + 1);
    expect(room.inUse()).toBe(0);
  });
});

describe('.eln import: what the format leaves optional', () => {
  it('imports a signature by a key it cannot check (none shipped, not this server’s) as unknownKey, recording it to verify later', async () => {
    const { parent, rootDir } = await copyOfExport('unknown-key');
    // The shipped key taken out of the archive and its crate, which another notebook's key then signs.
    await rm(path.join(rootDir, 'eln-export-key.pub'));
    const crate = JSON.parse(await readFile(path.join(rootDir, 'ro-crate-metadata.json'), 'utf8')) as CrateJson;
    crate['@graph'] = crate['@graph'].filter((e) => e['@id'] !== 'eln-export-key.pub');
    const root = crate['@graph'].find((e) => e['@id'] === './')!;
    root.hasPart = refIds(root.hasPart)
      .filter((id) => id !== 'eln-export-key.pub')
      .map((id) => ({ '@id': id }));
    await writeFile(path.join(rootDir, 'ro-crate-metadata.json'), JSON.stringify(crate));
    const metadata = await readFile(path.join(rootDir, 'ro-crate-metadata.json'));
    const stranger = generateSigningKey();
    const minisig = minisignSignature(stranger, metadata, { untrusted: 'x', trusted: 'https://elsewhere.example/.well-known/keys.json' });
    await writeFile(path.join(rootDir, 'ro-crate-metadata.json.minisig'), minisig);
    const result = await importElnArchive(db, server.config, importer, await rezip(parent, [crispr.root], 'unknown-key'), { lang: 'ko' });
    expect(result).toMatchObject({ signed: 'unknownKey', keyId: stranger.keyId, uncheckedFiles: [] });
    const [record] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'export.imported'), eq(auditLog.targetId, String(result.projectNo))));
    expect(record!.after).toMatchObject({ signed: 'unknownKey', keyId: stranger.keyId, minisig });
    // Recorded whole: the key, once known, verifies it against the crate the import read.
    expect(verifyMinisign(stranger, metadata, (record!.after as { minisig: string }).minisig).trustedComment).toContain('keys.json');
    const [note] = await db.select().from(labNotes).where(eq(labNotes.projectNo, result.projectNo));
    const history = (await liveBlocks(note!.noteNo)).map((b) => b.content).join('\n');
    expect(history).toContain(`이 서버가 모르는 키(${stranger.keyId})로 서명되어`);

    // Administrators see it among the keys the notebook knows, after its own export key; members may not ask.
    const admin = await server.as(server.admin);
    const keys = (await admin(api.exports.knownKeys, {})).body.data.list;
    const own = await exportPublicKey(db);
    expect(keys[0]).toMatchObject({
      keyId: own.keyId,
      source: 'thisServer',
      fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/) as string,
    });
    expect(keys.find((key) => key.keyId === stranger.keyId)).toMatchObject({ source: 'unknownKey', fingerprint: null, imports: 1 });
    const asImporter = await server.as({ userId: importer.userId, password: importerPassword });
    expect((await asImporter(api.exports.knownKeys, {})).http).toBe(403);
  });

  it('still refuses a signature that does not read, or that the shipped key does not verify: 8004', async () => {
    const garbled = await copyOfExport('garbled-signature');
    await rm(path.join(garbled.rootDir, 'eln-export-key.pub'));
    await writeFile(path.join(garbled.rootDir, 'ro-crate-metadata.json.minisig'), 'untrusted comment: x\nnot base64 at all\n');
    await expectRefused(await rezip(garbled.parent, [crispr.root], 'garbled-signature'), '8004');
    // A key is shipped, but the signature was made by another: the archive contradicts itself.
    const other = await copyOfExport('other-signer');
    const metadata = await readFile(path.join(other.rootDir, 'ro-crate-metadata.json'));
    await writeFile(
      path.join(other.rootDir, 'ro-crate-metadata.json.minisig'),
      minisignSignature(generateSigningKey(), metadata, { untrusted: 'x', trusted: 'y' }),
    );
    await expectRefused(await rezip(other.parent, [crispr.root], 'other-signer'), '8004');
  });

  it('imports files without a SHA-256 as not hash-checked (named in the answer, the note and the audit), and still checks their size', async () => {
    const { parent, rootDir } = await copyOfExport('no-sha');
    await rm(path.join(rootDir, 'ro-crate-metadata.json.minisig'));
    const metadataPath = path.join(rootDir, 'ro-crate-metadata.json');
    const crate = JSON.parse(await readFile(metadataPath, 'utf8')) as CrateJson;
    const attachment = crate['@graph'].find((e) => types(e).includes('File') && String(e['@id']).includes('/files/'))!;
    delete attachment.sha256;
    await writeFile(metadataPath, JSON.stringify(crate));
    const result = await importElnArchive(db, server.config, importer, await rezip(parent, [crispr.root], 'no-sha'), { lang: 'ja' });
    expect(result).toMatchObject({ signed: 'unsigned', uncheckedFiles: [attachment['@id']] });
    const notes = await db.select().from(labNotes).where(eq(labNotes.projectNo, result.projectNo));
    const stored = await filesOfNotes(notes);
    const file = stored.find((f) => attachment['@id'].endsWith(`.${f.extension}`) && f.size === Number(attachment.contentSize));
    expect(file).toBeDefined();
    const holder = notes.find((n) => n.noteNo === file!.noteNo)!;
    const [version] = await db.select().from(noteVersions).where(eq(noteVersions.noteNo, holder.noteNo));
    expect((version!.blocks as SavedBlock[]).map((b) => b.content).join()).toContain(
      `ハッシュ未確認：アーカイブにファイル${String(attachment.name)}のSHA-256がない`,
    );
    const [created] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'note.created'), eq(auditLog.targetId, String(holder.noteNo))));
    expect((created!.after as { files: Array<{ fileId: string; hashChecked: boolean }> }).files).toContainEqual(
      expect.objectContaining({ fileId: file!.fileId, hashChecked: false }),
    );

    // Without a SHA-256 the declared size still holds: a file of another size is refused (8005), nothing written.
    const sized = await copyOfExport('no-sha-wrong-size');
    await rm(path.join(sized.rootDir, 'ro-crate-metadata.json.minisig'));
    const sizedPath = path.join(sized.rootDir, 'ro-crate-metadata.json');
    const sizedCrate = JSON.parse(await readFile(sizedPath, 'utf8')) as CrateJson;
    const sizedFile = sizedCrate['@graph'].find((e) => e['@id'] === attachment['@id'])!;
    delete sizedFile.sha256;
    sizedFile.contentSize = String(Number(sizedFile.contentSize) + 1);
    await writeFile(sizedPath, JSON.stringify(sizedCrate));
    await expectRefused(await rezip(sized.parent, [crispr.root], 'no-sha-wrong-size'), '8005');
  });

  it('tolerates an entity repeated identically, refuses a Dataset or File repeated differently (8003)', async () => {
    const same = await copyOfExport('repeat-same');
    await rm(path.join(same.rootDir, 'ro-crate-metadata.json.minisig'));
    const samePath = path.join(same.rootDir, 'ro-crate-metadata.json');
    const sameCrate = JSON.parse(await readFile(samePath, 'utf8')) as CrateJson;
    const note = datasetOf(sameCrate, 'B7 passage 3');
    const person = sameCrate['@graph'].find((e) => types(e).includes('Person'))!;
    sameCrate['@graph'].push(structuredClone(note), { ...person, name: `${String(person.name)} (again)` });
    await writeFile(samePath, JSON.stringify(sameCrate));
    const result = await importElnArchive(db, server.config, importer, await rezip(same.parent, [crispr.root], 'repeat-same'), {
      lang: 'en',
    });
    expect(result.noteCount).toBe(3);

    const differing = await copyOfExport('repeat-differing');
    await rm(path.join(differing.rootDir, 'ro-crate-metadata.json.minisig'));
    const differingPath = path.join(differing.rootDir, 'ro-crate-metadata.json');
    const differingCrate = JSON.parse(await readFile(differingPath, 'utf8')) as CrateJson;
    differingCrate['@graph'].push({ ...datasetOf(differingCrate, 'B7 passage 3'), name: 'B7 passage 4' });
    await writeFile(differingPath, JSON.stringify(differingCrate));
    await expectRefused(await rezip(differing.parent, [crispr.root], 'repeat-differing'), '8003');

    const file = await copyOfExport('repeat-file');
    await rm(path.join(file.rootDir, 'ro-crate-metadata.json.minisig'));
    const filePath = path.join(file.rootDir, 'ro-crate-metadata.json');
    const fileCrate = JSON.parse(await readFile(filePath, 'utf8')) as CrateJson;
    const listed = fileCrate['@graph'].find((e) => types(e).includes('File') && String(e['@id']).includes('/files/'))!;
    fileCrate['@graph'].push({ ...listed, sha256: '0'.repeat(64) });
    await writeFile(filePath, JSON.stringify(fileCrate));
    await expectRefused(await rezip(file.parent, [crispr.root], 'repeat-file'), '8003');
  });
});

describe('.eln that opens everywhere', () => {
  it('publishes the export key at /.well-known/keys.json as the format specifies, and that key verifies the archives', async () => {
    const response = await fetch(`${baseUrl}${WELL_KNOWN_KEYS}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    const keys = (await response.json()) as Array<Record<string, string>>;
    const { keyId, minisignPub } = await exportPublicKey(db);
    expect(keys).toEqual([
      expect.objectContaining({ '@type': 'MediaObject', encodingFormat: 'application/x-minisign-key', identifier: keyId }),
    ]);
    // The key file is served where contentUrl says (the public URL's path, on this server).
    const keyResponse = await fetch(`${baseUrl}${new URL(keys[0]!.contentUrl!).pathname}`);
    expect(keyResponse.status).toBe(200);
    const published = await keyResponse.text();
    expect(published).toBe(minisignPub);
    // minisign -V with the published key (not the one shipped in the archive) verifies an export.
    const rootDir = path.join(crispr.dir, crispr.root);
    const keyFile = path.join(work, 'published.pub');
    await writeFile(keyFile, published);
    const { stdout, stderr } = await run(MINISIGN, ['-V', '-p', keyFile, '-m', path.join(rootDir, 'ro-crate-metadata.json')]);
    expect(stdout + stderr).toContain('Signature and comment signature verified');
  });

  it('round-trips through a fresh server: export, import there, export again keeps titles, text, tables, files, authors, dates and signatures', async () => {
    const fresh = await startTestServer();
    try {
      const freshDb = fresh.database.db;
      fresh.config.filesDir = path.join(work, 'fresh-files');
      const created = await fresh.createUser({ name: 'Partner Lab Importer' });
      const [row] = await freshDb.select().from(users).where(eq(users.userId, created.userId));
      const partner: ElnImportUser = { userNo: row!.userNo, userId: row!.userId, name: row!.name, auth: toAuthFlags(row!) };
      const imported = await importElnArchive(freshDb, fresh.config, partner, crispr.archive, { lang: 'en' });
      // Another server: the archive's own shipped key verifies it, which is not that server's key.
      expect(imported).toMatchObject({ signed: 'otherKey', keyId: crispr.result.keyId, uncheckedFiles: [], noteCount: 3 });
      const againPath = path.join(work, 'fresh-again.eln');
      await writeElnArchive(
        freshDb,
        {
          projectNo: imported.projectNo,
          noteNos: await exportNoteNos(freshDb, imported.projectNo),
          filesDir: fresh.config.filesDir,
          exportedAt: new Date('2026-06-01T00:00:00.000Z'),
          exportedBy: { userId: partner.userId, name: partner.name },
          lang: 'en',
          timeZone: 'Asia/Seoul',
          organization: 'Partner Lab',
          keysUrl: `${fresh.config.publicUrl}${WELL_KNOWN_KEYS}`,
        },
        createWriteStream(againPath),
      );
      const again = await extract(againPath, 'fresh-again');
      expect(consortiumProblems(again.crate)).toEqual([]);
      const firstGraph = new Map(crispr.crate['@graph'].map((e) => [e['@id'], e]));
      const againGraph = new Map(again.crate['@graph'].map((e) => [e['@id'], e]));
      const notesOf = (graph: Map<string, CrateEntity>) => refIds(graph.get('project/')!.hasPart).map((id) => graph.get(id)!);
      const namesOf = (graph: Map<string, CrateEntity>, note: CrateEntity) => refIds(note.author).map((id) => graph.get(id)!.name);
      const partsOf = (graph: Map<string, CrateEntity>, note: CrateEntity) => refIds(note.hasPart).map((id) => graph.get(id)!);
      const attachments = (graph: Map<string, CrateEntity>, note: CrateEntity) =>
        partsOf(graph, note)
          .filter((f) => String(f['@id']).includes('/files/'))
          .map((f) => `${String(f.name)} ${String(f.sha256)}`)
          .sort();
      /** The latest saved version's (or draft's) blocks, read from the extracted archive. */
      const blocksOf = async (dir: string, root: string, graph: Map<string, CrateEntity>, note: CrateEntity) => {
        const versions = partsOf(graph, note).filter((f) => /\/(v\d+|draft)\.json$/.test(String(f['@id'])));
        const latest = versions.sort((a, b) => String(a.name).localeCompare(String(b.name), 'en', { numeric: true })).at(-1)!;
        return (JSON.parse(await readFile(path.join(dir, root, String(latest['@id'])), 'utf8')) as { blocks: SavedBlock[] }).blocks;
      };
      const texts = (blocks: SavedBlock[]) =>
        blocks.flatMap((b) => [...b.content.matchAll(/"text":"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]));
      const firstNotes = notesOf(firstGraph);
      expect(firstNotes.length).toBe(3);
      let tables = 0;
      for (const first of firstNotes) {
        const second = notesOf(againGraph).find((n) => n.name === first.name);
        expect(second, String(first.name)).toBeDefined();
        // Authors by name, and the files byte for byte.
        expect(namesOf(againGraph, second!)).toEqual(namesOf(firstGraph, first));
        expect(attachments(againGraph, second!)).toEqual(attachments(firstGraph, first));
        // Text and tables: the original blocks, in order, then the history section.
        const firstBlocks = await blocksOf(crispr.dir, crispr.root, firstGraph, first);
        const secondBlocks = await blocksOf(again.dir, again.root, againGraph, second!);
        expect(secondBlocks.slice(0, firstBlocks.length).map((b) => b.type)).toEqual(firstBlocks.map((b) => b.type));
        tables += firstBlocks.filter((b) => b.type === 'table').length;
        expect(texts(secondBlocks)).toEqual(expect.arrayContaining(texts(firstBlocks)));
        const history = texts(secondBlocks).join('\n');
        // Dates: when it was created there, and each saved version's time; signatures with their hashes.
        expect(history).toContain('in the original notebook; last changed');
        for (const version of partsOf(firstGraph, first).filter((f) => /\/v\d+\.json$/.test(String(f['@id']))))
          expect(history).toContain(`Version ${String(version.version)} saved`);
        for (const signature of refIds(first.comment).map((id) => firstGraph.get(id)!))
          if (typeof signature.identifier === 'string') expect(history).toContain(signature.identifier);
      }
      // What was compared holds each kind: a table, files, and signatures.
      expect(tables).toBeGreaterThan(0);
      expect(firstNotes.some((n) => attachments(firstGraph, n).length > 0)).toBe(true);
      expect(firstNotes.some((n) => refIds(n.comment).length > 0)).toBe(true);
    } finally {
      await fresh.stop();
    }
  }, 120_000);
});
