import { z } from 'zod';
import type { CellDropbox } from '../blocks/cellDropbox.js';
import { ERR } from '../errors.js';
import type { Localised } from '../language.js';
import { LIMITS } from '../limits.js';
import { recordNo, requiredText, text, yesNo } from '../validation.js';
import { defineCall, noAnswer } from './call.js';
import { listAnswer, pagingRequest } from './paging.js';

/**
 * Dropboxes: a lab's controlled vocabularies (units, solvents, sample states), each a list of code and
 * name rows that a table cell offers as a choice. Rows come only from a CSV import (spec §5).
 */

/** Used (Y) dropboxes are offered in notes and readable by everyone; unused (N) ones only by managers. */
export const DROPBOX_STATUS = { used: 'Y', unused: 'N' } as const;

/** The CSV's header row: exactly these columns, in this order. */
export const DROPBOX_CSV_HEADER = ['code', 'name'] as const;

/** Largest CSV file accepted: 200 rows of 100 + 100 characters in UTF-8 are below 130 kB. */
export const DROPBOX_CSV_MAX_BYTES = 256 * 1024;

/** How the import reads the file's bytes; `auto` reads UTF-8 (with or without BOM), else CP949/EUC-KR. */
export const DROPBOX_CSV_ENCODINGS = ['auto', 'utf-8', 'euc-kr'] as const;
export type DropboxCsvEncoding = (typeof DROPBOX_CSV_ENCODINGS)[number];

/** A row as stored and answered (the request's rows are checked by `checkDropboxRows` first). */
export const dropboxRowRecord = z.strictObject({ code: z.string(), name: z.string() });
export type DropboxRow = z.infer<typeof dropboxRowRecord>;

/** Why one row cannot be stored. */
export const DROPBOX_ROW_PROBLEMS = [
  'firstCodeEmpty',
  'duplicateCode',
  'codeTooLong',
  'nameEmpty',
  'nameTooLong',
  'invalidCharacters',
  'tooManyRows',
] as const;
export type DropboxRowProblem = (typeof DROPBOX_ROW_PROBLEMS)[number];

/** Each problem in the reader's language, shown beside its row in the import preview. */
export const DROPBOX_ROW_PROBLEM_TEXT: Record<DropboxRowProblem, Localised> = {
  firstCodeEmpty: { en: 'The first row needs a code.', ko: '첫 번째 행에는 코드가 있어야 합니다.', ja: '最初の行にはコードが必要です。' },
  duplicateCode: {
    en: 'This code is already used in an earlier row.',
    ko: '앞의 행에서 이미 사용한 코드입니다.',
    ja: 'このコードは前の行で既に使われています。',
  },
  codeTooLong: {
    en: `A code has at most ${LIMITS.dropboxCode} characters.`,
    ko: `코드는 최대 ${LIMITS.dropboxCode}자입니다.`,
    ja: `コードは${LIMITS.dropboxCode}文字以内です。`,
  },
  nameEmpty: { en: 'The name is empty.', ko: '이름이 비어 있습니다.', ja: '名前が空です。' },
  nameTooLong: {
    en: `A name has at most ${LIMITS.dropboxRowName} characters.`,
    ko: `이름은 최대 ${LIMITS.dropboxRowName}자입니다.`,
    ja: `名前は${LIMITS.dropboxRowName}文字以内です。`,
  },
  invalidCharacters: {
    en: 'This row has characters that cannot be stored (a NUL or a broken character).',
    ko: '저장할 수 없는 문자(NUL 또는 깨진 문자)가 있습니다.',
    ja: '保存できない文字（NULまたは壊れた文字）があります。',
  },
  tooManyRows: {
    en: `A dropbox has at most ${LIMITS.dropboxRows} rows.`,
    ko: `드롭박스는 최대 ${LIMITS.dropboxRows}행입니다.`,
    ja: `ドロップボックスは最大${LIMITS.dropboxRows}行です。`,
  },
};

export const checkedDropboxRow = dropboxRowRecord.extend({
  /** 1-based line in the CSV file (the header is line 1), or the row's position when not from a file. */
  line: z.number(),
  problems: z.array(z.enum(DROPBOX_ROW_PROBLEMS)),
});
export type CheckedDropboxRow = z.infer<typeof checkedDropboxRow>;

