import { rename, rm, stat } from 'node:fs/promises';
import { PDFDocument, type PDFRef } from 'pdf-lib';
import type { Queryable } from '../../db/client.js';
import { exportNotes, loadExportProject, type ExportNote, type ExportProject } from '../projectContent.js';
import { coverPageHtml, type ContentsEntry } from './coverHtml.js';
import { coverMarginBoxes } from './marginBoxes.js';
import { pdfMessage } from './messages.js';
import { notePrintJob } from './notePdf.js';
import type { ProjectPdfOptions } from './options.js';
import { PdfFileWriter, type PdfSection } from './pdfFileWriter.js';
import { convertToPdfA } from './pdfA.js';
import type { PdfPrinter, Printer } from './printer.js';

export interface ProjectPdfResult {
  /** Pages of the file, the cover's included. */
  pages: number;
  notes: number;
  bytes: number;
  /** The file is PDF/A-2b (made through Ghostscript). */
  pdfA: boolean;
}

/** The cover is printed again when its contents did not fit the pages guessed for it (at most this often). */
const COVER_ATTEMPTS = 4;

/**
 * A project's PDF at `outPath`: the cover, then each note of `noteNos` in that order, each as its latest
 * saved version followed by its signature manifest and version history. Notes are read, printed and
 * written one at a time (`PdfFileWriter`), so memory does not grow with the project; the cover is printed
 * last, when every note's pages are known, and placed first. Progress counts the notes, plus one step for
 * the cover and the file's end. The file appears at `outPath` only when complete (it is written beside it
 * first and removed on failure or abort). With `options.pdfA` the file is made PDF/A-2b by Ghostscript
 * before it appears. Fails when the project does not exist.
 */
export async function writeProjectPdf(
  printer: PdfPrinter,
  db: Queryable,
  projectNo: number,
  noteNos: readonly number[],
  options: ProjectPdfOptions,
  outPath: string,
  onProgress: (done: number, total: number) => void = () => undefined,
): Promise<ProjectPdfResult> {
  const project = await loadExportProject(db, projectNo);
  if (!project) throw new Error(`project ${projectNo} does not exist`);
  const total = noteNos.length + 1;
  const partial = `${outPath}.partial`;
  const pdfAPartial = `${outPath}.pdfa.partial`;
  const writer = await PdfFileWriter.create(partial);
  try {
    const { notes, cover } = await printer.session(async (session) => {
      const printed: PrintedNote[] = [];
      for await (const { note, pdf } of printedAhead(session, project, exportNotes(db, noteNos, options.filesDir), options)) {
        const pages = await writer.append(pdf);
        printed.push({
          labNoteNumber: note.labNoteNumber,
          title: note.title,
          version: note.latest?.version ?? null,
          status: note.status,
          pages,
        });
        onProgress(printed.length, total);
      }
      options.signal?.throwIfAborted();
      return { notes: printed, cover: await printCover(session, project, printed, options) };
    });
    const coverPages = await writer.append(cover);
    const result = await writer.finish(
      [
        { title: project.title, pages: coverPages },
        ...notes.map((note): PdfSection => ({ title: `${note.labNoteNumber} · ${note.title}`, pages: note.pages })),
      ],
      {
        title: project.title,
        author: options.exportedBy.name,
        subject: pdfMessage('coverKind', options.lang),
        createdAt: options.exportedAt,
        lang: options.lang,
      },
    );
    let bytes = result.bytes;
    if (options.pdfA) {
      await convertToPdfA(partial, pdfAPartial, options.pdfA, options.signal);
      await rename(pdfAPartial, outPath);
      await rm(partial, { force: true });
      bytes = (await stat(outPath)).size;
    } else {
      await rename(partial, outPath);
    }
    onProgress(total, total);
    return { pages: result.pages, notes: notes.length, bytes, pdfA: Boolean(options.pdfA) };
  } catch (error) {
    await writer.abandon();
    await rm(partial, { force: true });
    await rm(pdfAPartial, { force: true });
    throw error;
  }
}

type PrintedNote = Omit<ContentsEntry, 'firstPage' | 'lastPage'> & { pages: readonly PDFRef[] };

/**
 * Each note with its printed PDF, in order; the next note is read and printed while the caller writes
 * this one (at most two printed notes in memory at once).
 */
async function* printedAhead(
  printer: Printer,
  project: ExportProject,
  notes: AsyncGenerator<ExportNote>,
  options: ProjectPdfOptions,
): AsyncGenerator<{ note: ExportNote; pdf: Buffer }> {
  const printNext = async () => {
    options.signal?.throwIfAborted();
    const next = await notes.next();
    if (next.done) return null;
    return { note: next.value, pdf: await printer.print(await notePrintJob(project, next.value, options, next.value.latest, false)) };
  };
  let ahead = printNext();
  try {
    for (;;) {
      const current = await ahead;
      if (!current) return;
      ahead = printNext();
      // Until awaited, a failure of the print ahead must not count as unhandled (the loop may stop first).
      ahead.catch(() => undefined);
      yield current;
    }
  } finally {
    await ahead.catch(() => undefined);
    await notes.return(undefined);
  }
}

/** The cover, its contents numbered for the pages it takes itself (printed again until that guess holds). */
async function printCover(
  printer: Printer,
  project: ExportProject,
  notes: readonly PrintedNote[],
  options: ProjectPdfOptions,
): Promise<Buffer> {
  let coverPages = 1;
  let pdf: Buffer | null = null;
  for (let attempt = 0; attempt < COVER_ATTEMPTS; attempt += 1) {
    pdf = await printer.print({
      html: coverPageHtml(project, contents(notes, coverPages), options),
      files: new Map(),
      charts: [],
      ...coverMarginBoxes(project, options),
      tagged: false,
    });
    const printed = (await PDFDocument.load(pdf, { updateMetadata: false })).getPageCount();
    if (printed === coverPages) return pdf;
    coverPages = printed;
  }
  return pdf!;
}

function contents(notes: readonly PrintedNote[], coverPages: number): ContentsEntry[] {
  let next = coverPages + 1;
  return notes.map((note) => {
    const entry = { ...note, firstPage: next, lastPage: next + note.pages.length - 1 };
    next += note.pages.length;
    return entry;
  });
}
