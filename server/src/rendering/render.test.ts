import { describe, expect, it } from 'vitest';
import { BLOCK_NODE_TYPES, docToSavedBlocks, type PmNode, type SavedBlock } from '@eln/shared';
import { schemaViolation } from '@eln/shared/editor';
import { renderVersionFragment, renderVersionHtml, type FileSource } from './render.js';

/**
 * Fixture tests: each note below renders to a checked-in file under fixtures/, compared byte for byte.
 * A changed rendering shows as a diff of that file (update with `npx vitest run -u` and read the diff).
 */

let uids = 0;
const uid = (prefix: string) => `${prefix}${String((uids += 1)).padStart(15, '0')}`;
const t = (value: string, marks: PmNode['marks'] = []): PmNode => ({ type: 'text', text: value, ...(marks.length ? { marks } : {}) });
const p = (...content: PmNode[]): PmNode => ({ type: 'paragraph', attrs: { blockUid: uid('p') }, content });
const inner = (...content: PmNode[]): PmNode => ({ type: 'paragraph', content });
const cell = (type: 'tableCell' | 'tableHeader', value: string, attrs: Record<string, unknown> = {}): PmNode => ({
  type,
  attrs: { colspan: 1, rowspan: 1, colwidth: null, dropbox: null, ...attrs },
  content: [inner(...(value ? [t(value)] : []))],
});
const row = (...cells: PmNode[]): PmNode => ({ type: 'tableRow', content: cells });
const table = (blockUid: string, ...rows: PmNode[]): PmNode => ({ type: 'table', attrs: { blockUid }, content: rows });
const doc = (...content: PmNode[]): PmNode => ({ type: 'doc', content });

/** A version as the server stores it: the document through the same block conversion as a save. */
function version(document: PmNode): SavedBlock[] {
  expect(schemaViolation(document)).toBeNull();
  return docToSavedBlocks(document, 'LABNOTE');
}

const files: FileSource = (fileId) => (fileId.startsWith('known') ? `files/${fileId}.bin` : null);

const textNote = doc(
  { type: 'heading', attrs: { blockUid: uid('h'), level: 1 }, content: [t('Buffer preparation')] },
  p(
    t('Plain, '),
    t('bold', [{ type: 'bold' }]),
    t(', '),
    t('italic', [{ type: 'italic' }]),
    t(', '),
    t('underlined', [{ type: 'underline' }]),
    t(', '),
    t('struck', [{ type: 'strike' }]),
    t(', '),
    t('code', [{ type: 'code' }]),
    t(' and '),
    t('red', [{ type: 'textStyle', attrs: { color: '#dc2626' } }]),
    t('.'),
  ),
  p(t('First line'), { type: 'hardBreak' }, t('second line')),
  { type: 'heading', attrs: { blockUid: uid('h'), level: 3 }, content: [t('Steps')] },
  {
    type: 'orderedList',
    attrs: { blockUid: uid('o'), start: 1, type: null },
    content: [
      { type: 'listItem', content: [inner(t('Weigh 6.06 g Tris'))] },
      {
        type: 'listItem',
        content: [inner(t('Adjust pH')), { type: 'bulletList', content: [{ type: 'listItem', content: [inner(t('with HCl'))] }] }],
      },
    ],
  },
  { type: 'bulletList', attrs: { blockUid: uid('b') }, content: [{ type: 'listItem', content: [inner(t('Keep at 4 °C'))] }] },
  { type: 'blockquote', attrs: { blockUid: uid('q') }, content: [inner(t('Check the balance first.'))] },
  { type: 'codeBlock', attrs: { blockUid: uid('c'), language: 'python' }, content: [t('if ph < 7.4:\n    add(base)')] },
  { type: 'horizontalRule', attrs: { blockUid: uid('r') } },
  p(),
);

// 3 x 3: a header row; in the body, a cell merged across two columns and a cell with a dropbox.
/** A seal's shape: rendering prints catalogue copies; whether the server made the seal is the live guard's concern. */
const SEAL = 'S'.repeat(43);

