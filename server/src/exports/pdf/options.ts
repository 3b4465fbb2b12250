import { formatZonedTime, type Language, type SavedBlock } from '@eln/shared';
import type { ExportThread } from '../../comments/exportThreads.js';
import type { ExportRange } from '../projectContent.js';
import { pdfMessage } from './messages.js';
import type { PdfASupport } from './pdfA.js';

/** What every PDF of the export says about itself: its language, and when, where and by whom it was made. */
export interface PdfOptions {
  lang: Language;
  /** IANA zone the export's times are written in (export time, saving times); signatures keep their signer's. */
  timeZone: string;
  exportedAt: Date;
  exportedBy: { userId: string; name: string };
  /**
   * Asked for the "changes since the previous version" section: the blocks of a note's version before
   * this one (null for a first version). Absent: no such section.
   */
  previousBlocks?: (noteNo: number, version: number) => Promise<SavedBlock[] | null>;
  /** Asked for the comment threads' appendix: a note's threads. Absent: no appendix. */
  comments?: (noteNo: number) => Promise<ExportThread[]>;
}

export interface ProjectPdfOptions extends PdfOptions {
  /** Where the stored files are (config.filesDir), to read each note's images. */
  filesDir: string;
  /** The range the notes were chosen by, printed on the cover (the caller chose `noteNos` with it). */
  range?: ExportRange;
  /** Stops the export between two notes (the partial file is removed). */
  signal?: AbortSignal;
  /** Makes the file PDF/A-2b with this Ghostscript (`pdfASupport()`); plain PDF when absent. */
  pdfA?: PdfASupport | null;
}

/** "2026-03-04 10:05 GMT+9 (Asia/Seoul)": a moment in a zone, naming the zone; '' for none. */
export function zonedText(moment: Date | null | undefined, timeZone: string | null | undefined, lang: Language): string {
  const time = formatZonedTime(moment, timeZone, lang);
  return time ? `${time.text} (${time.zone})` : '';
}

/** The footer's "Exported 2026-03-04 10:05 GMT+9 (Asia/Seoul)". */
export function exportedText(options: PdfOptions): string {
  const time = formatZonedTime(options.exportedAt, options.timeZone, options.lang);
  return pdfMessage('footerExported', options.lang, { when: time?.text ?? '', zone: time?.zone ?? options.timeZone });
}
