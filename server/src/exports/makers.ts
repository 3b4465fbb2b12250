import { createWriteStream } from 'node:fs';
import { rename, rm, writeFile } from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import { ERR, type Language } from '@eln/shared';
import type { Db } from '../db/client.js';
import type { ServerConfig } from '../config.js';
import { users } from '../db/schema.js';
import { cleanFileName } from '../files/fileName.js';
import { AppError } from '../http/errors.js';
import { mayExportProject } from './access.js';
import { auditCsvMaker } from './auditCsvExport.js';
import { exportThreads } from '../comments/exportThreads.js';
import type { ExportJobRow, ExportMaker, ExportMakers, ExportWork } from './jobs.js';
import { dayInZone, WELL_KNOWN_KEYS } from './eln/crate.js';
import { writeElnArchive, type ElnExportOptions } from './eln/index.js';
import {
  ChromiumMissingError,
  convertToPdfA,
  pdfASupport,
  renderNotePdf,
  writeProjectPdf,
  type PdfASupport,
  type PdfOptions,
  type PdfPrinter,
} from './pdf/index.js';
import { chromiumInstalled } from './pdf/support.js';
import { exportNoteNos, findVersionBlocks, loadExportNote, loadExportProject, type ExportRange } from './projectContent.js';

/** How each export format makes its file. */
export function exportMakers(db: Db, config: ServerConfig, printer: PdfPrinter): ExportMakers {
  return {
    auditCsv: auditCsvMaker(db),
    pdf: projectPdfMaker(db, config, printer),
    eln: projectElnMaker(db, config, printer),
  };
}

/** What every project export needs to know of its job: the project, the notes in range, who asked. */
export async function projectJobContext(db: Db, job: ExportJobRow) {
  if (job.projectNo === null) throw new Error(`export job ${job.jobId} names no project`);
  const project = await loadExportProject(db, job.projectNo);
  if (!project) throw new AppError(ERR.notFound);
  const range: ExportRange = { startDate: job.startDate, endDate: job.endDate, timeZone: job.timeZone };
  const noteNos = await exportNoteNos(db, job.projectNo, range);
  const [requester] = await db
    .select({ userNo: users.userNo, level: users.level, active: users.active, userId: users.userId, name: users.name })
    .from(users)
    .where(eq(users.userNo, job.requestedByUserNo));
  // Asked again when the job runs: someone removed from the project (or deactivated) since asking gets nothing.
  if (!requester?.active || !(await mayExportProject(db, requester, job.projectNo))) throw new AppError(ERR.forbidden);
  const exportedBy = { userId: requester.userId, name: requester.name };
  return { project, range, noteNos, exportedBy, exportedAt: new Date(), lang: job.language as Language };
}

/** `<project title>-<yyyy-mm-dd>.<ext>` (the day in the requester's zone), readable and safe as a file name anywhere. */
export const exportFileName = (title: string, at: Date, timeZone: string, extension: string) =>
  cleanFileName(`${title}-${dayInZone(at, timeZone)}.${extension}`);

/** Chromium missing is the server's state, not the job's fault: said as such. */
async function printing<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ChromiumMissingError) throw new AppError(ERR.exportNoBrowser, { cause: error });
    throw error;
  }
}

function projectPdfMaker(db: Db, config: ServerConfig, printer: PdfPrinter): ExportMaker {
  return async (work) => {
    const { job, outPath, progress, signal } = work;
    const pdfA = job.pdfA ? await pdfASupport() : null;
    if (job.pdfA && !pdfA) throw new AppError(ERR.exportNoGhostscript);
    if (job.noteNo !== null) return notePdf(db, config, printer, work, pdfA);
    const context = await projectJobContext(db, job);
    await printing(() =>
      writeProjectPdf(
        printer,
        db,
        context.project.projectNo,
        context.noteNos,
        {
          lang: context.lang,
          timeZone: job.timeZone,
          exportedAt: context.exportedAt,
          exportedBy: context.exportedBy,
          filesDir: config.filesDir,
          ...changesOption(db, job),
          ...commentsOption(db, job),
          range: context.range,
          signal,
          pdfA,
        },
        outPath,
        (done, total) => progress(done / total),
      ),
    );
    return { fileName: exportFileName(`${context.project.title}${pdfA ? '-PDFA' : ''}`, context.exportedAt, job.timeZone, 'pdf') };
  };
}

