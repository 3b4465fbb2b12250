import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { api, noteDocumentName, type ExportFormat, type PmNode, type UploadAnswer } from '@eln/shared';
import { buildApp, type App } from '../../server/src/app.js';
import { loadConfig } from '../../server/src/config.js';
import { openDatabase } from '../../server/src/db/client.js';
import { documentUpdates } from '../../server/src/db/schema.js';
import { multipartBody } from '../../server/src/files/multipartBody.js';
import { initialUpdate } from '../../server/src/seed/demoTemplates.js';
import { bootstrap } from '../../server/src/system/bootstrap.js';
import { injectCall } from './calls.js';
import { freshPostgres, printTable } from './database.js';

/**
 * A large project leaves the notebook: 200 saved notes (text and a 10 x 10 table each) holding 50 files
 * of 1 MB, exported as a signed .eln archive and as a PDF through the real job queue on PostgreSQL. Prints
 * each export's time, its size, and the server process's peak memory above what it used before, which
 * stays far below the 50 MB of files because archives are streamed and PDFs merged note by note.
 */
/** BENCH_EXPORT_NOTES (a multiple of 4) exports a smaller project, for measuring a change quickly. */
const NOTES = Number(process.env.BENCH_EXPORT_NOTES ?? 200);
if (!Number.isInteger(NOTES) || NOTES < 4 || NOTES % 4)
  throw new Error(`BENCH_EXPORT_NOTES must be a multiple of 4, at least 4 (is ${process.env.BENCH_EXPORT_NOTES})`);
/** One note in four holds a file. */
const FILES = NOTES / 4;
const FILE_BYTES = 1024 * 1024;
const PASSWORD = 'bench-writer-password';

async function upload(app: App, token: string, labNoteNo: number, name: string, content: Buffer): Promise<string> {
  const { payload, contentType } = multipartBody({ labNoteNo: String(labNoteNo) }, { name, content });
  const response = await app.app.inject({
    method: 'POST',
    url: `/server${api.files.upload.path}`,
    payload,
    headers: { 'content-type': contentType, authorization: `Bearer ${token}` },
  });
  const answer = response.json<{ status: string; data: UploadAnswer }>();
  if (answer.status !== '0000') throw new Error(`upload: ${response.body}`);
  return answer.data.fileId;
}

let uid = 0;
const blockUid = (prefix: string) => `${prefix}bench${String((uid += 1)).padStart(11, '0')}`;
const text = (value: string) => ({ type: 'text', text: value });
function noteContent(index: number, fileId: string | null): PmNode {
  const cells = (row: number) =>
    Array.from({ length: 10 }, (_, column) => ({
      type: row === 0 ? 'tableHeader' : 'tableCell',
      content: [{ type: 'paragraph', content: [text(row === 0 ? `C${column}` : `${row * column}.${index}`)] }],
    }));
  return {
    type: 'doc',
    content: [
      { type: 'heading', attrs: { blockUid: blockUid('h'), level: 2 }, content: [text(`Run ${index}`)] },
      ...Array.from({ length: 5 }, (_, p) => ({
        type: 'paragraph',
        attrs: { blockUid: blockUid('p') },
        content: [text(`Observation ${p} of run ${index}: 시료 ${p} 관찰, 試料 ${p} 観察. `.repeat(4))],
      })),
      {
        type: 'table',
        attrs: { blockUid: blockUid('t') },
        content: Array.from({ length: 10 }, (_, row) => ({ type: 'tableRow', content: cells(row) })),
      },
      ...(fileId ? [{ type: 'fileAttachment', attrs: { blockUid: blockUid('f'), fileId, name: `data-${index}.txt` } }] : []),
    ],
  };
}

/** Peak resident memory of this process while `work` runs, sampled every 20 ms. */
async function peakMemory<T>(work: () => Promise<T>): Promise<{ result: T; peakMb: number; baseMb: number }> {
  global.gc?.();
  const baseMb = process.memoryUsage().rss / 2 ** 20;
  let peak = baseMb;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss / 2 ** 20)), 20);
  try {
    return { result: await work(), peakMb: Math.max(peak, process.memoryUsage().rss / 2 ** 20), baseMb };
  } finally {
    clearInterval(sampler);
  }
}

