import Papa from 'papaparse';
import { LIMITS, type FieldError, type SchemaCreateRequest, type SchemaTypeDetail, type SchemaUpdateRequest } from '@eln/shared';

/**
 * The schema editor's state: a type and its schemas as being edited, each schema and entry with a key
 * of its own so React keeps inputs in place while rows are added, moved and removed.
 */
export interface EntryDraft {
  key: number;
  field: string;
  value: string;
  status: 'Y' | 'N';
}

export interface SchemaDraft {
  key: number;
  schemaNo?: number;
  title: string;
  description: string;
  status: 'Y' | 'N';
  entries: EntryDraft[];
}

export interface TypeDraft {
  code: string;
  title: string;
  description: string;
  status: 'Y' | 'N';
  schemas: SchemaDraft[];
}

let nextKey = 1;
const key = () => nextKey++;

export const emptyEntry = (): EntryDraft => ({ key: key(), field: '', value: '', status: 'Y' });
export const emptySchema = (title = ''): SchemaDraft => ({ key: key(), title, description: '', status: 'Y', entries: [emptyEntry()] });
export const emptyType = (): TypeDraft => ({ code: '', title: '', description: '', status: 'Y', schemas: [] });

export function draftOf(detail: SchemaTypeDetail): TypeDraft {
  return {
    code: detail.code,
    title: detail.title,
    description: detail.description,
    status: detail.status,
    schemas: detail.schemas.map((schema) => ({
      key: key(),
      schemaNo: schema.schemaNo,
      title: schema.title,
      description: schema.description,
      status: schema.status,
      entries: schema.entries.map((entry) => ({ key: key(), ...entry })),
    })),
  };
}

/** Entry rows left completely empty are the editor's spare rows, not entries: they are not sent. */
const isBlank = (entry: EntryDraft) => entry.field.trim() === '' && entry.value.trim() === '';

/** The request body for create; for update add the type's number and the revision it was loaded at. */
export function toCreateRequest(draft: TypeDraft): SchemaCreateRequest {
  return {
    code: draft.code,
    title: draft.title,
    description: draft.description,
    status: draft.status,
    schemas: draft.schemas.map((schema) => ({
      ...(schema.schemaNo ? { schemaNo: schema.schemaNo } : {}),
      title: schema.title,
      description: schema.description,
      status: schema.status,
      entries: schema.entries.filter((entry) => !isBlank(entry)).map(({ field, value, status }) => ({ field, value, status })),
    })),
  };
}

export function toUpdateRequest(draft: TypeDraft, schemasTypeNo: number, revision: number): SchemaUpdateRequest {
  return { schemasTypeNo, revision, ...toCreateRequest(draft) };
}

/**
 * A field error's path in the request (`schemas.3.entries.5.field`) as the editor shows it: which schema
 * (by index in the draft) and which entry (by index among the entries sent, i.e. without blank rows).
 */
export interface PlacedError {
  schema: number | null;
  /** The entry's key in the draft (blank rows are skipped when the request is made, so indexes differ). */
  entryKey: number | null;
  /** The field inside the type, schema or entry: `code`, `title`, `entries`, `field`, `value` … */
  field: string;
}

export function placeError(draft: TypeDraft, error: Pick<FieldError, 'field'>): PlacedError {
  const parts = error.field.split('.');
  if (parts[0] !== 'schemas' || parts.length < 2) return { schema: null, entryKey: null, field: error.field };
  const schemaIndex = Number(parts[1]);
  if (!Number.isInteger(schemaIndex)) return { schema: null, entryKey: null, field: 'schemas' };
  if (parts[2] !== 'entries' || parts.length < 4)
    return { schema: schemaIndex, entryKey: null, field: parts.slice(2).join('.') || 'schema' };
  const sent = (draft.schemas[schemaIndex]?.entries ?? []).filter((entry) => !isBlank(entry));
  return { schema: schemaIndex, entryKey: sent[Number(parts[3])]?.key ?? null, field: parts.slice(4).join('.') || 'entry' };
}

/**
 * Rows pasted from a spreadsheet (tab-separated, as Excel and Sheets copy cells) as entries: the first
 * column the field, the second the value; a single column is values only. Quoted cells with line breaks
 * stay one value (papaparse reads them). At most what still fits in the schema.
 */
export function entriesFromPaste(text: string, room: number): EntryDraft[] | null {
  if (!text.includes('\t') && !text.includes('\n')) return null;
  const parsed = Papa.parse<string[]>(text.replace(/\r?\n$/, ''), { delimiter: '\t', skipEmptyLines: 'greedy' });
  const rows = parsed.data.filter((row) => row.some((cell) => cell.trim() !== ''));
  return rows.slice(0, Math.max(0, room)).map((row) => {
    const [first = '', second, ...rest] = row;
    const hasField = second !== undefined;
    return {
      key: key(),
      field: hasField ? first.trim() : '',
      value: (hasField ? [second, ...rest].join('\t') : first).trim(),
      status: 'Y' as const,
    };
  });
}

/** Puts pasted entries in place of the row pasted into (and its blank successors), within the limit. */
export function pasteEntries(entries: readonly EntryDraft[], atKey: number, pasted: readonly EntryDraft[]): EntryDraft[] {
  const at = Math.max(
    0,
    entries.findIndex((entry) => entry.key === atKey),
  );
  const before = entries.slice(0, at);
  let after = entries.slice(at);
  while (after[0] && isBlank(after[0])) after = after.slice(1);
  const combined = [...before, ...pasted, ...after];
  // Over the limit, spare blank rows go first; an entry already there is never pushed out.
  for (let i = combined.length - 1; combined.length > LIMITS.schemaEntriesPerSchema && i >= 0; i -= 1) {
    const entry = combined[i];
    if (entry && isBlank(entry) && !pasted.includes(entry)) combined.splice(i, 1);
  }
  return combined.slice(0, LIMITS.schemaEntriesPerSchema);
}

/** How many pasted rows still fit beside the entries a schema has (its blank spare rows do not count). */
export const roomFor = (entries: readonly EntryDraft[]) =>
  Math.max(0, LIMITS.schemaEntriesPerSchema - entries.filter((entry) => !isBlank(entry)).length);

export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  if (to < 0 || to >= items.length || from === to) return [...items];
  const next = [...items];
  const [moved] = next.splice(from, 1);
  if (moved !== undefined) next.splice(to, 0, moved);
  return next;
}
