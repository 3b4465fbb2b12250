import { z } from 'zod';
import { LIMITS } from '../limits.js';
import { recordNo, text } from '../validation.js';
import { defineCall } from './call.js';
import { NOTE_STATUS } from './notes.js';
import { DATE_ORDER, datesInOrder, listAnswer, pageFields } from './paging.js';

/** What search finds (contract §10). */
export const SEARCH_KINDS = ['note', 'file', 'project', 'template', 'schema', 'dropbox'] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

/**
 * What became of an attachment's text (issue 46): `pending` until it is extracted, `extracted` when its
 * text is searched, `unreadable` when the file could not be read (damaged, encrypted, no text in it),
 * `tooLarge` above LIMITS.fileTextSourceBytes, `notText` for a format text is not read from (images,
 * archives). A file is found by its name whatever its text's state.
 */
export const FILE_TEXT_STATUS = ['pending', 'extracted', 'unreadable', 'tooLarge', 'notText'] as const;
export type FileTextStatus = (typeof FILE_TEXT_STATUS)[number];

/**
 * `q`: words (each a prefix: `prop` finds `propanol`), `"quoted phrases"` of exact words, `-word` or
 * `-"phrase"` to exclude. Korean and Japanese match any two or more characters inside longer text.
 */
export const searchRequest = z
  .strictObject({
    q: text().trim().min(1).max(LIMITS.searchQuery),
    kinds: z.array(z.enum(SEARCH_KINDS)).min(1).max(SEARCH_KINDS.length).optional(),
    projectNo: recordNo.optional(),
    /** The note writer's user ID. */
    writer: text().trim().max(LIMITS.email).optional(),
    status: z.enum(NOTE_STATUS).optional(),
    ...pageFields,
  })
  .refine(datesInOrder, DATE_ORDER);

/** A marked range of a snippet's text: [start, end) in UTF-16 units, as JavaScript strings index. */
export const searchMark = z.strictObject({ start: z.number().int().min(0), end: z.number().int().min(0) });

export const searchHit = z.strictObject({
  kind: z.enum(SEARCH_KINDS),
  /** The record's number: a note's labNoteNo, a project's, template's or dropbox's number, a schema type's. */
  no: z.number(),
  labNoteNo: z.number().nullable(),
  labNoteNumber: z.string().nullable(),
  title: z.string(),
  projectNo: z.number().nullable(),
  projectTitle: z.string().nullable(),
  /**
   * Where in the record the match is: a note's or template's block (it opens there), a schema's number
   * in its type, a dropbox row's code; null when the record's own title or description matched.
   */
  uid: z.string().nullable(),
  /** Plain text around the match, never markup; `marks` say which parts matched. */
  snippet: z.strictObject({ text: z.string(), marks: z.array(searchMark) }),
  /**
   * The saved version the match was found in: the note's last saved version when the matched block (or
   * title, or attachment) is as that version holds it; null when the match is only in the live draft
   * (written since the last save, or the note was never saved), and for other kinds.
   */
  version: z.number().nullable(),
  status: z.enum(NOTE_STATUS).nullable(),
  /** A note signed (locked) or finished with its project, or a completed project: found as any other, marked as such. */
  signed: z.boolean(),
  finished: z.boolean(),
  /** An attachment's (a `file` hit's, a template's file block's): whether its text was searched, and why not; null for other hits. */
  fileText: z.enum(FILE_TEXT_STATUS).nullable(),
});
export type SearchHit = z.infer<typeof searchHit>;

/**
 * The hits of one page, ranked among at most LIMITS.searchRanked matches: `totalCount` counts those (at
 * most that many), `more` says there were more matches than were ranked.
 */
const searchAnswer = listAnswer(searchHit).extend({ more: z.boolean() });
export type SearchAnswer = z.infer<typeof searchAnswer>;

export const searchCalls = {
  search: defineCall({
    path: '/v1/search',
    auth: 'user',
    kind: 'query',
    summary:
      'Notes (titles and every block), attachments (names and text), projects, templates, schemas and dropboxes the caller may read, ranked: titles and headings, exact words and recent edits first.',
    request: searchRequest,
    answer: searchAnswer,
    errors: [],
  }),
} as const;
