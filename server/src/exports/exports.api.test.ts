import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, count, eq, sql } from 'drizzle-orm';
import Papa from 'papaparse';
import type { Browser } from 'playwright-core';
import {
  api,
  AUDIT_HEAD_LINE_PREFIX,
  ERR,
  EXPORT_LIMITS,
  noteDocumentName,
  type ElnImportAnswer,
  type Language,
  type ExportJob,
} from '@eln/shared';
import { auditLog, documentUpdates, exportJobs, labNotes, noteSignatures, projects } from '../db/schema.js';
import { multipartBody } from '../files/multipartBody.js';
import { initialUpdate } from '../seed/demoTemplates.js';
import { startTestServer, type TestServer } from '../testing/harness.js';
import { ExportLinks } from './links.js';
import { exportMakers } from './makers.js';
import { PdfPrinter } from './pdf/index.js';
import { PDF_MESSAGES } from './pdf/messages.js';

let server: TestServer;
type Caller = Awaited<ReturnType<TestServer['as']>> & { token: string };
let admin: Caller;
let otherAdmin: Caller;
let leader: Caller;
let participant: Caller;
let outsider: Caller;
let projectNo: number;

/** A caller that also shows its access token (the download answers a file, which `call` does not parse). */
async function signedIn(user: { userId: string; password: string }): Promise<Caller> {
  const { accessToken } = await server.signIn(user.userId, user.password);
  const call = server.callerWith(accessToken);
  return Object.assign(call, { token: accessToken });
}

beforeAll(async () => {
  server = await startTestServer();
  admin = await signedIn(server.admin);
  otherAdmin = await signedIn(await server.createUser({ name: 'Second Admin', level: 10 }));
  const leaderUser = await server.createUser({ name: 'Han Leader', auth: { project: 'Y', schema: 'N', dropbox: 'N', template: 'N' } });
  const participantUser = await server.createUser({ name: 'Oh Participant' });
  leader = await signedIn(leaderUser);
  participant = await signedIn(participantUser);
  outsider = await signedIn(await server.createUser({ name: 'No Part' }));
  const created = await leader(api.projects.create, {
    title: 'Export project',
    description: 'Exported',
    signatureList: { department: '', user: participantUser.userId },
  });
  projectNo = created.body.data.projectNo;
});
afterAll(async () => {
  await server?.stop();
});

const jobCount = async () => Number((await server.database.db.select({ n: count() }).from(exportJobs))[0]?.n ?? 0);
const auditCount = async () => Number((await server.database.db.select({ n: count() }).from(auditLog))[0]?.n ?? 0);

async function finished(caller: Caller, jobId: string): Promise<ExportJob> {
  await server.services.exportJobs.idle();
  const answer = await caller(api.exports.detail, { jobId });
  expect(answer.body.status).toBe('0000');
  return answer.body.data;
}

/** Starts the printer's browser and counts the contexts it opens from then on (each print session opens one). */
async function countingContexts(printer: PdfPrinter): Promise<() => number> {
  await printer.print({
    html: '<!doctype html><p>start</p>',
    files: new Map(),
    charts: [],
    headerTemplate: '<span></span>',
    footerTemplate: '<span></span>',
    tagged: false,
  });
  const browser = await (printer as unknown as { browser: Promise<Browser> }).browser;
  const newContext = browser.newContext.bind(browser);
  let opened = 0;
  browser.newContext = (...options) => {
    opened += 1;
    return newContext(...options);
  };
  return () => opened;
}

/** A .eln archive uploaded to the import, as the download page sends it. */
function uploadEln(target: TestServer, caller: Caller, name: string, content: Buffer, language = 'en') {
  const { payload, contentType } = multipartBody({}, { name, content });
  return target.app.inject({
    method: 'POST',
    url: `/server${api.exports.importEln.path}`,
    payload,
    headers: { 'content-type': contentType, authorization: `Bearer ${caller.token}`, 'accept-language': language },
  });
}

async function download(caller: Caller, token: string) {
  return server.app.inject({
    method: 'POST',
    url: `/server${api.exports.download.path}`,
    payload: { token },
    headers: { authorization: `Bearer ${caller.token}` },
  });
}