const UNSTORABLE = /[\u0000\uFFFD]|[\uD800-\uDFFF]/u;

/**
 * THE row rules, for the import preview, the server's check before storing and the client alike: at least
 * one row and at most LIMITS.dropboxRows; codes unique (compared as stored: trimmed, case kept); the first
 * code non-empty; codes and names within their lengths; names non-empty.
 */
export function checkDropboxRows(rows: readonly DropboxRow[], lineOf: (index: number) => number = (i) => i + 1): CheckedDropboxRow[] {
  const seen = new Set<string>();
  return rows.map((row, index) => {
    const code = row.code.trim();
    const name = row.name.trim();
    const problems: DropboxRowProblem[] = [];
    if (index >= LIMITS.dropboxRows) problems.push('tooManyRows');
    if (UNSTORABLE.test(code) || UNSTORABLE.test(name)) problems.push('invalidCharacters');
    if (index === 0 && code === '') problems.push('firstCodeEmpty');
    if (code.length > LIMITS.dropboxCode) problems.push('codeTooLong');
    if (seen.has(code)) problems.push('duplicateCode');
    if (name === '') problems.push('nameEmpty');
    if (name.length > LIMITS.dropboxRowName) problems.push('nameTooLong');
    seen.add(code);
    return { code, name, line: lineOf(index), problems };
  });
}

export const dropboxRowsHaveProblems = (rows: readonly CheckedDropboxRow[]) => rows.length === 0 || rows.some((r) => r.problems.length > 0);

const dropboxTitle = requiredText(LIMITS.dropboxName);
const dropboxRow = z.strictObject({ code: text().max(LIMITS.dropboxCode * 2), name: text().max(LIMITS.dropboxRowName * 2) });

export const dropboxListRequest = pagingRequest.safeExtend({
  type: z.enum(['title']).optional(),
  /** Filter by status: Y used, N unused; absent for both. */
  status: yesNo.optional(),
});
export const dropboxNoRequest = z.strictObject({ dropboxNo: recordNo });
/** `/cell`: a table cell's copy of a used dropbox and one of its rows (by code), or of the list alone (null). */
export const dropboxCellRequest = z.strictObject({ dropboxNo: recordNo, code: text().max(LIMITS.dropboxCode).nullable() });
export const dropboxCreateRequest = z.strictObject({
  title: dropboxTitle,
  status: yesNo,
  /** The rows an import preview read; checked again by the server with checkDropboxRows. */
  rows: z.array(dropboxRow).min(1, { error: 'tooFew' }).max(LIMITS.dropboxRows),
});
export const dropboxUpdateRequest = z.strictObject({ dropboxNo: recordNo, title: dropboxTitle, status: yesNo });
/**
 * Reads a CSV file (base64) and checks every row. Without dropboxNo it is a preview and stores nothing;
 * with it, the rows replace the dropbox's rows, all or none.
 */
export const dropboxImportRequest = z.strictObject({
  dropboxNo: recordNo.optional(),
  file: z.base64().max(Math.ceil((DROPBOX_CSV_MAX_BYTES * 4) / 3) + 4),
  encoding: z.enum(DROPBOX_CSV_ENCODINGS).default('auto'),
});

export type DropboxListRequest = z.input<typeof dropboxListRequest>;
export type DropboxListFilter = z.output<typeof dropboxListRequest>;
export type DropboxCreateRequest = z.input<typeof dropboxCreateRequest>;
export type DropboxUpdateRequest = z.input<typeof dropboxUpdateRequest>;
export type DropboxImportRequest = z.input<typeof dropboxImportRequest>;

/** What the caller may do, as the server's dropbox policy decides it (`server/src/dropboxes/policy.ts`). */
export const dropboxAbilities = z.strictObject({ update: z.boolean() });
export type DropboxAbilities = z.infer<typeof dropboxAbilities>;