const mergedTable = table(
  'ttable0000000001',
  row(cell('tableHeader', 'Sample'), cell('tableHeader', 'OD'), cell('tableHeader', 'pH')),
  row(cell('tableCell', 'Blank (no sample)', { colspan: 2 }), cell('tableCell', '7.0')),
  row(cell('tableCell', 'A'), cell('tableCell', '0.42'), cell('tableCell', '7.1', { dropbox: 'pH meter' })),
  row(
    cell('tableCell', 'B'),
    cell('tableCell', '', { dropbox: { dropboxNo: 2, title: 'Solvents', code: 'MEOH', name: 'Methanol', seal: SEAL } }),
    cell('tableCell', '', { dropbox: { dropboxNo: 2, title: 'Solvents', code: null, name: null, seal: SEAL } }),
  ),
  row(
    cell('tableCell', 'C'),
    cell('tableCell', '', { dropbox: { dropboxNo: 2, title: 'Solvents', code: '', name: 'Other (see text)', seal: SEAL } }),
    cell('tableCell', ''),
  ),
);

const tableNote = doc(
  mergedTable,
  // A header column, and a cell merged over two rows.
  table(uid('t'), row(cell('tableHeader', 'Day 1'), cell('tableCell', 'Seeded', { rowspan: 2 })), row(cell('tableHeader', 'Day 2'))),
);

const chartTable = table(
  'tchart0000000001',
  row(cell('tableHeader', 'Sample'), cell('tableHeader', 'OD'), cell('tableHeader', 'pH')),
  row(cell('tableCell', 'A'), cell('tableCell', '0.42'), cell('tableCell', '7.1')),
  row(cell('tableCell', 'B'), cell('tableCell', '1,058.5', { colspan: 2 })),
  row(cell('tableCell', 'C'), cell('tableCell', '0.71'), cell('tableCell', 'n/a')),
);
const chart = (attrs: Record<string, unknown>): PmNode => ({
  type: 'chart',
  attrs: {
    blockUid: uid('k'),
    chartType: 'bar',
    name: 'Absorbance',
    xLabel: 'Sample',
    yLabel: 'OD 600',
    dataName: 'Run',
    label: 'Figure 1 · absorbance by sample',
    direction: 'vertical',
    tableUid: 'tchart0000000001',
    from: { row: 1, col: 0 },
    to: { row: 3, col: 2 },
    ...attrs,
  },
});
const chartNote = doc(
  chartTable,
  chart({}),
  chart({
    chartType: 'line',
    name: 'Rows as series',
    label: '',
    xLabel: '',
    yLabel: '',
    dataName: 'OD',
    direction: 'horizontal',
    from: { row: 0, col: 0 },
    to: { row: 1, col: 2 },
  }),
  chart({ name: 'Orphan', tableUid: 'tgone00000000001' }),
);

const mediaNote = doc(
  { type: 'image', attrs: { blockUid: uid('i'), fileId: 'known-gel', title: 'Gel, lane 3' } },
  { type: 'image', attrs: { blockUid: uid('i'), fileId: 'unknown-gel', title: '' } },
  {
    type: 'fileAttachment',
    attrs: { blockUid: uid('f'), fileId: 'known-raw', name: 'plate-reader.xlsx', size: 2_516_582, extension: 'xlsx' },
  },
  { type: 'fileAttachment', attrs: { blockUid: uid('f'), fileId: 'unknown-raw', name: 'protocol.pdf', size: 812, extension: 'pdf' } },
  { type: 'date', attrs: { blockUid: uid('d'), value: '2026-11-23' } },
  { type: 'date', attrs: { blockUid: uid('d'), value: 'next Tuesday' } },
);