describe('export jobs: the audit trail as CSV', () => {
  it('runs in the background, reports 100 % when done, and its file is the trail with the chain head of its last record', async () => {
    const started = await admin(api.exports.create, { format: 'auditCsv', timeZone: 'Asia/Seoul' });
    expect(started.body.status).toBe('0000');
    const [queued] = started.body.data.list;
    expect(queued).toMatchObject({ format: 'auditCsv', projectNo: null, requestedBy: { userId: server.admin.userId } });
    const job = await finished(admin, queued!.jobId);
    expect(job).toMatchObject({ status: 'done', progress: 100, downloadable: true, errorCode: null });
    expect(job.sha256).toMatch(/^[0-9a-f]{64}$/);

    const link = await admin(api.exports.link, { jobId: job.jobId });
    expect(link.body.status).toBe('0000');
    expect(Date.parse(link.body.data.expiresAt) - Date.now()).toBeLessThanOrEqual(EXPORT_LIMITS.linkSeconds * 1000);
    const file = await download(admin, link.body.data.token);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toContain('text/csv');
    expect(file.headers['content-disposition']).toContain(encodeURIComponent(job.fileName!));
    expect(file.rawPayload.length).toBe(job.size);
    const text = file.rawPayload.toString('utf8').replace(/^\uFEFF/, '');
    const lines = text.trimEnd().split('\r\n');
    const headLine = lines.pop()!;
    const parsed = Papa.parse<Record<string, string>>(lines.join('\r\n'), { header: true });
    const seqs = parsed.data.map((row) => Number(row.seq));
    expect(seqs.length).toBeGreaterThan(3);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    const last = await server.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.seq, seqs.at(-1)!));
    expect(headLine).toBe(`${AUDIT_HEAD_LINE_PREFIX} seq=${last[0]!.seq} hash=${last[0]!.hash}`);

    const actions = (
      await server.database.db.select().from(auditLog).where(eq(auditLog.targetId, job.jobId)).orderBy(asc(auditLog.seq))
    ).map((r) => r.action);
    expect(actions).toEqual(['export.requested', 'export.completed', 'export.downloaded']);
  });

  it('takes only the days asked for, read in the requester zone', async () => {
    const today = new Date().toLocaleDateString('en-CA', { timeZone: 'Asia/Seoul' });
    const started = await admin(api.exports.create, {
      format: 'auditCsv',
      startDate: '2020-01-01',
      endDate: '2020-01-02',
      timeZone: 'Asia/Seoul',
    });
    const empty = await finished(admin, started.body.data.list[0]!.jobId);
    const token = (await admin(api.exports.link, { jobId: empty.jobId })).body.data.token;
    const body = (await download(admin, token)).rawPayload.toString('utf8');
    expect(body.split('\r\n').filter(Boolean)).toHaveLength(2); // header and the chain line: no record of 2020
    const todays = await admin(api.exports.create, {
      format: 'auditCsv',
      startDate: today,
      endDate: today,
      timeZone: 'Asia/Seoul',
    });
    const done = await finished(admin, todays.body.data.list[0]!.jobId);
    expect(done.size).toBeGreaterThan(empty.size!);
  });

  it("is the administrators': others are refused and nothing is written", async () => {
    const [jobs, records] = [await jobCount(), await auditCount()];
    const refused = await leader(api.exports.create, { format: 'auditCsv' });
    expect([refused.http, refused.body.status]).toEqual([403, ERR.forbidden]);
    expect([await jobCount(), await auditCount()]).toEqual([jobs, records]);
  });
});

