import { z } from 'zod';
import { BLOCK_TYPES, NOTE_TYPES, type SignatureType } from '@eln/shared';

/**
 * The shape of this notebook's .eln archives (the ELN Consortium's format: a ZIP with one root folder
 * holding an RO-Crate 1.2), shared by the export that writes them and the import that reads them back.
 *
 *   <project>-<date>/ro-crate-metadata.json          the crate: every Dataset and File, with sha256
 *   <project>-<date>/ro-crate-metadata.json.minisig  minisign signature of the file above
 *   <project>-<date>/eln-export-key.pub              the public key that checks it
 *   <project>-<date>/SHA256SUMS                      the same hashes, for `sha256sum -c`
 *   <project>-<date>/README.txt                      how to check the trusted time-stamps below (when any)
 *   <project>-<date>/project/                        the project (Dataset)
 *   <project>-<date>/project/<LN-number>/            each note (Dataset)
 *     v<n>.json, v<n>.html                           each saved version: its blocks, and as a web page
 *     draft.json, draft.html                         a note never saved: its unsaved draft, the same two ways
 *     <LN-number>-v<n>.pdf                           the latest version as PDF (when chromium could print it)
 *     files/<fileId>.<ext>                           the note's images and files
 *     timestamps/version-<n>.json|.tsr|-chain.pem    a version's trusted time-stamp: the bytes stamped, the
 *     timestamps/signature-<id>.json|.tsr|-chain.pem  token (a time-stamp response), the chain; a signature's too
 */
export const METADATA_FILE = 'ro-crate-metadata.json';
export const SIGNATURE_FILE = `${METADATA_FILE}.minisig`;
export const PUBLIC_KEY_FILE = 'eln-export-key.pub';
export const CHECKSUMS_FILE = 'SHA256SUMS';
export const PROJECT_FOLDER = 'project/';
/**
 * Where the export key is published, as the format's specification asks (SPECIFICATION.md, "Signed .eln
 * files"): on the server, and as the trusted comment of every archive's signature (its full URL).
 */
export const WELL_KNOWN_KEYS = '/.well-known/keys.json';

export const RO_CRATE_CONTEXT = 'https://w3id.org/ro/crate/1.2/context';
export const RO_CRATE_SPEC = 'https://w3id.org/ro/crate/1.2';
/** The .eln format version the descriptor states (what eLabFTW and others write). */
export const ELN_FORMAT_VERSION = '1.0';

/** The first fields of a version's blocks file, by which the import knows one of its own. */
export const VERSION_FILE_FORMAT = 'eln-note-version';
export const VERSION_FILE_FORMAT_VERSION = 1;

/** The root Dataset's `additionalProperty` saying whether the notes' PDF copies are in the archive. */
export const PDF_COPIES_ID = '#pdf-copies';
export const PDF_COPIES_PROPERTY = 'pdfCopies';

/** The project Dataset's `genre`: the import knows it for the project even when it holds no notes. */
export const PROJECT_GENRE = 'project';

/** A signature's Comment says what it is in `genre`; the import reads the meaning back from it. */
export const SIGNATURE_GENRES: Record<SignatureType, string> = { reviewer: 'reviewer signature', participant: 'participant signature' };
/** A signature Comment's `creativeWorkStatus`. */
export const SIGNATURE_STATES = {
  intact: 'signed, intact',
  broken: 'signed, broken',
  requested: 'requested',
  declined: 'declined',
  cancelled: 'cancelled at close',
} as const;

export interface Ref {
  '@id': string;
}
export const ref = (id: string): Ref => ({ '@id': id });

/** One node of the crate's @graph. */
export interface Entity {
  '@id': string;
  '@type': string | string[];
  [property: string]: unknown;
}

/** A never-saved note's draft file: its live document's blocks, which are no version. */
export const DRAFT_FILE = 'draft.json';
export const DRAFT_FILE_FORMAT = 'eln-note-draft';