const schemaBlock = (attrs: Record<string, unknown>) => ({
  type: 'schemaBlock',
  attrs: {
    blockUid: uid('s'),
    schemasTypeNo: 1,
    schemaNo: 2,
    typeTitle: 'Reagent',
    title: 'Sodium chloride',
    revision: 3,
    seal: SEAL,
    ...attrs,
  },
});
const schemaNote = doc(
  schemaBlock({
    entries: [
      { field: 'CAS', value: '7647-14-5' },
      { field: 'MW', value: '58.44 g/mol' },
      { field: 'Supplier', value: 'Sigma-Aldrich' },
    ],
  }),
  schemaBlock({ title: 'Empty', entries: [] }),
  schemaBlock({ revision: 0, entries: [] }),
);

const hostile = "<script>alert(1)</script> \"onload=alert(2) 'x' & </p>";
const hostileNote = doc(
  p(t(hostile), t('colour', [{ type: 'textStyle', attrs: { color: 'red; background: url(https://evil.example/x)' } }])),
  { type: 'codeBlock', attrs: { blockUid: uid('c'), language: '"onmouseover=alert(3)' }, content: [t('</code><script>')] },
  table(
    'tevil00000000001',
    row(cell('tableHeader', hostile), cell('tableHeader', '1')),
    row(
      cell('tableCell', '2', { dropbox: { dropboxNo: 1, title: '<b>"x</b>&', code: hostile, name: hostile, seal: SEAL } }),
      cell('tableCell', '3', { dropbox: '<i onload=x>' }),
    ),
  ),
  chart({
    name: hostile,
    label: hostile,
    xLabel: hostile,
    yLabel: hostile,
    dataName: hostile,
    tableUid: 'tevil00000000001',
    from: { row: 0, col: 0 },
    to: { row: 1, col: 1 },
  }),
  { type: 'image', attrs: { blockUid: uid('i'), fileId: '" onerror="alert(4)', title: '"onload=alert(5)' } },
  { type: 'image', attrs: { blockUid: uid('i'), fileId: 'known-x', title: '"><script>' } },
  { type: 'fileAttachment', attrs: { blockUid: uid('f'), fileId: 'known-y', name: hostile, size: 1, extension: '"><b>' } },
  { type: 'date', attrs: { blockUid: uid('d'), value: hostile } },
  {
    type: 'schemaBlock',
    attrs: {
      blockUid: uid('s'),
      schemasTypeNo: 1,
      schemaNo: 1,
      typeTitle: '<b>T</b>',
      title: '"x" & y',
      revision: 1,
      entries: [{ field: '<i>f</i>', value: hostile }],
      seal: SEAL,
    },
  },
);

const cjkNote = doc(
  { type: 'heading', attrs: { blockUid: uid('h'), level: 2 }, content: [t('시료 준비 / 試料の準備')] },
  p(t('50 mM Tris 완충액을 조제하였다. '), t('pH 7.4', [{ type: 'bold' }]), t('로 맞추었다.')),
  p(t('緩衝液を調製し、'), t('4 °C', [{ type: 'italic' }]), t('で保存した。')),
  table(
    'tcjk000000000001',
    row(cell('tableHeader', '시료'), cell('tableHeader', '흡광도'), cell('tableHeader', '吸光度')),
    row(cell('tableCell', '대조군 (병합)', { colspan: 2 }), cell('tableCell', '0.10')),
    row(
      cell('tableCell', '가'),
      cell('tableCell', '0.42'),
      cell('tableCell', '0.40', { dropbox: { dropboxNo: 7, title: '측정기', code: 'UV-1', name: '분광광도계', seal: SEAL } }),
    ),
  ),
  chart({
    name: '흡광도 비교',
    label: '그림 1 · 시료별 흡광도',
    xLabel: '시료',
    yLabel: 'OD',
    dataName: '측정',
    tableUid: 'tcjk000000000001',
    from: { row: 1, col: 0 },
    to: { row: 2, col: 2 },
  }),
  { type: 'image', attrs: { blockUid: uid('i'), fileId: 'unknown', title: '전기영동 사진' } },
  { type: 'fileAttachment', attrs: { blockUid: uid('f'), fileId: 'known-k', name: '측정결果.xlsx', size: 48_213, extension: 'xlsx' } },
  { type: 'date', attrs: { blockUid: uid('d'), value: '2026-11-23' } },
);

