/** The PDF export: a note's PDF, a project's PDF, and the printer they share (one per server process). */
export { PdfPrinter, ChromiumMissingError } from './printer.js';
export { renderNotePdf } from './notePdf.js';
export { writeProjectPdf } from './projectPdf.js';
export type { PdfOptions } from './options.js';
export { pdfASupport, convertToPdfA, type PdfASupport } from './pdfA.js';