describe('export jobs: who may export a project', () => {
  it('refuses an outsider with 404, bad input with field errors, and writes nothing', async () => {
    const [jobs, records] = [await jobCount(), await auditCount()];
    const hidden = await outsider(api.exports.create, { format: 'pdf', projectNos: [projectNo] });
    expect([hidden.http, hidden.body.status]).toEqual([404, ERR.notFound]);
    const missing = await leader(api.exports.create, { format: 'pdf', projectNos: [projectNo, 999_999] });
    expect(missing.body.status).toBe(ERR.notFound);
    for (const bad of [
      { format: 'pdf', projectNos: [] },
      { format: 'docx', projectNos: [projectNo] },
      { format: 'auditCsv', projectNos: [projectNo] },
      { format: 'eln', projectNos: [projectNo], startDate: '2026-02-30' },
      { format: 'eln', projectNos: [projectNo], startDate: '2026-03-02', endDate: '2026-03-01' },
      { format: 'eln', projectNos: [projectNo], timeZone: 'Mars/Olympus' },
      { format: 'eln', projectNos: [projectNo], pdfA: true },
      { format: 'eln', projectNos: [projectNo], changes: true },
      { format: 'pdf', projectNos: [projectNo], changes: 'yes' },
      { format: 'eln', noteNo: 1 },
      { format: 'pdf', noteNo: 1, projectNos: [projectNo] },
      { format: 'pdf', projectNos: [projectNo], version: 1 },
      { format: 'eln', projectNos: Array.from({ length: EXPORT_LIMITS.projectsPerRequest + 1 }, (_, i) => i + 1) },
    ]) {
      const answer = await leader(api.exports.create, bad);
      expect([answer.http, answer.body.status], JSON.stringify(bad)).toEqual([400, ERR.validation]);
    }
    expect([await jobCount(), await auditCount()]).toEqual([jobs, records]);
  });

  it('lets the leader, a participant and an administrator queue one, and the project answers the ability', async () => {
    for (const caller of [leader, participant, admin]) {
      const detail = await caller(api.projects.detail, { projectNo });
      expect(detail.body.data.abilities.export).toBe(true);
    }
    // Held in the queue (no runner) so that the listing below sees them waiting.
    await server.services.exportJobs.stop();
    try {
      for (const caller of [leader, participant, admin]) {
        const answer = await caller(api.exports.create, { format: 'eln', projectNos: [projectNo] });
        expect(answer.body.status).toBe('0000');
        expect(answer.body.data.list).toMatchObject([
          { format: 'eln', projectNo, projectTitle: 'Export project', status: 'queued', downloadable: false },
        ]);
      }
      const mine = await participant(api.exports.list, {});
      expect(mine.body.data.list.every((job) => job.requestedBy.name === 'Oh Participant')).toBe(true);
      const everyone = await otherAdmin(api.exports.list, { projectNo });
      expect(new Set(everyone.body.data.list.map((job) => job.requestedBy.name))).toEqual(
        new Set(['Han Leader', 'Oh Participant', 'Administrator']),
      );
      const notReady = await leader(api.exports.link, { jobId: mine.body.data.list[0]!.jobId });
      expect(notReady.body.status).toBe(ERR.notFound);
      const waiting = (await leader(api.exports.list, {})).body.data.list[0]!;
      expect((await leader(api.exports.link, { jobId: waiting.jobId })).body.status).toBe(ERR.exportNotReady);
      const hidden = await outsider(api.exports.list, { projectNo });
      expect(hidden.body.status).toBe(ERR.notFound);
    } finally {
      await server.database.db
        .update(exportJobs)
        .set({ status: 'failed', errorCode: ERR.exportInterrupted })
        .where(eq(exportJobs.status, 'queued'));
    }
  });

  it('holds at most the open-job limit per user', async () => {
    await server.services.exportJobs.stop();
    try {
      const burst = await leader(api.exports.create, { format: 'pdf', projectNos: [projectNo] });
      expect(burst.body.status).toBe('0000');
      await server.database.db.execute(
        sql`insert into export_jobs (job_id, requested_by_user_no, format, project_no, language, time_zone)
            select gen_random_uuid(), requested_by_user_no, format, project_no, language, time_zone from export_jobs, generate_series(2, ${EXPORT_LIMITS.openJobsPerUser}) where job_id = ${burst.body.data.list[0]!.jobId}::uuid`,
      );
      const jobs = await jobCount();
      const full = await leader(api.exports.create, { format: 'pdf', projectNos: [projectNo] });
      expect([full.http, full.body.status]).toEqual([429, ERR.exportQueueFull]);
      expect(full.body.message).toContain(String(EXPORT_LIMITS.openJobsPerUser));
      expect(await jobCount()).toBe(jobs);
    } finally {
      await server.database.db
        .update(exportJobs)
        .set({ status: 'failed', errorCode: ERR.exportInterrupted })
        .where(eq(exportJobs.status, 'queued'));
    }
  });
});

