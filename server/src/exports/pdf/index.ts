/** The PDF export: a note's PDF, a project's PDF, and the printer they share (one per server process). */
export { PdfPrinter, ChromiumMissingError, PrinterClosedError, type PdfPrinterOptions } from './printer.js';
export { renderNotePdf } from './notePdf.js';
export { writeProjectPdf, type ProjectPdfResult } from './projectPdf.js';
export type { PdfOptions, ProjectPdfOptions } from './options.js';
export type { PrintedVersion } from './noteHtml.js';
export { pdfASupport, convertToPdfA, type PdfASupport } from './pdfA.js';
