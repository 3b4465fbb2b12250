import { describe, expect, it } from 'vitest';
import { LIMITS, schemaCreateRequest } from '@eln/shared';
import {
  emptyEntry,
  emptySchema,
  emptyType,
  entriesFromPaste,
  moveItem,
  pasteEntries,
  placeError,
  roomFor,
  toCreateRequest,
  type TypeDraft,
} from './schemaDraft';

const pairs = (entries: Array<{ field: string; value: string }>) => entries.map((e) => [e.field, e.value]);

describe('the schema editor’s draft', () => {
  it('reads rows pasted from a spreadsheet: field and value columns, a quoted value with a line break, values only', () => {
    expect(pairs(entriesFromPaste('CAS\t7647-14-5\r\nMW\t58.44 g/mol\r\n', 200) ?? [])).toEqual([
      ['CAS', '7647-14-5'],
      ['MW', '58.44 g/mol'],
    ]);
    expect(pairs(entriesFromPaste('Storage\t"Dry place,\nbelow 25 °C"\nHazard\tNone', 200) ?? [])).toEqual([
      ['Storage', 'Dry place,\nbelow 25 °C'],
      ['Hazard', 'None'],
    ]);
    expect(pairs(entriesFromPaste('first\nsecond\n', 200) ?? [])).toEqual([
      ['', 'first'],
      ['', 'second'],
    ]);
    // A plain word is an ordinary paste, left to the input.
    expect(entriesFromPaste('7647-14-5', 200)).toBeNull();
  });

  it('puts pasted rows where the paste was, over the blank rows after it, never beyond the limit', () => {
    const filled = { ...emptyEntry(), field: 'Grade', value: 'ACS' };
    const blank = emptyEntry();
    const pasted = entriesFromPaste('CAS\t1\nMW\t2', 200) ?? [];
    expect(pairs(pasteEntries([filled, blank, emptyEntry()], blank.key, pasted))).toEqual([
      ['Grade', 'ACS'],
      ['CAS', '1'],
      ['MW', '2'],
    ]);
    const many =
      entriesFromPaste(
        Array.from({ length: LIMITS.schemaEntriesPerSchema + 5 }, (_, i) => `f${i}\tv${i}`).join('\n'),
        LIMITS.schemaEntriesPerSchema,
      ) ?? [];
    expect(many).toHaveLength(LIMITS.schemaEntriesPerSchema);
    expect(pasteEntries([filled, blank], blank.key, many)).toHaveLength(LIMITS.schemaEntriesPerSchema);
  });

  it('never pushes an existing entry out: only what fits beside them is pasted', () => {
    const existing = Array.from({ length: 150 }, (_, i) => ({ ...emptyEntry(), field: `f${i}`, value: `v${i}` }));
    const blank = emptyEntry();
    const entries = [...existing.slice(0, 10), blank, ...existing.slice(10)];
    const read = entriesFromPaste(Array.from({ length: 100 }, (_, i) => `p${i}\tq${i}`).join('\n'), Number.MAX_SAFE_INTEGER) ?? [];
    const pasted = read.slice(0, roomFor(entries));
    expect(pasted).toHaveLength(50);
    const next = pasteEntries(entries, blank.key, pasted);
    expect(next).toHaveLength(LIMITS.schemaEntriesPerSchema);
    expect(existing.every((entry) => next.includes(entry))).toBe(true);
    expect(next[10]?.field).toBe('p0');
  });

  it('sends no blank spare rows, and places a refusal on the right schema and entry despite them', () => {
    const salt = {
      ...emptySchema('Salt'),
      entries: [{ ...emptyEntry(), field: 'CAS', value: '7647-14-5' }, emptyEntry(), { ...emptyEntry(), field: 'MW', value: '' }],
    };
    const draft: TypeDraft = { ...emptyType(), code: 'R', title: 'Reagents', schemas: [emptySchema('Water'), salt] };
    const request = toCreateRequest(draft);
    expect(request.schemas?.[1]?.entries).toEqual([
      { field: 'CAS', value: '7647-14-5', status: 'Y' },
      { field: 'MW', value: '', status: 'Y' },
    ]);
    const refused = schemaCreateRequest.safeParse(request);
    expect(refused.success).toBe(false);
    const path = refused.error?.issues[0]?.path.join('.') ?? '';
    expect(path).toBe('schemas.1.entries.1.value');
    expect(placeError(draft, { field: path })).toEqual({ schema: 1, entryKey: salt.entries[2]!.key, field: 'value' });
    expect(placeError(draft, { field: 'schemas.0.title' })).toEqual({ schema: 0, entryKey: null, field: 'title' });
    expect(placeError(draft, { field: 'code' })).toEqual({ schema: null, entryKey: null, field: 'code' });
  });

  it('moves an item within bounds only', () => {
    expect(moveItem(['a', 'b', 'c'], 0, 2)).toEqual(['b', 'c', 'a']);
    expect(moveItem(['a', 'b'], 0, -1)).toEqual(['a', 'b']);
  });
});
