import { beforeAll, describe, expect, it, vi } from 'vitest';
import { Editor, type JSONContent } from '@tiptap/core';
import { CellSelection } from '@tiptap/pm/tables';
import { BLOCK_UID_PATTERN, contentViolations, docToSavedBlocks, fileExtensions, type PmNode } from '@eln/shared';
import { cellAddress } from './cellAddress';
import { chipOf, dropboxCellDecorations } from './dropboxCells';
import {
  addColumn,
  addRow,
  chartSource,
  deleteColumn,
  deleteRow,
  insertDate,
  insertTable,
  mergeCells,
  selectedCellDropbox,
  setCellDropbox,
  todayIso,
} from './commands';
import { chartAttrsOf, planBlockUids } from '@eln/shared/editor';
import { browserExtensions } from './schema';
import { tableInfo } from './tableRules';
import { acceptFor, checkUpload, createLinkCache, UPLOAD_TOO_LARGE, UPLOAD_TYPE_REFUSED } from './upload';

/**
 * A headless editor with the note schema. Without a DOM it is never mounted, and an unmounted editor
 * has no plugins: they are registered here, so that state-level plugins (block IDs, the table guard)
 * run as in the browser.
 */
beforeAll(() => {
  // Keymap plugins look at the platform; Node 20 has no navigator.
  if (typeof navigator === 'undefined') vi.stubGlobal('navigator', { platform: 'Linux', userAgent: 'node' });
});

function editorWith(content: JSONContent[]): Editor {
  const editor = new Editor({ element: null, extensions: browserExtensions(), content: { type: 'doc', content } });
  for (const plugin of editor.extensionManager.plugins) editor.registerPlugin(plugin);
  return editor;
}

const paragraph = (text: string, blockUid?: string): JSONContent => ({
  type: 'paragraph',
  ...(blockUid ? { attrs: { blockUid } } : {}),
  content: text ? [{ type: 'text', text }] : [],
});

const uids = (editor: Editor) => (editor.getJSON().content ?? []).map((node) => node.attrs?.blockUid as unknown);

function tableJson(rows: string[][], spans: Record<string, { colspan?: number; rowspan?: number }> = {}): PmNode {
  return {
    type: 'table',
    attrs: { blockUid: 'ttable0000000001' },
    content: rows.map((row, r) => ({
      type: 'tableRow',
      content: row.map((text, c) => ({
        type: r === 0 ? 'tableHeader' : 'tableCell',
        attrs: { colspan: spans[`${r},${c}`]?.colspan ?? 1, rowspan: spans[`${r},${c}`]?.rowspan ?? 1 },
        content: [{ type: 'paragraph', content: text ? [{ type: 'text', text }] : [] }],
      })),
    })),
  };
}

/** The header labels the toolbar passes (its translation). */
const columnLabel = (n: number) => `Column ${n}`;

describe('block IDs', () => {
  it('plans new IDs for blocks without one and for repeats, keeping the first holder', () => {
    let n = 0;
    const plan = planBlockUids(['a', null, 'b', 'a', undefined, 'b'], () => `new${(n += 1)}`);
    expect([...plan]).toEqual([
      [1, 'new1'],
      [3, 'new2'],
      [4, 'new3'],
      [5, 'new4'],
    ]);
  });

  it('gives every top-level block an ID on the first local edit, and keeps IDs stable across edits', () => {
    const editor = editorWith([paragraph('first'), paragraph('second')]);
    editor.commands.setTextSelection(3);
    editor.commands.insertContent({ type: 'text', text: 'x' });
    const first = uids(editor);
    expect(first).toHaveLength(2);
    for (const uid of first) expect(uid).toMatch(BLOCK_UID_PATTERN);
    editor.commands.setTextSelection(10);
    editor.commands.insertContent({ type: 'text', text: 'more text' });
    expect(uids(editor)).toEqual(first);
    editor.destroy();
  });

  it('gives a split paragraph a new ID instead of a copy', () => {
    const editor = editorWith([paragraph('hello world', 'pkeepme00000001')]);
    editor.commands.setTextSelection(7);
    editor.commands.splitBlock();
    const after = uids(editor);
    expect(after).toHaveLength(2);
    expect(after[0]).toBe('pkeepme00000001');
    expect(after[1]).toMatch(BLOCK_UID_PATTERN);
    expect(after[1]).not.toBe(after[0]);
    editor.destroy();
  });

  it('replaces a duplicated ID (a pasted copy of a block) but keeps the original', () => {
    const editor = editorWith([paragraph('original', 'porigin00000001'), paragraph('')]);
    editor.commands.insertContentAt(editor.state.doc.content.size, paragraph('copy', 'porigin00000001'));
    const after = uids(editor);
    expect(after[0]).toBe('porigin00000001');
    expect(new Set(after).size).toBe(after.length);
    editor.destroy();
  });

  it('gives tables, charts, dates, images and files IDs too, as the block converter expects', () => {
    const editor = editorWith([paragraph('')]);
    insertTable(editor, 2, 2, columnLabel);
    editor.commands.setTextSelection(editor.state.doc.content.size - 1);
    editor.commands.insertContentAt(editor.state.doc.content.size, [
      { type: 'image', attrs: { fileId: 'f1', title: 'gel' } },
      { type: 'fileAttachment', attrs: { fileId: 'f2', name: 'raw.xlsx', size: 10, extension: 'xlsx' } },
      { type: 'date', attrs: { value: '2026-01-02' } },
    ]);
    const blocks = docToSavedBlocks(editor.getJSON() as PmNode, 'LABNOTE');
    expect(blocks.map((b) => b.type)).toEqual(['table', 'paragraph', 'image', 'file', 'date'].map((t) => (t === 'paragraph' ? 'text' : t)));
    for (const block of blocks) expect(block.blockUid).toMatch(BLOCK_UID_PATTERN);
    editor.destroy();
  });
});

