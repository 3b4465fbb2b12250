import { expect, test } from './test.js';
import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import { WebSocket } from 'ws';
import * as Y from 'yjs';
import { api, COLLAB_PATH, CONTENT_FIELD, noteDocumentName } from '@eln/shared';
import { E2E } from './fixtures.js';
import { callApi, apiSignIn, cuttableNetwork, openAs, prose, shot, unique, type Person } from './support.js';

/**
 * A live edit the server refuses, in the browser: while Kim is offline she deletes a table's last row;
 * meanwhile a colleague's client makes a chart from rows 1-3. Back online, Kim's deletion would take the
 * chart's range out of its table: the server refuses it, Kim is told why, and her note reopens as stored
 * (three rows and the chart), the same as the colleague's.
 */

function element(name: string, attrs: Record<string, unknown>, children: Array<Y.XmlElement | Y.XmlText> = []): Y.XmlElement {
  const node = new Y.XmlElement(name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value as string);
  node.insert(0, children);
  return node;
}

/** A colleague's raw Yjs client (no editor), synced with the note. */
async function rawClient(
  baseURL: string,
  token: string,
  labNoteNo: number,
): Promise<{ doc: Y.Doc; stored: () => Promise<void>; close: () => void }> {
  const doc = new Y.Doc();
  const socket = new HocuspocusProviderWebsocket({ url: `${baseURL.replace(/^http/, 'ws')}${COLLAB_PATH}`, WebSocketPolyfill: WebSocket });
  const provider = await new Promise<HocuspocusProvider>((resolve, reject) => {
    const timer = setTimeout(() => {
      created.destroy();
      socket.destroy();
      reject(new Error(`the colleague's client did not sync with ${baseURL} in 15 s`));
    }, 15_000);
    const created: HocuspocusProvider = new HocuspocusProvider({
      websocketProvider: socket,
      name: noteDocumentName(labNoteNo),
      document: doc,
      token,
      onSynced: () => (clearTimeout(timer), resolve(created)),
    });
    created.attach();
  });
  return {
    doc,
    stored: () => expect.poll(() => provider.hasUnsyncedChanges).toBe(false),
    close: () => {
      provider.destroy();
      socket.destroy();
    },
  };
}

test('a refused live edit: the writer is told why and the note reopens as stored', async ({ browser, request, baseURL }) => {
  const id = unique();
  const adminToken = await apiSignIn(request, E2E.admin);
  const colleague: Person = {
    userId: `colleague.${id.toLowerCase()}@eln.local`,
    password: 'colleague-password-1234',
    name: `Colleague ${id}`,
  };
  await callApi(request, adminToken, api.users.create, {
    ...colleague,
    level: 1,
    auth: { project: 'N', schema: 'N', dropbox: 'N', template: 'N' },
  });
  const memberToken = await apiSignIn(request, E2E.member);
  const project = await callApi(request, memberToken, api.projects.create, {
    title: `Rules ${id}`,
    signatureList: { department: '', user: `${E2E.member.userId},${colleague.userId}` },
  });
  const { labNoteNo } = await callApi(request, memberToken, api.notes.create, {
    projectNo: project.projectNo,
    title: `Refused ${id}`,
  });

  const other = await rawClient(baseURL!, await apiSignIn(request, colleague), labNoteNo);
  const tableUid = `t${id.toLowerCase()}00000001`;
  const rows = [0, 1, 2].map((r) =>
    element(
      'tableRow',
      {},
      [0, 1].map((c) => element('tableCell', { colspan: 1, rowspan: 1 }, [element('paragraph', {}, [new Y.XmlText(`${r + 1}${c}`)])])),
    ),
  );
  other.doc
    .getXmlFragment(CONTENT_FIELD)
    .push([element('table', { blockUid: tableUid }, rows), element('paragraph', {}, [new Y.XmlText('After the table')])]);
  await other.stored();

  const kim = await openAs(browser, E2E.member);
  const network = await cuttableNetwork(kim);
  await kim.goto(`/note/${labNoteNo}`);
  await expect(kim.getByTestId('connection-state')).toHaveAttribute('data-state', 'connected');
  await expect(prose(kim).locator('table tr')).toHaveCount(3);

  await network.offline();
  await prose(kim).locator('table tr').nth(2).locator('td').first().click();
  await kim.getByTestId('table-delete-row').click();
  await expect(prose(kim).locator('table tr')).toHaveCount(2);

  const chart = {
    blockUid: `c${id.toLowerCase()}00000001`,
    chartType: 'bar',
    name: 'Rate',
    label: 'Fig. 1',
    dataName: 'A',
    tableUid,
    from: { row: 0, col: 0 },
    to: { row: 2, col: 1 },
  };
  other.doc.getXmlFragment(CONTENT_FIELD).insert(1, [element('chart', chart)]);
  await other.stored();

  await network.online();
  await expect(kim.getByTestId('alert-message')).toContainText('was not kept', { timeout: 20_000 });
  await expect(kim.getByTestId('alert-message')).toContainText('inside its table');
  await shot(kim, 'note-edit-refused-s-en', false);
  await kim.getByTestId('alert-ok').click();
  // Reopened from the server: three rows and the chart, and editing goes on.
  await expect(kim.getByTestId('connection-state')).toHaveAttribute('data-state', 'connected', { timeout: 20_000 });
  await expect(prose(kim).locator('table tr')).toHaveCount(3);
  await expect(prose(kim).locator('[data-type="chart"], .chart-view, figure')).not.toHaveCount(0);
  await prose(kim).getByText('After the table').click();
  await kim.keyboard.type(' and more');
  await expect(kim.getByTestId('save-state')).toHaveText('Saved');
  await expect.poll(() => (other.doc.getXmlFragment(CONTENT_FIELD).get(0) as Y.XmlElement).length).toBe(3);
  await expect.poll(() => other.doc.getXmlFragment(CONTENT_FIELD).toString()).toContain('After the table and more');
  other.close();
  await kim.context().close();
});