export async function exportBench(): Promise<void> {
  const target = await freshPostgres();
  const database = await openDatabase({ kind: 'postgres', url: target.url });
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    ELN_ADMIN_PASSWORD: 'bench-admin-password',
    CLIENT_DIST: '/nonexistent',
    DATA_DIR: `/tmp/eln-export-bench-${randomBytes(4).toString('hex')}`,
  });
  const app = await buildApp(config, database);
  try {
    await bootstrap(database.db, config);
    const admin = (await injectCall(app, api.auth.signIn, { userId: config.admin.email, password: 'bench-admin-password' })).accessToken;
    const userId = 'writer@bench.test';
    await injectCall(
      app,
      api.users.create,
      { userId, name: 'Writer', password: PASSWORD, auth: { project: 'Y', schema: 'N', dropbox: 'N', template: 'N' } },
      admin,
    );
    const signIn = async () => (await injectCall(app, api.auth.signIn, { userId, password: PASSWORD })).accessToken;
    const token = await signIn();
    const { projectNo } = await injectCall(
      app,
      api.projects.create,
      { title: 'Export bench', signatureList: { department: '', user: userId } },
      token,
    );
    const built = performance.now();
    for (let index = 0; index < NOTES; index += 1) {
      const { labNoteNo } = await injectCall(app, api.notes.create, { projectNo, title: `Run ${index}` }, token);
      const fileId =
        index % (NOTES / FILES) === 0
          ? await upload(app, token, labNoteNo, `data-${index}.txt`, Buffer.alloc(FILE_BYTES, `run ${index} `))
          : null;
      await database.db
        .insert(documentUpdates)
        .values({ documentName: noteDocumentName(labNoteNo), update: initialUpdate(noteContent(index, fileId)) });
      await injectCall(app, api.notes.saveVersion, { labNoteNo, version: 0, blockList: [] }, token);
    }
    console.log(
      `dataset: ${NOTES} saved notes, ${FILES} files of ${FILE_BYTES / 2 ** 20} MB, built in ${((performance.now() - built) / 1000).toFixed(1)} s`,
    );

    const rows: Array<Record<string, string | number>> = [];
    for (const format of ['eln', 'pdf'] as ExportFormat[]) {
      const started = performance.now();
      const {
        result: job,
        peakMb,
        baseMb,
      } = await peakMemory(async () => {
        const [queued] = (await injectCall(app, api.exports.create, { format, projectNos: [projectNo] }, await signIn())).list;
        for (;;) {
          await app.services.exportJobs.idle();
          // Signed in afresh, as the client refreshes its session: on a slow machine an export outlasts an access token.
          const current = await injectCall(app, api.exports.detail, { jobId: queued!.jobId }, await signIn());
          if (current.status === 'done' || current.status === 'failed') return current;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      });
      if (job.status !== 'done') throw new Error(`${format} export failed: ${job.errorCode}`);
      rows.push({
        format,
        'time (s)': Number(((performance.now() - started) / 1000).toFixed(1)),
        'file (MB)': Number(((job.size ?? 0) / 2 ** 20).toFixed(1)),
        'server RSS before (MB)': Math.round(baseMb),
        'peak above it (MB)': Math.round(peakMb - baseMb),
        'goal: peak below the files (MB)': Math.round((FILES * FILE_BYTES) / 2 ** 20),
        verdict: peakMb - baseMb < (FILES * FILE_BYTES) / 2 ** 20 ? 'ok' : 'OVER GOAL',
      });
    }
    printTable(
      `Export of a project of ${NOTES} notes and ${FILES} MB of files (PostgreSQL, job queue, chromium for the PDF outside this process)`,
      rows,
    );
  } finally {
    await app.close();
    await database.close();
    await target.drop();
  }
}