describe('table rules', () => {
  it('inserts a table (default size offered by the dialog is 5 x 5) but never inside a table, and only 1-30 per side', () => {
    const editor = editorWith([paragraph('')]);
    expect(insertTable(editor, 0, 5, null)).toBe('tableSize');
    expect(insertTable(editor, 5, 31, null)).toBe('tableSize');
    expect(insertTable(editor, 5, 5, columnLabel)).toBeNull();
    const info = tableInfo(editor.state);
    expect(info).toMatchObject({ rows: 5, columns: 5 });
    expect(insertTable(editor, 2, 2, null)).toBe('tableInTable');
    expect(contentViolations(editor.getJSON() as PmNode)).toEqual([]);
    editor.destroy();
  });

  it('labels a new header row "Column 1" … so no header is empty, with the first label selected to be typed over', () => {
    const editor = editorWith([paragraph('')]);
    expect(insertTable(editor, 3, 4, columnLabel)).toBeNull();
    const rows = (editor.getJSON() as PmNode).content?.[0]?.content ?? [];
    const texts = (row: PmNode | undefined) => (row?.content ?? []).map((cell) => cell.content?.[0]?.content?.[0]?.text ?? '');
    expect(rows[0]?.content?.map((cell) => cell.type)).toEqual(['tableHeader', 'tableHeader', 'tableHeader', 'tableHeader']);
    expect(texts(rows[0])).toEqual(['Column 1', 'Column 2', 'Column 3', 'Column 4']);
    expect(texts(rows[1])).toEqual(['', '', '', '']);
    editor.view.dispatch(editor.state.tr.insertText('Sample'));
    expect(texts((editor.getJSON() as PmNode).content?.[0]?.content?.[0])).toEqual(['Sample', 'Column 2', 'Column 3', 'Column 4']);
    // Without a header row, nothing is labelled.
    const plain = editorWith([paragraph('')]);
    insertTable(plain, 2, 2, null);
    expect(texts((plain.getJSON() as PmNode).content?.[0]?.content?.[0])).toEqual(['', '']);
    editor.destroy();
    plain.destroy();
  });

  it('never deletes the last row or column', () => {
    const editor = editorWith([paragraph('')]);
    insertTable(editor, 1, 2, null);
    expect(deleteRow(editor)).toBe('lastRow');
    expect(deleteColumn(editor)).toBeNull();
    expect(tableInfo(editor.state)?.columns).toBe(1);
    expect(deleteColumn(editor)).toBe('lastColumn');
    editor.destroy();
  });

  it('merges two or more cells, and refuses to delete rows or columns that touch merged cells', () => {
    const editor = editorWith([paragraph('')]);
    insertTable(editor, 3, 3, null);
    expect(mergeCells(editor)).toBe('mergeNeedsCells');
    const info = tableInfo(editor.state);
    if (!info) throw new Error('no table');
    const { map, tableStart } = info.rect;
    const at = (r: number, c: number) => tableStart + (map.map[r * map.width + c] ?? 0);
    editor.view.dispatch(editor.state.tr.setSelection(CellSelection.create(editor.state.doc, at(0, 0), at(0, 1))));
    expect(mergeCells(editor)).toBeNull();
    const merged = ((editor.getJSON() as PmNode).content?.[0]?.content?.[0]?.content ?? []).map((c) => c.attrs?.colspan);
    expect(merged).toEqual([2, 1]);
    expect(deleteRow(editor)).toBe('mergedCells');
    expect(deleteColumn(editor)).toBe('mergedCells');
    editor.destroy();
  });

  it('refuses a 31st row or column, whatever the route (the guard also stops Tab in the last cell)', () => {
    const editor = editorWith([paragraph('')]);
    insertTable(editor, 30, 30, null);
    expect(addRow(editor)).toBe('maxRows');
    expect(addColumn(editor)).toBe('maxColumns');
    editor.commands.addRowAfter();
    editor.commands.addColumnAfter();
    expect(tableInfo(editor.state)).toMatchObject({ rows: 30, columns: 30 });
    editor.destroy();
  }, 20_000);

  it('refuses through the guard what the server refuses: a date in a cell, the table under a chart', () => {
    const refused: string[] = [];
    const chart = {
      type: 'chart',
      attrs: {
        blockUid: 'cchart0000000001',
        name: 'n',
        label: 'l',
        dataName: 'd',
        tableUid: 'ttable0000000001',
        from: { row: 0, col: 0 },
        to: { row: 1, col: 1 },
      },
    };
    const table = tableJson([
      ['a', 'b', 'c'],
      ['d', 'e', 'f'],
      ['g', 'h', 'i'],
    ]) as JSONContent;
    const editor = new Editor({
      element: null,
      extensions: browserExtensions({}, (violation) => refused.push(violation)),
      content: { type: 'doc', content: [table, chart, paragraph('end')] },
    });
    for (const plugin of editor.extensionManager.plugins) editor.registerPlugin(plugin);
    const tableNode = editor.state.doc.child(0);
    // Deleting the whole table a chart refers to: refused (the chart's range would leave its table).
    editor.view.dispatch(editor.state.tr.delete(0, tableNode.nodeSize));
    expect(editor.state.doc.child(0).type.name).toBe('table');
    // A date inside a cell (a paste could put one there): refused.
    const cellParagraph = 3; // table > row > cell > paragraph
    editor.view.dispatch(editor.state.tr.insert(cellParagraph, editor.schema.nodes.date!.create({ value: '2026-11-23' })));
    expect(JSON.stringify(editor.getJSON())).not.toContain('2026-11-23');
    expect(refused).toEqual(['chartRange', 'datePlacement']);
    // Typing is never refused, and deleting the chart first lets the table go.
    editor.view.dispatch(editor.state.tr.insertText('x', editor.state.doc.content.size - 1));
    const chartAt = tableNode.nodeSize;
    editor.view.dispatch(editor.state.tr.delete(chartAt, chartAt + editor.state.doc.child(1).nodeSize));
    editor.view.dispatch(editor.state.tr.delete(0, editor.state.doc.child(0).nodeSize));
    expect((editor.getJSON().content ?? []).map((node) => node.type)).toEqual(['paragraph']);
    expect(editor.getText()).toBe('endx');
    expect(refused).toHaveLength(2);
    editor.destroy();
  });

  it('keeps a dropbox and its chosen row per body cell, never on a header cell, and shows the choice in the cell', () => {
    const editor = editorWith([paragraph('')]);
    insertTable(editor, 2, 2, columnLabel);
    const units = { dropboxNo: 3, title: 'Units', code: null, name: null, seal: 's'.repeat(43) };
    expect(setCellDropbox(editor, units)).toBe('dropboxHeader');
    const info = tableInfo(editor.state);
    if (!info) throw new Error('no table');
    const { map, tableStart } = info.rect;
    editor.commands.setTextSelection(tableStart + (map.map[2] ?? 0) + 2);
    expect(setCellDropbox(editor, units)).toBeNull();
    const cellOf = () => (editor.getJSON() as PmNode).content?.[0]?.content?.[1]?.content?.[0];
    expect(cellOf()?.attrs?.dropbox).toEqual(units);
    expect(selectedCellDropbox(editor)).toEqual(units);
    // The cell's chip is drawn from the attribute: one per dropbox cell, naming the choice once there is one.
    const chips = () => (dropboxCellDecorations(editor.state)?.find() ?? []).map((d) => (d.spec as { key?: string }).key).filter(Boolean);
    expect(chips()).toEqual(['dropbox:3:null:' + chipOf(units).text]);
    expect(setCellDropbox(editor, { ...units, code: 'mg', name: 'milligram' })).toBeNull();
    expect(cellOf()?.attrs?.dropbox).toEqual({ ...units, code: 'mg', name: 'milligram' });
    expect(chips()).toEqual(['dropbox:3:mg:milligram']);
    expect(setCellDropbox(editor, null)).toBeNull();
    expect(cellOf()?.attrs?.dropbox).toBeNull();
    expect(chips()).toEqual([]);
    editor.destroy();
  });

  it('makes a chart only from a range of two or more cells of a top-level table', () => {
    const editor = editorWith([paragraph('')]);
    insertTable(editor, 3, 3, null);
    expect(chartSource(editor)).toBe('chartNeedsRange');
    const info = tableInfo(editor.state);
    if (!info) throw new Error('no table');
    const { map, tableStart } = info.rect;
    const at = (r: number, c: number) => tableStart + (map.map[r * map.width + c] ?? 0);
    editor.view.dispatch(editor.state.tr.setSelection(CellSelection.create(editor.state.doc, at(2, 1), at(0, 0))));
    const source = chartSource(editor);
    expect(source).toMatchObject({ from: { row: 0, col: 0 }, to: { row: 2, col: 1 } });
    expect(typeof source === 'object' && source.tableUid).toMatch(BLOCK_UID_PATTERN);
    editor.destroy();
  });

  it('refuses a date while a whole block is selected', () => {
    const editor = editorWith([paragraph('text'), { type: 'date', attrs: { value: '2026-01-01' } }]);
    editor.commands.setNodeSelection(6);
    expect(insertDate(editor)).toBe('dateOnBlock');
    editor.commands.setTextSelection(2);
    expect(insertDate(editor)).toBeNull();
    expect(editor.getJSON().content?.[1]).toMatchObject({ type: 'date', attrs: { value: todayIso() } });
    editor.destroy();
  });
});