/** A PDF job that asked for each note's changes since its previous version: how the printer reads that version. */
function changesOption(db: Db, job: ExportJobRow): Pick<PdfOptions, 'previousBlocks'> {
  if (!job.changes) return {};
  return { previousBlocks: (noteNo, version) => (version > 1 ? findVersionBlocks(db, noteNo, version - 1) : Promise.resolve(null)) };
}

/** A PDF job that asked for the comment threads' appendix: how the printer reads a note's threads. */
function commentsOption(db: Db, job: ExportJobRow): Pick<PdfOptions, 'comments'> {
  return job.comments ? { comments: (noteNo) => exportThreads(db, noteNo) } : {};
}

/** One saved version of one note, with its signature manifest and history: `LN-2026-000042-v3.pdf`. */
async function notePdf(
  db: Db,
  config: ServerConfig,
  printer: PdfPrinter,
  { job, outPath, progress }: ExportWork,
  pdfA: PdfASupport | null,
): Promise<{ fileName: string }> {
  const context = await projectJobContext(db, job);
  const note = await loadExportNote(db, job.noteNo!, config.filesDir);
  const entry = note?.history.find((saved) => saved.version === job.version);
  const blocks = entry ? await findVersionBlocks(db, job.noteNo!, entry.version) : null;
  if (!note || !entry || !blocks) throw new AppError(ERR.exportNoVersion);
  progress(0.2);
  const bytes = await printing(() =>
    renderNotePdf(
      printer,
      context.project,
      note,
      {
        lang: context.lang,
        timeZone: job.timeZone,
        exportedAt: context.exportedAt,
        exportedBy: context.exportedBy,
        ...changesOption(db, job),
        ...commentsOption(db, job),
      },
      { ...entry, blocks },
    ),
  );
  progress(0.8);
  if (pdfA) {
    const printed = `${outPath}.printed`;
    try {
      await writeFile(printed, bytes);
      await convertToPdfA(printed, outPath, pdfA);
    } finally {
      await rm(printed, { force: true });
    }
  } else {
    await writeFile(`${outPath}.partial`, bytes);
    await rename(`${outPath}.partial`, outPath);
  }
  return {
    fileName: exportFileName(`${note.labNoteNumber}-v${entry.version}${pdfA ? '-PDFA' : ''}`, context.exportedAt, job.timeZone, 'pdf'),
  };
}

/**
 * A signed .eln archive of the project, each note's latest version also as the same PDF the PDF export
 * prints. Without chromium the archive is still made, complete but for those copies, and its crate says so.
 */
function projectElnMaker(db: Db, config: ServerConfig, printer: PdfPrinter): ExportMaker {
  return async ({ job, outPath, progress, signal }) => {
    const context = await projectJobContext(db, job);
    const pdfOptions = { lang: context.lang, timeZone: job.timeZone, exportedAt: context.exportedAt, exportedBy: context.exportedBy };
    const options: ElnExportOptions = {
      projectNo: context.project.projectNo,
      noteNos: context.noteNos,
      filesDir: config.filesDir,
      exportedAt: context.exportedAt,
      exportedBy: context.exportedBy,
      lang: context.lang,
      timeZone: job.timeZone,
      organization: config.company.name,
      keysUrl: `${config.publicUrl}${WELL_KNOWN_KEYS}`,
    };
    const write = (more: Partial<ElnExportOptions>) =>
      writeElnArchive(db, { ...options, ...more }, createWriteStream(outPath), (done, total) => progress(done / total));
    if (!(await chromiumInstalled(config.chromiumPath))) return { fileName: (await write({ pdfOmitted: 'noBrowser' })).fileName };
    // Every note's PDF is printed in one session: one warm tab for the whole archive.
    const written = await printing(() =>
      printer.session((session) =>
        write({
          notePdf: (project, note) => {
            signal.throwIfAborted();
            return renderNotePdf(session, project, note, pdfOptions);
          },
        }),
      ),
    );
    return { fileName: written.fileName };
  };
}
