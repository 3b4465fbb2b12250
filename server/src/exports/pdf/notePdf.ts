import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import type { ExportNote, ExportProject } from '../projectContent.js';
import { chartPictures } from './charts.js';
import { noteMarginBoxes } from './marginBoxes.js';
import { notePageHtml, type PrintedVersion } from './noteHtml.js';
import type { PdfOptions } from './options.js';
import { exportFileUrl, type Printer, type PrintFile, type PrintJob } from './printer.js';

/**
 * A note's PDF: one saved version (the latest by default) with the note's signature manifest and version
 * history, every page headed by the note's number and that version and footed by the export time and
 * page x / y of this note. Tagged (accessible) unless it is a part of a larger file.
 */
export async function renderNotePdf(
  printer: Printer,
  project: ExportProject,
  note: ExportNote,
  options: PdfOptions,
  version: PrintedVersion | null = note.latest,
): Promise<Buffer> {
  return printer.print(await notePrintJob(project, note, options, version, true));
}

/** What the printer needs for a note: its page, the images it may load, its charts, its header and footer. */
export async function notePrintJob(
  project: ExportProject,
  note: ExportNote,
  options: PdfOptions,
  version: PrintedVersion | null,
  tagged: boolean,
): Promise<PrintJob> {
  const files = await readableImages(note);
  const previous = version && options.previousBlocks ? await options.previousBlocks(note.noteNo, version.version) : undefined;
  const threads = options.comments ? await options.comments(note.noteNo) : undefined;
  const html = notePageHtml(
    project,
    note,
    version,
    options,
    (fileId) => (files.has(fileId) ? exportFileUrl(fileId) : null),
    previous,
    threads,
  );
  return {
    html,
    files,
    charts: version ? chartPictures(version.blocks) : [],
    ...noteMarginBoxes(note, version?.version ?? null, options),
    tagged,
  };
}

/**
 * The note's images whose bytes are on disk. A missing one prints as the renderer's placeholder ("The
 * image is not included") rather than a broken picture; attachments are named, not linked.
 */
async function readableImages(note: ExportNote): Promise<Map<string, PrintFile>> {
  const out = new Map<string, PrintFile>();
  for (const file of note.files) {
    if (file.kind !== 'image' && !file.mimeType.startsWith('image/')) continue;
    try {
      await access(file.absolutePath, constants.R_OK);
      out.set(file.fileId, { absolutePath: file.absolutePath, mimeType: file.mimeType });
    } catch {
      // Not on disk: left out, so the page shows the placeholder.
    }
  }
  return out;
}