const blockList = z.array(
  z.object({
    type: z.enum(BLOCK_TYPES),
    blockUid: z.string(),
    noteType: z.enum(NOTE_TYPES),
    blockClass: z.string(),
    blockTable: z.unknown(),
    content: z.string(),
    blockOdr: z.number().int(),
  }),
);

/** A saved version's blocks file (`v<n>.json`). */
export const versionFile = z.object({
  format: z.literal(VERSION_FILE_FORMAT),
  formatVersion: z.literal(VERSION_FILE_FORMAT_VERSION),
  labNoteNumber: z.string(),
  title: z.string(),
  version: z.number().int().positive(),
  savedAt: z.string(),
  savedBy: z.object({ userId: z.string(), name: z.string() }),
  blocksHash: z.string(),
  blocks: blockList,
  /**
   * Who wrote each block, by blockUid (from the note's live edits; a block the server wrote, as a
   * restore does, names nobody). Archives from before it was kept have none.
   */
  authors: z.record(z.string(), z.array(z.object({ userId: z.string(), name: z.string() }))).optional(),
  /** The version this one restored and why; null for a save. */
  restoredFrom: z.number().int().positive().nullable().optional(),
  reason: z.string().nullable().optional(),
});
export type VersionFile = z.infer<typeof versionFile>;

/** A never-saved note's blocks file (`draft.json`). */
export const draftFile = z.object({
  format: z.literal(DRAFT_FILE_FORMAT),
  formatVersion: z.literal(VERSION_FILE_FORMAT_VERSION),
  labNoteNumber: z.string(),
  title: z.string(),
  blocks: blockList,
});
export type DraftFile = z.infer<typeof draftFile>;

/**
 * A moment as ISO 8601 in a time zone, with its offset (`2026-05-04T09:30:00.000+09:00`): the signer's
 * local time stays readable and the moment exact. An unknown zone is written in UTC.
 */
export function isoInZone(moment: Date, timeZone: string | null | undefined): string {
  let format: Intl.DateTimeFormat;
  try {
    format = zoneFormat(timeZone || 'UTC');
  } catch {
    format = zoneFormat('UTC');
  }
  const milliseconds = String(moment.getUTCMilliseconds()).padStart(3, '0');
  // The formatted text read back (a quarter of formatToParts' time: a list of 500 versions writes 500).
  const formatted = FORMATTED.exec(format.format(moment));
  if (formatted) {
    const [, month, day, year = '', hour, minute, second, offset] = formatted;
    return `${year.padStart(4, '0')}-${month}-${day}T${hour}:${minute}:${second}.${milliseconds}${offset || '+00:00'}`;
  }
  const parts = format.formatToParts(moment);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  const offset = part('timeZoneName').replace(/^GMT/, '') || '+00:00';
  return `${part('year')}-${part('month')}-${part('day')}T${part('hour')}:${part('minute')}:${part('second')}.${milliseconds}${offset}`;
}

/** en-US's `MM/DD/YYYY, HH:mm:ss GMT+09:00` (`GMT` alone for UTC in some engines). */
const FORMATTED = /^(\d{2})\/(\d{2})\/(\d+), (\d{2}):(\d{2}):(\d{2}) GMT([+-]\d{2}:\d{2}(?::\d{2})?)?$/;

/** A formatter per zone, made once: making one costs far more than formatting. */
const zoneFormats = new Map<string, Intl.DateTimeFormat>();

function zoneFormat(timeZone: string): Intl.DateTimeFormat {
  let format = zoneFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'longOffset',
    });
    zoneFormats.set(timeZone, format);
  }
  return format;
}

/** The calendar day of a moment in a time zone (YYYY-MM-DD). */
export function dayInZone(moment: Date, timeZone: string | null | undefined): string {
  return isoInZone(moment, timeZone).slice(0, 10);
}

/**
 * A folder name made of a title: letters and digits of any script kept, anything else (separators,
 * dots, quotes, control characters) turned into single hyphens, at most `max` characters.
 */
export function safeSegment(title: string, max = 60, fallback = 'export'): string {
  const cleaned = title
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  const clipped = Array.from(cleaned).slice(0, max).join('').replace(/-+$/, '');
  return clipped || fallback;
}