describe('export jobs: download tokens', () => {
  let job: ExportJob;
  beforeAll(async () => {
    server.services.exportJobs.start();
    const started = await admin(api.exports.create, { format: 'auditCsv' });
    job = await finished(admin, started.body.data.list[0]!.jobId);
  });

  it("are the requester's alone: another administrator sees the job but gets no link, and a copied token is refused", async () => {
    const seen = await otherAdmin(api.exports.detail, { jobId: job.jobId });
    expect(seen.body.data).toMatchObject({ jobId: job.jobId, downloadable: false });
    const link = await otherAdmin(api.exports.link, { jobId: job.jobId });
    expect([link.http, link.body.status]).toEqual([403, ERR.forbidden]);
    const token = (await admin(api.exports.link, { jobId: job.jobId })).body.data.token;
    const copied = await download(otherAdmin, token);
    expect(copied.statusCode).toBe(403);
    expect(JSON.parse(copied.payload).status).toBe(ERR.forbidden);
    expect((await outsider(api.exports.detail, { jobId: job.jobId })).body.status).toBe(ERR.notFound);
  });

  it('expire, and a forged or altered token is refused', async () => {
    const links = new ExportLinks('a-different-secret');
    const forged = links.make(job.jobId, 1).token;
    expect(JSON.parse((await download(admin, forged)).payload).status).toBe(ERR.forbidden);
    const real = (await admin(api.exports.link, { jobId: job.jobId })).body.data.token;
    const altered = real.replace(/\.(\d+)\./, (_, expires: string) => `.${Number(expires) + 3600}.`);
    expect(JSON.parse((await download(admin, altered)).payload).status).toBe(ERR.forbidden);
    const old = server.services.exportLinks.make(
      job.jobId,
      (await server.database.db.select().from(exportJobs).where(eq(exportJobs.jobId, job.jobId)))[0]!.requestedByUserNo,
      Date.now() - (EXPORT_LIMITS.linkSeconds + 1) * 1000,
    );
    const expired = await download(admin, old.token);
    expect([expired.statusCode, JSON.parse(expired.payload).status]).toEqual([410, ERR.exportLinkExpired]);
  });

  it('find nothing once the file is gone', async () => {
    const [row] = await server.database.db.select().from(exportJobs).where(eq(exportJobs.jobId, job.jobId));
    await server.database.db.update(exportJobs).set({ removedAt: new Date() }).where(eq(exportJobs.jobId, job.jobId));
    expect((await admin(api.exports.link, { jobId: job.jobId })).body.status).toBe(ERR.exportGone);
    expect(existsSync(path.join(server.config.filesDir, row!.storagePath!))).toBe(true);
  });
});

describe('export jobs: a server that stopped', () => {
  it('fails its running jobs as interrupted once their heartbeat is old, audited, removes what they wrote, and gives no link', async () => {
    await server.services.exportJobs.stop();
    const started = await admin(api.exports.create, { format: 'auditCsv' });
    const jobId = started.body.data.list[0]!.jobId;
    await server.database.db
      .update(exportJobs)
      .set({ status: 'running', heartbeatAt: new Date(Date.now() - 5 * 60_000) })
      .where(eq(exportJobs.jobId, jobId));
    const leftover = path.join(server.config.filesDir, 'exports', `${jobId}.csv.partial`);
    mkdirSync(path.dirname(leftover), { recursive: true });
    writeFileSync(leftover, 'half a file');
    server.services.exportJobs.start();
    const job = await finished(admin, jobId);
    expect(job).toMatchObject({ status: 'failed', errorCode: ERR.exportInterrupted, downloadable: false });
    expect(existsSync(leftover)).toBe(false);
    const link = await admin(api.exports.link, { jobId });
    expect(link.body.status).toBe(ERR.exportFailed);
    const [record] = await server.database.db.select().from(auditLog).where(eq(auditLog.action, 'export.failed'));
    expect(record).toMatchObject({ targetType: 'export', targetId: jobId });
  });
});

