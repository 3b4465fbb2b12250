import { NODE, type PmNode } from '../blocks/model.js';
import type { BlockDetail, FieldChange } from './model.js';

type FieldsDetail = Extract<BlockDetail, { kind: 'fields' }>;
type SchemaDetail = Extract<BlockDetail, { kind: 'schema' }>;

const str = (value: unknown): string =>
  typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';

/** A cell reference of a chart's range, 1-based as a reader counts (`R2C3`); `?` for a missing or odd one. */
function cellName(value: unknown): string {
  const ref = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const at = (n: unknown) => (typeof n === 'number' && Number.isInteger(n) && n >= 0 ? String(n + 1) : '?');
  return `R${at(ref.row)}C${at(ref.col)}`;
}

/**
 * A chart's fields as a reader tells two charts apart: type, names, labels, direction, and the table
 * range it draws. Read here rather than with the editor's chartAttrsOf, which would bring the editor
 * (Tiptap) into the main entry.
 */
function chartFields(attrs: Record<string, unknown>): Record<string, string> {
  return {
    chartType: str(attrs.chartType),
    name: str(attrs.name),
    xLabel: str(attrs.xLabel),
    yLabel: str(attrs.yLabel),
    dataName: str(attrs.dataName),
    label: str(attrs.label),
    direction: str(attrs.direction),
    tableUid: str(attrs.tableUid),
    range: `${cellName(attrs.from)}:${cellName(attrs.to)}`,
  };
}

/**
 * The fields each atom block is compared by. Images and files by content: the file ID names the stored
 * bytes (a replaced image or file gets a new one), then what the reader sees of it.
 */
const FIELDS_OF: Readonly<Record<string, (attrs: Record<string, unknown>) => Record<string, string>>> = {
  [NODE.chart]: chartFields,
  [NODE.image]: (attrs) => ({ fileId: str(attrs.fileId), title: str(attrs.title) }),
  [NODE.file]: (attrs) => ({ fileId: str(attrs.fileId), name: str(attrs.name), size: str(attrs.size), extension: str(attrs.extension) }),
  [NODE.date]: (attrs) => ({ value: str(attrs.value) }),
};

export const hasFieldDiff = (nodeType: string) => Object.hasOwn(FIELDS_OF, nodeType);

function changedFields(before: Record<string, string>, after: Record<string, string>): FieldChange[] {
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return names
    .filter((field) => (before[field] ?? '') !== (after[field] ?? ''))
    .map((field) => ({ field, before: before[field] ?? '', after: after[field] ?? '' }));
}

/** Two charts, images, files or dates compared field by field. */
export function diffFields(before: PmNode, after: PmNode): FieldsDetail {
  const fieldsOf = FIELDS_OF[after.type] ?? (() => ({}));
  const fields = changedFields(fieldsOf(before.attrs ?? {}), fieldsOf(after.attrs ?? {}));
  return { kind: 'fields', fields, formatting: fields.length === 0 };
}

interface Entry {
  field: string;
  value: string;
}

/** A schema block's entries read leniently (a copy made by an older server may lack some). */
function entriesOf(attrs: Record<string, unknown>): Entry[] {
  const entries = Array.isArray(attrs.entries) ? (attrs.entries as unknown[]) : [];
  return entries.flatMap((entry) =>
    typeof entry === 'object' && entry !== null ? [{ field: str((entry as Entry).field), value: str((entry as Entry).value) }] : [],
  );
}

/** Entries keyed by field name; a name repeated is told apart by its occurrence. */
function entriesByField(entries: Entry[]): Map<string, Entry> {
  const seen = new Map<string, number>();
  const byField = new Map<string, Entry>();
  for (const entry of entries) {
    const n = seen.get(entry.field) ?? 0;
    seen.set(entry.field, n + 1);
    byField.set(n ? `${entry.field}\u0000${n}` : entry.field, entry);
  }
  return byField;
}

const SCHEMA_FIELDS = ['schemasTypeNo', 'typeTitle', 'schemaNo', 'title', 'revision'] as const;

/** Two schema blocks compared by the schema and revision they copy and by their entries, field by field. */
export function diffSchemaBlocks(before: PmNode, after: PmNode): SchemaDetail {
  const pick = (attrs: Record<string, unknown>) => Object.fromEntries(SCHEMA_FIELDS.map((field) => [field, str(attrs[field])]));
  const fields = changedFields(pick(before.attrs ?? {}), pick(after.attrs ?? {}));
  const older = entriesByField(entriesOf(before.attrs ?? {}));
  const newer = entriesByField(entriesOf(after.attrs ?? {}));
  const entries: SchemaDetail['entries'] = [];
  for (const [key, entry] of newer) {
    const previous = older.get(key);
    if (previous?.value !== entry.value) entries.push({ field: entry.field, before: previous?.value ?? null, after: entry.value });
  }
  for (const [key, entry] of older) if (!newer.has(key)) entries.push({ field: entry.field, before: entry.value, after: null });
  return { kind: 'schema', fields, entries };
}