export const dropboxSummary = z.strictObject({
  dropboxNo: z.number(),
  title: z.string(),
  status: yesNo,
  rowCount: z.number(),
  updatedAt: z.string(),
  updatedByName: z.string().nullable(),
});
export type DropboxSummary = z.infer<typeof dropboxSummary>;

export const dropboxListAnswer = listAnswer(dropboxSummary).extend({
  /** Whether the caller may create dropboxes. */
  abilities: z.strictObject({ create: z.boolean() }),
});
export type DropboxListAnswer = z.infer<typeof dropboxListAnswer>;

export const dropboxDetail = dropboxSummary.extend({ rows: z.array(dropboxRowRecord), abilities: dropboxAbilities });
export type DropboxDetail = z.infer<typeof dropboxDetail>;

export const dropboxImportAnswer = z.strictObject({
  /** The encoding the file was read in. */
  encoding: z.enum(DROPBOX_CSV_ENCODINGS).exclude(['auto']),
  rows: z.array(checkedDropboxRow),
  /** Whether every row can be stored (and, when dropboxNo was given, they were). */
  ok: z.boolean(),
  stored: z.boolean(),
});
export type DropboxImportAnswer = z.infer<typeof dropboxImportAnswer>;

/** `/cell`: the server's sealed copy of a used dropbox and the chosen row, as a table cell holds it (CellDropbox). */
export const cellDropboxCopy = z.strictObject({
  dropboxNo: z.number(),
  title: z.string(),
  code: z.string().nullable(),
  name: z.string().nullable(),
  seal: z.string(),
}) satisfies z.ZodType<CellDropbox>;
export type CellDropboxCopy = z.infer<typeof cellDropboxCopy>;

/** The dropbox calls (server/src/dropboxes). */
export const dropboxCalls = {
  list: defineCall({
    path: '/v1/dropbox/list',
    auth: 'user',
    kind: 'query',
    summary: 'Dropboxes the caller may see (managers: unused ones too), newest first, filtered by title, status and dates.',
    request: dropboxListRequest,
    answer: dropboxListAnswer,
    errors: [ERR.dropboxLookup],
    failure: ERR.dropboxLookup,
  }),
  detail: defineCall({
    path: '/v1/dropbox/check',
    auth: 'user',
    kind: 'query',
    summary: 'A dropbox with its rows and what the caller may do with it.',
    request: dropboxNoRequest,
    answer: dropboxDetail,
    errors: [ERR.notFound, ERR.dropboxLookup],
    failure: ERR.dropboxLookup,
  }),
  cellCopy: defineCall({
    path: '/v1/dropbox/cell',
    auth: 'user',
    kind: 'query',
    summary: "The server's sealed copy of a used dropbox and one of its rows (by code), or of the list alone, for a table cell.",
    request: dropboxCellRequest,
    answer: cellDropboxCopy,
    errors: [ERR.notFound, ERR.dropboxLookup],
    failure: ERR.dropboxLookup,
  }),
  create: defineCall({
    path: '/v1/dropbox/create',
    auth: 'user',
    kind: 'command',
    summary: 'Creates a dropbox with the rows an import preview read (users with the dropbox flag, administrators).',
    request: dropboxCreateRequest,
    answer: z.strictObject({ dropboxNo: z.number() }),
    errors: [ERR.forbidden, ERR.dropboxDuplicate, ERR.dropboxRows],
  }),
  update: defineCall({
    path: '/v1/dropbox/update',
    auth: 'user',
    kind: 'command',
    summary: "Changes a dropbox's title and status.",
    request: dropboxUpdateRequest,
    answer: noAnswer,
    errors: [ERR.forbidden, ERR.dropboxDuplicate, ERR.notFound],
  }),
  importCsv: defineCall({
    path: '/v1/dropbox/import',
    auth: 'user',
    kind: 'command',
    summary: "Reads a CSV file and checks every row: a preview without dropboxNo; with it, the rows replace the dropbox's, all or none.",
    request: dropboxImportRequest,
    answer: dropboxImportAnswer,
    errors: [ERR.forbidden, ERR.dropboxNotCsv, ERR.dropboxCsvHeader, ERR.dropboxRows, ERR.notFound],
  }),
} as const;