describe('export jobs: a project as PDF and as .eln, and the archive imported again', () => {
  let labNoteNo: number;
  beforeAll(async () => {
    server.services.exportJobs.start();
    labNoteNo = (await leader(api.notes.create, { projectNo, title: 'Buffer prep' })).body.data.labNoteNo;
    const content = {
      type: 'doc',
      content: [
        { type: 'heading', attrs: { blockUid: 'hexport000000000001', level: 2 }, content: [{ type: 'text', text: 'Buffer preparation' }] },
        {
          type: 'paragraph',
          attrs: { blockUid: 'pexport000000000002' },
          content: [{ type: 'text', text: '완충액 준비 緩衝液の調製 pH 7.4' }],
        },
      ],
    };
    await server.database.db.insert(documentUpdates).values({ documentName: noteDocumentName(labNoteNo), update: initialUpdate(content) });
    expect((await leader(api.notes.saveVersion, { labNoteNo, version: 0, blockList: [] })).body.status).toBe('0000');
  });

  async function fetched(caller: Caller, format: 'pdf' | 'eln', pdfA = false) {
    const started = await caller(api.exports.create, {
      format,
      projectNos: [projectNo],
      timeZone: 'Asia/Tokyo',
      pdfA,
    });
    expect(started.body.status).toBe('0000');
    const job = await finished(caller, started.body.data.list[0]!.jobId);
    expect(job).toMatchObject({ status: 'done', downloadable: true });
    const token = (await caller(api.exports.link, { jobId: job.jobId })).body.data.token;
    const file = await download(caller, token);
    expect(file.statusCode).toBe(200);
    expect(file.headers['x-content-sha256']).toBe(job.sha256);
    return { job, bytes: file.rawPayload };
  }

  it('prints the PDF of the project with its notes in their languages', async () => {
    const { job, bytes } = await fetched(participant, 'pdf');
    expect(job.fileName).toMatch(/^Export project-\d{4}-\d{2}-\d{2}\.pdf$/);
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const folder = mkdtempSync(path.join(tmpdir(), 'export-pdf-'));
    try {
      writeFileSync(path.join(folder, 'project.pdf'), bytes);
      const text = execFileSync('pdftotext', ['-layout', path.join(folder, 'project.pdf'), '-'], { encoding: 'utf8' });
      for (const expected of ['Export project', 'Buffer preparation', '완충액 준비', '緩衝液の調製', 'Asia/Tokyo'])
        expect(text).toContain(expected);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('prints one saved version of one note, for those who may read it, and refuses a version never saved', async () => {
    const started = await participant(api.exports.create, { format: 'pdf', noteNo: labNoteNo });
    expect(started.body.status).toBe('0000');
    expect(started.body.data.list).toMatchObject([
      { noteNo: labNoteNo, version: 1, labNoteNumber: expect.stringMatching(/^LN-\d{4}-\d{6}$/) },
    ]);
    const job = await finished(participant, started.body.data.list[0]!.jobId);
    expect(job.fileName).toMatch(/^LN-\d{4}-\d{6}-v1-\d{4}-\d{2}-\d{2}\.pdf$/);
    const token = (await participant(api.exports.link, { jobId: job.jobId })).body.data.token;
    const folder = mkdtempSync(path.join(tmpdir(), 'export-note-'));
    try {
      writeFileSync(path.join(folder, 'note.pdf'), (await download(participant, token)).rawPayload);
      const text = execFileSync('pdftotext', ['-layout', path.join(folder, 'note.pdf'), '-'], { encoding: 'utf8' });
      for (const expected of ['Buffer preparation', '완충액 준비', job.labNoteNumber!]) expect(text).toContain(expected);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
    const [jobs, records] = [await jobCount(), await auditCount()];
    const unsaved = await participant(api.exports.create, { format: 'pdf', noteNo: labNoteNo, version: 2 });
    expect([unsaved.http, unsaved.body.status]).toEqual([422, ERR.exportNoVersion]);
    const hidden = await outsider(api.exports.create, { format: 'pdf', noteNo: labNoteNo });
    expect([hidden.http, hidden.body.status]).toEqual([404, ERR.notFound]);
    expect([await jobCount(), await auditCount()]).toEqual([jobs, records]);
    const abilities = async (caller: Caller) => (await caller(api.notes.blockList, { labNoteNo })).body.data.note.abilities.exportPdf;
    expect(await abilities(participant)).toBe(true);
    expect(await abilities(admin)).toBe(true);
  });

  it("adds each note's changes since the version before it when asked, and not otherwise", async () => {
    const started = await participant(api.exports.create, { format: 'pdf', noteNo: labNoteNo, changes: true });
    expect(started.body.data.list).toMatchObject([{ noteNo: labNoteNo, changes: true }]);
    const job = await finished(participant, started.body.data.list[0]!.jobId);
    const [record] = await server.database.db
      .select({ after: auditLog.after })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'export.requested'), eq(auditLog.targetId, job.jobId)));
    expect(record?.after).toMatchObject({ changes: true });
    const token = (await participant(api.exports.link, { jobId: job.jobId })).body.data.token;
    const folder = mkdtempSync(path.join(tmpdir(), 'export-changes-'));
    try {
      writeFileSync(path.join(folder, 'note.pdf'), (await download(participant, token)).rawPayload);
      const text = execFileSync('pdftotext', ['-layout', path.join(folder, 'note.pdf'), '-'], { encoding: 'utf8' });
      // Version 1 is the note's first: everything in it was added.
      expect(text).toContain(PDF_MESSAGES.changesFirst.en);
      expect(text).toContain(PDF_MESSAGES.changeAdded.en);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
    const plain = await participant(api.exports.create, { format: 'pdf', noteNo: labNoteNo });
    expect(plain.body.data.list).toMatchObject([{ changes: false }]);
    await finished(participant, plain.body.data.list[0]!.jobId);
  });

  it('makes the PDF a PDF/A-2b copy when asked (Ghostscript), named so', async () => {
    const { job, bytes } = await fetched(leader, 'pdf', true);
    expect(job).toMatchObject({ pdfA: true });
    expect(job.fileName).toMatch(/-PDFA-\d{4}-\d{2}-\d{2}\.pdf$/);
    const folder = mkdtempSync(path.join(tmpdir(), 'export-pdfa-'));
    try {
      writeFileSync(path.join(folder, 'archive.pdf'), bytes);
      const xmp = execFileSync('pdfinfo', ['-meta', path.join(folder, 'archive.pdf')], { encoding: 'utf8' });
      expect(xmp).toMatch(/pdfaid:part=['"]2['"]/);
      expect(xmp).toMatch(/pdfaid:conformance=['"]B['"]/);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('makes a signed .eln archive that imports as a new project, and refuses a damaged one', async () => {
    const { bytes } = await fetched(leader, 'eln');
    const upload = (name: string, content: Buffer, caller: Caller = leader) => uploadEln(server, caller, name, content);
    const projectCount = async () => (await server.database.db.select({ n: count() }).from(projects))[0]!.n;
    const before = await projectCount();
    // Six bytes changed in the middle of the archive (inside the note's PDF, stored uncompressed).
    const middle = Math.floor(bytes.length / 2);
    const refused = await upload(
      'export.eln',
      Buffer.concat([bytes.subarray(0, middle), Buffer.from('damage'), bytes.subarray(middle + 6)]),
    );
    expect(JSON.parse(refused.payload).status).toBe(ERR.elnChecksum);
    expect(await projectCount()).toBe(before);
    const withoutProjectFlag = await signedIn(
      await server.createUser({ name: 'No Flag', auth: { project: 'N', schema: 'N', dropbox: 'N', template: 'N' } }),
    );
    const noFlag = await upload('export.eln', bytes, withoutProjectFlag);
    expect(JSON.parse(noFlag.payload).status).toBe(ERR.forbidden);
    expect(await projectCount()).toBe(before);

    const imported = await upload('export.eln', bytes);
    const answer = JSON.parse(imported.payload) as { status: string; data: ElnImportAnswer };
    expect(answer.status).toBe('0000');
    expect(answer.data).toMatchObject({ noteCount: 1, signed: 'thisServer' });
    const [note] = await server.database.db.select().from(labNotes).where(eq(labNotes.projectNo, answer.data.projectNo));
    expect(note).toMatchObject({ title: 'Buffer prep', version: 1 });
    expect(await server.database.db.select().from(noteSignatures).where(eq(noteSignatures.noteNo, note!.noteNo))).toEqual([]);
    const [record] = await server.database.db.select().from(auditLog).where(eq(auditLog.action, 'export.imported'));
    expect(record).toMatchObject({ targetType: 'project', targetId: String(answer.data.projectNo) });

    // While other imports hold the unpacking budget, another is refused in the caller's language and writes
    // nothing; once they are done it goes through.
    const others = server.services.elnImports.reserve(server.services.elnImports.capacity);
    const busyBefore = await projectCount();
    try {
      const busy = await uploadEln(server, leader, 'export.eln', bytes, 'ko');
      const refusal = JSON.parse(busy.payload) as { status: string; message: string };
      expect([busy.statusCode, refusal.status]).toEqual([503, ERR.elnImportBusy]);
      expect(refusal.message).toContain('몇 분 뒤 다시 시도해 주세요');
      expect(refusal.message).not.toMatch(/\{\w+\}/);
      expect(await projectCount()).toBe(busyBefore);
    } finally {
      others();
    }
    expect(JSON.parse((await uploadEln(server, leader, 'export.eln', bytes)).payload)).toMatchObject({ status: '0000' });
    expect(server.services.elnImports.inUse()).toBe(0);
  });

  it('hands out the public key that checks the archives, in minisign format', async () => {
    const answer = await participant(api.exports.publicKey, {});
    expect(answer.body.data.minisignPub).toMatch(/^untrusted comment: .+\nRW[A-Za-z0-9+/=]{54}\n?$/);
  });

  // Last in this block: it adds a second note to the project, which the import above counts. Its own
  // timeout: four project exports (the server's jobs, then the makers again on their rows) and a browser
  // start took 6-7 s with both databases' files at once; a slow machine under CI's load is 3-6 times that.
  it('prints all the notes of a project export in one browser tab, the PDF and the .eln alike', async () => {
    const second = (await leader(api.notes.create, { projectNo, title: 'Second note' })).body.data.labNoteNo;
    expect((await leader(api.notes.saveVersion, { labNoteNo: second, version: 0, blockList: [] })).body.status).toBe('0000');
    const printer = new PdfPrinter({ executablePath: server.config.chromiumPath });
    const makers = exportMakers(server.database.db, server.config, printer);
    const folder = mkdtempSync(path.join(tmpdir(), 'export-tabs-'));
    try {
      const contextsOpened = await countingContexts(printer);
      for (const format of ['pdf', 'eln'] as const) {
        const { job } = await fetched(leader, format);
        const [row] = await server.database.db.select().from(exportJobs).where(eq(exportJobs.jobId, job.jobId));
        const before = contextsOpened();
        const outPath = path.join(folder, `project.${format}`);
        await makers[format]({
          job: row!,
          language: row!.language as Language,
          outPath,
          progress: () => undefined,
          signal: new AbortController().signal,
        });
        // The project PDF prints two notes and its cover, the archive each note's PDF: one context (and tab) for all.
        expect([format, contextsOpened() - before]).toEqual([format, 1]);
        // Both notes were printed (one print alone would open one context whatever the session).
        if (format === 'pdf') expect(execFileSync('pdftotext', [outPath, '-'], { encoding: 'utf8' })).toContain('Second note');
        else
          expect(
            execFileSync('unzip', ['-Z1', outPath], { encoding: 'utf8' })
              .split('\n')
              .filter((name) => name.endsWith('.pdf')),
          ).toHaveLength(2);
      }
    } finally {
      await printer.close();
      rmSync(folder, { recursive: true, force: true });
    }
  }, 180_000);
});

describe('export jobs: someone removed from the project', () => {
  it('gets neither a link nor the file of an export made before, and a job still waiting fails', async () => {
    server.services.exportJobs.start();
    const removedUser = await server.createUser({ name: 'Leaving Soon' });
    const leaving = await signedIn(removedUser);
    const other = await leader(api.projects.create, {
      title: 'Leaving project',
      description: '',
      signatureList: { department: '', user: removedUser.userId },
    });
    const otherNo = other.body.data.projectNo;
    const made = await leaving(api.exports.create, { format: 'pdf', projectNos: [otherNo] });
    const done = await finished(leaving, made.body.data.list[0]!.jobId);
    expect(done.status).toBe('done');
    const token = (await leaving(api.exports.link, { jobId: done.jobId })).body.data.token;
    await server.services.exportJobs.stop();
    const waiting = (await leaving(api.exports.create, { format: 'pdf', projectNos: [otherNo] })).body.data.list[0]!;

    const staying = await server.createUser({ name: 'Staying On' });
    expect(
      (
        await leader(api.projects.update, {
          projectNo: otherNo,
          title: 'Leaving project',
          description: '',
          signatureList: { department: '', user: staying.userId },
        })
      ).body.status,
    ).toBe('0000');
    const link = await leaving(api.exports.link, { jobId: done.jobId });
    expect([link.http, link.body.status]).toEqual([404, ERR.notFound]);
    const file = await download(leaving, token);
    expect([file.statusCode, JSON.parse(file.payload).status]).toEqual([404, ERR.notFound]);
    server.services.exportJobs.start();
    expect(await finished(leaving, waiting.jobId)).toMatchObject({ status: 'failed', errorCode: ERR.forbidden });
  });
});

describe('a server without chromium', () => {
  let bare: TestServer;
  let bareLeader: Caller;
  let bareProjectNo: number;
  beforeAll(async () => {
    bare = await startTestServer({ config: { chromiumPath: '/nonexistent/chromium' } });
    const user = await bare.createUser({ name: 'Bare Leader', auth: { project: 'Y', schema: 'N', dropbox: 'N', template: 'N' } });
    const { accessToken } = await bare.signIn(user.userId, user.password);
    bareLeader = Object.assign(bare.callerWith(accessToken), { token: accessToken });
    bareProjectNo = (
      await bareLeader(api.projects.create, {
        title: 'No browser project',
        description: '',
        signatureList: { department: '', user: (await bare.createUser({ name: 'Bare Participant' })).userId },
      })
    ).body.data.projectNo;
    const noteNo = (await bareLeader(api.notes.create, { projectNo: bareProjectNo, title: 'Saved note' })).body.data.labNoteNo;
    expect((await bareLeader(api.notes.saveVersion, { labNoteNo: noteNo, version: 0, blockList: [] })).body.status).toBe('0000');
    bare.services.exportJobs.start();
  });
  afterAll(async () => {
    await bare?.stop();
  });

  async function run(format: 'pdf' | 'eln'): Promise<ExportJob> {
    const started = await bareLeader(api.exports.create, { format, projectNos: [bareProjectNo] });
    expect(started.body.status).toBe('0000');
    await bare.services.exportJobs.idle();
    return (await bareLeader(api.exports.detail, { jobId: started.body.data.list[0]!.jobId })).body.data;
  }

  it('says PDF export is unavailable and names the Debian packages to install', async () => {
    const support = await bareLeader(api.exports.support, {});
    expect(support.body.status).toBe('0000');
    expect(support.body.data).toMatchObject({ pdf: false });
    expect(support.body.data.missingPackages[0]).toBe('chromium');
    // This machine has the fonts and Ghostscript (CI installs them), so chromium is all it lacks.
    expect(await admin(api.exports.support, {})).toMatchObject({ body: { data: { pdf: true, pdfA: true, missingPackages: [] } } });
    expect(support.body.data).toMatchObject({ pdfA: true, missingPackages: ['chromium'] });
  });

  it('makes the .eln archive complete but for the PDF copies, saying so in its crate, while a PDF export fails with 8016', async () => {
    const eln = await run('eln');
    expect(eln).toMatchObject({ status: 'done', errorCode: null });
    const token = (await bareLeader(api.exports.link, { jobId: eln.jobId })).body.data.token;
    const file = await bare.app.inject({
      method: 'POST',
      url: `/server${api.exports.download.path}`,
      payload: { token },
      headers: { authorization: `Bearer ${bareLeader.token}` },
    });
    expect(file.statusCode).toBe(200);
    const folder = mkdtempSync(path.join(tmpdir(), 'export-no-browser-'));
    try {
      const archive = path.join(folder, 'project.eln');
      writeFileSync(archive, file.rawPayload);
      const entries = execFileSync('unzip', ['-Z1', archive], { encoding: 'utf8' }).split('\n').filter(Boolean);
      expect(entries.filter((name) => name.endsWith('.pdf'))).toEqual([]);
      expect(entries.some((name) => /\/v1\.json$/.test(name))).toBe(true);
      const crate = JSON.parse(execFileSync('unzip', ['-p', archive, '*/ro-crate-metadata.json'], { encoding: 'utf8' })) as {
        '@graph': Array<Record<string, unknown>>;
      };
      const root = crate['@graph'].find((e) => e['@id'] === './')!;
      expect(root.additionalProperty).toEqual({ '@id': '#pdf-copies' });
      expect(crate['@graph'].find((e) => e['@id'] === '#pdf-copies')).toMatchObject({ propertyID: 'pdfCopies', value: 'omitted' });
      expect(root.description).toContain('Chromium is not installed');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
    expect(await run('pdf')).toMatchObject({ status: 'failed', errorCode: ERR.exportNoBrowser });
  });
});