describe('chart data', () => {
  it('reads chart attributes defensively and names ranges like a spreadsheet', () => {
    expect(chartAttrsOf({ chartType: 'nope', direction: 'sideways', from: { row: '2', col: 1 } })).toMatchObject({
      chartType: 'bar',
      direction: 'vertical',
      from: { row: 2, col: 1 },
      to: { row: 0, col: 0 },
    });
    expect(cellAddress({ row: 0, col: 0 })).toBe('A1');
    expect(cellAddress({ row: 11, col: 27 })).toBe('AB12');
  });
});

describe('uploads', () => {
  it('checks type by extension and size before sending', () => {
    expect(checkUpload('gel.PNG', 1000, 'image')).toEqual({ ok: true, kind: 'image', extension: 'png' });
    expect(checkUpload('gel.png', 3 * 1024 * 1024 + 1, 'image')).toEqual({ ok: false, code: UPLOAD_TOO_LARGE });
    expect(checkUpload('gel.bmp', 10, 'image')).toEqual({ ok: false, code: UPLOAD_TYPE_REFUSED });
    expect(checkUpload('data.xlsx', 10, 'image')).toEqual({ ok: false, code: UPLOAD_TYPE_REFUSED });
    expect(checkUpload('data.xlsx', 10, 'file')).toEqual({ ok: true, kind: 'file', extension: 'xlsx' });
    expect(checkUpload('archive.tar', 50 * 1024 * 1024 + 1, 'file')).toEqual({ ok: false, code: UPLOAD_TOO_LARGE });
    expect(checkUpload('script.exe', 10)).toEqual({ ok: false, code: UPLOAD_TYPE_REFUSED });
    expect(UPLOAD_TYPE_REFUSED).toBe('3019');
    expect(UPLOAD_TOO_LARGE).toBe('3020');
  });

  it('accepts as files the types administrators added, by the same rule as the server, and never as images', () => {
    const added = [{ extension: 'csv', mimeType: 'text/csv', check: 'text' as const, signatures: [] }];
    expect(checkUpload('plate.csv', 10, 'file')).toEqual({ ok: false, code: UPLOAD_TYPE_REFUSED });
    expect(checkUpload('plate.CSV', 10, 'file', added)).toEqual({ ok: true, kind: 'file', extension: 'csv' });
    expect(checkUpload('plate.csv', 10, 'image', added)).toEqual({ ok: false, code: UPLOAD_TYPE_REFUSED });
    expect(checkUpload('plate.csv', 50 * 1024 * 1024 + 1, 'file', added)).toEqual({ ok: false, code: UPLOAD_TOO_LARGE });
    expect(acceptFor('file', fileExtensions(added))).toBe('.xls,.xlsx,.pptx,.pdf,.docx,.txt,.zip,.rar,.tar,.odt,.csv');
  });

  it('keeps signed links for a while, then asks again', () => {
    const cache = createLinkCache(1000);
    cache.put('f', '/files/f?s=1', 0);
    expect(cache.get('f', 999)).toBe('/files/f?s=1');
    expect(cache.get('f', 1000)).toBeNull();
  });
});