const ALLOWED_TAGS = new Set(
  'html head meta title style body article div h1 h2 h3 p strong em u s code span br pre hr ul ol li blockquote table caption thead tbody tr th td figure figcaption img a time'.split(
    ' ',
  ),
);

const fixture = (name: string) => `./fixtures/${name}`;

describe('rendering a saved version to HTML', () => {
  it('renders text blocks and marks as the editor writes them', async () => {
    await expect(renderVersionFragment(version(textNote), { lang: 'en' })).toMatchFileSnapshot(fixture('text.html'));
  });

  it('renders tables with a head, merged cells kept, header columns and dropbox values', async () => {
    const html = renderVersionFragment(version(tableNote), { lang: 'en' });
    await expect(html).toMatchFileSnapshot(fixture('table.html'));
    expect(html).toContain('<thead><tr><th scope="col"><p>Sample</p></th>');
    expect(html).toContain('<td colspan="2"><p>Blank (no sample)</p></td>');
    expect(html).toContain('<p class="eln-dropbox">Dropbox: pH meter</p>');
    // A chosen row prints as the cell's value with its list and code; the copy in the note, not the list's row today.
    expect(html).toContain('<p class="eln-dropbox-value">Methanol</p><p class="eln-dropbox">From Solvents, code MEOH</p>');
    expect(html).toContain('<p class="eln-dropbox">Dropbox Solvents: nothing chosen yet</p>');
    expect(html).toContain('<p class="eln-dropbox-value">Other (see text)</p><p class="eln-dropbox">Dropbox: Solvents</p>');
  });

  it('renders a chart as its name, label and data table, read from the range through a merged cell', async () => {
    const html = renderVersionFragment(version(chartNote), { lang: 'en' });
    await expect(html).toMatchFileSnapshot(fixture('chart.html'));
    // B's merged cell spans OD and pH: OD holds its text as written, pH (covered) is a gap, as in the browser's chart.
    expect(html).toContain('<tr><th scope="row">B</th><td>1,058.5</td><td></td></tr>');
    expect(html).toContain('<tr><th scope="row">C</th><td>0.71</td><td>n/a</td></tr>');
    expect(html).toContain('The table this chart was made from is gone');
  });

  it('renders images, files and dates, through the caller-supplied file source', async () => {
    const html = renderVersionFragment(version(mediaNote), { lang: 'en', fileSource: files });
    await expect(html).toMatchFileSnapshot(fixture('media.html'));
    expect(html).toContain('<img src="files/known-gel.bin" alt="Gel, lane 3">');
    expect(html).toContain('<time datetime="2026-11-23">Monday, November 23, 2026</time>');
  });

  it('without a file source, shows images as placeholders and files without links', () => {
    const html = renderVersionFragment(version(mediaNote), { lang: 'en' });
    expect(html).not.toMatch(/<img|<a /);
    expect(html).toContain('The image is not included.');
  });

  it('escapes every text and attribute a writer controls, and drops a colour that is not one', async () => {
    const html = renderVersionHtml(version(hostileNote), { lang: 'en', title: hostile, fileSource: (id) => `files/${id}` });
    await expect(html).toMatchFileSnapshot(fixture('escaping.html'));
    expect(html).not.toContain('<script');
    expect(html).not.toContain('</code><script');
    // Every tag is one the renderer writes, and no tag carries an event handler outside a quoted value.
    const tags = [...html.matchAll(/<([a-z][a-z0-9]*)([^>]*)>/gi)];
    expect(tags.map(([, name]) => name?.toLowerCase() ?? '').filter((name) => !ALLOWED_TAGS.has(name))).toEqual([]);
    for (const [, , attrs] of tags) expect((attrs ?? '').replace(/"[^"]*"/g, '""')).not.toMatch(/\son\w+\s*=/i);
    expect(html).not.toContain('url(');
    expect(html).toContain('<title>&lt;script&gt;alert(1)&lt;/script&gt; "onload=alert(2)');
    expect(html).toContain('alt="&quot;onload=alert(5)"');
  });

  it('renders an empty note as a page that says so', async () => {
    await expect(renderVersionHtml([], { lang: 'ja', title: '空のノート' })).toMatchFileSnapshot(fixture('empty.html'));
  });

  it('renders a whole page in Korean and Japanese, with its language and print stylesheet', async () => {
    const html = renderVersionHtml(version(cjkNote), { lang: 'ko', title: '완충액 조제 / 緩衝液の調製', fileSource: files });
    await expect(html).toMatchFileSnapshot(fixture('document-ko.html'));
    expect(html).toMatch(/^<!DOCTYPE html>\n<html lang="ko">\n<head>\n<meta charset="utf-8">/);
    expect(html).toContain('@page');
  });

  it('keeps the text of a node or mark the schema no longer knows, instead of failing the whole note', () => {
    const old: PmNode = doc({
      type: 'taskList',
      attrs: { blockUid: 'x000000000000001' },
      content: [inner(t('<done>', [{ type: 'blink' }]))],
    });
    const html = renderVersionFragment(docToSavedBlocks(old, 'LABNOTE'), { lang: 'en' });
    expect(html).toBe('<div class="eln-note-body">\n<p>&lt;done&gt;</p>\n</div>\n');
  });

  it('gives the same bytes for the same version, whatever order its blocks come in', () => {
    const blocks = version(cjkNote);
    const options = { lang: 'ja' as const, title: 'x', fileSource: files };
    expect(renderVersionHtml([...blocks].reverse(), options)).toBe(renderVersionHtml(blocks, options));
  });

  it('renders a schema block as its copied entries, captioned with schema, type and revision', async () => {
    const html = renderVersionFragment(version(schemaNote), { lang: 'en' });
    await expect(html).toMatchFileSnapshot(fixture('schema.html'));
    expect(html).toContain('<caption>Reagent › Sodium chloride · Revision 3</caption>');
    expect(html).toContain('<tr><th scope="row">CAS</th><td>7647-14-5</td></tr>');
    expect(html).toContain('This schema has no entries.');
    expect(html).toContain('This schema block cannot be shown.');
  });

  it('renders a mention as @ and the name it was written with, escaped, inside its line', async () => {
    const mention = (userId: string, label: string): PmNode => ({ type: 'mention', attrs: { userId, label } });
    const note = doc(
      p(t('Checked with '), mention('kim@lab.test', 'Kim Minji'), t(' and '), mention('lee@lab.test', '<b>Lee</b> "J"'), t('.')),
      table(
        'tmention00000001',
        row(cell('tableHeader', 'Owner')),
        row({ ...cell('tableCell', ''), content: [inner(mention('kim@lab.test', '김민지'))] }),
      ),
    );
    const html = renderVersionFragment(version(note), { lang: 'en' });
    await expect(html).toMatchFileSnapshot(fixture('mention.html'));
    expect(html).toContain(
      'Checked with <span class="eln-mention" data-user-id="kim@lab.test">@Kim Minji</span> and <span class="eln-mention" data-user-id="lee@lab.test">@&lt;b&gt;Lee&lt;/b&gt; "J"</span>.</p>',
    );
    expect(html).toContain('<td><p><span class="eln-mention" data-user-id="kim@lab.test">@김민지</span></p></td>');
  });

  it('has a fixture for every block node of the schema', () => {
    const rendered = new Set(
      [textNote, tableNote, chartNote, mediaNote, schemaNote].flatMap((note) => (note.content ?? []).map((node) => node.type)),
    );
    // A new block node fails here until a fixture shows how it prints.
    expect(BLOCK_NODE_TYPES.filter((type) => !rendered.has(type))).toEqual([]);
  });
});
