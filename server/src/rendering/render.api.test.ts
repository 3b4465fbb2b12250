import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import * as Y from 'yjs';
import { api, CONTENT_FIELD, noteDocumentName, type SavedBlock } from '@eln/shared';
import { noteVersions } from '../db/schema.js';
import { startTestServer, type Caller, type TestServer } from '../testing/harness.js';
import { appendParagraph, appendTable, connectWriter, eventually, type LiveClient } from '../testing/live.js';
import { renderVersionHtml } from './render.js';

/**
 * A version written by a real live-editing client (raw Yjs, as the editor's binding stores it), saved
 * through the API and read back from note_versions, renders to a page with every block in place.
 */
let server: TestServer;
let url: string;
let writer: Caller;
let writerToken: string;
let client: LiveClient | null = null;
let projectNo: number;

beforeAll(async () => {
  server = await startTestServer();
  url = await server.listen();
  const user = await server.createUser({ name: 'Writer Woo' });
  writerToken = (await server.signIn(user.userId, user.password)).accessToken;
  writer = server.callerWith(writerToken);
  const leader = await server.as(await server.createUser({ name: 'Leader Lim' }));
  const created = await leader(api.projects.create, {
    title: 'Rendering',
    signatureList: { department: '', user: user.userId },
  });
  projectNo = created.body.data.projectNo;
});
afterAll(async () => {
  client?.destroy();
  await server?.stop();
});

/** Appends a top-level atom node with the given attributes, as y-tiptap stores one. */
function appendAtom(doc: Y.Doc, type: string, attrs: Record<string, unknown>): void {
  const node = new Y.XmlElement(type);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value as string);
  const fragment = doc.getXmlFragment(CONTENT_FIELD);
  fragment.insert(fragment.length, [node]);
}

describe('rendering a version saved through the API', () => {
  it('renders the stored blocks of a live-edited note, escaped, with its chart read from its table', async () => {
    const title = '<script> "onload=x';
    const created = await writer(api.notes.create, { projectNo, title });
    expect(created.body.status).toBe('0000');
    const { labNoteNo } = created.body.data;

    client = await connectWriter(url, noteDocumentName(labNoteNo), writerToken);
    appendParagraph(client.doc, '완충액 <b>조제</b> / 緩衝液');
    const tableUid = appendTable(client.doc, 3, 3);
    appendAtom(client.doc, 'chart', {
      blockUid: 'kapichart0000001',
      chartType: 'line',
      name: 'Run "A"',
      label: 'Figure 1',
      dataName: 'OD',
      xLabel: '',
      yLabel: '',
      direction: 'vertical',
      tableUid,
      from: { row: 0, col: 0 },
      to: { row: 2, col: 1 },
    });
    appendAtom(client.doc, 'date', { blockUid: 'dapidate00000001', value: '2026-11-23' });
    await eventually(() => client?.allDurable() ?? false, 'the edits stored');

    const listed = (await writer(api.notes.blockList, { labNoteNo })).body.data;
    const saved = await writer(api.notes.saveVersion, { labNoteNo, version: 0, blockList: listed.blockList });
    expect(saved.body.data.version).toBe(1);

    const [row] = await server.database.db
      .select()
      .from(noteVersions)
      .where(and(eq(noteVersions.noteNo, labNoteNo), eq(noteVersions.version, 1)));
    const stored = row?.blocks as SavedBlock[];
    expect(stored).toHaveLength(4);
    const html = renderVersionHtml(stored, { lang: 'en', title });

    expect(html).toContain('<title>&lt;script&gt; "onload=x</title>');
    expect(html).not.toContain('<script');
    expect(html).toContain('>완충액 &lt;b&gt;조제&lt;/b&gt; / 緩衝液</p>');
    // appendTable writes "r,c" in every cell; the chart reads rows 0-2 of columns 0-1: labels, then one series.
    expect(html).toContain(`<table class="eln-table" data-block-uid="${tableUid}"><tbody><tr><td><p>0,0</p></td>`);
    expect(html).toContain('<span class="eln-chart-name">Run "A"</span>');
    expect(html).toContain(
      '<thead><tr><th scope="col"></th><th scope="col">OD</th></tr></thead><tbody><tr><th scope="row">0,0</th><td>0,1</td></tr><tr><th scope="row">1,0</th><td>1,1</td></tr>',
    );
    expect(html).toContain('<time datetime="2026-11-23">Monday, November 23, 2026</time>');

    // What a reader is shown as the version renders to the same bytes as what is stored.
    const viewer = (await writer(api.notes.viewer, { labNoteNo })).body.data;
    expect(renderVersionHtml(viewer.blockList, { lang: 'en', title })).toBe(html);
  });
});
