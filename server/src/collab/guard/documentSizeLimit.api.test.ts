import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { api, COLLAB_LIMITS, CONTENT_FIELD, DOCUMENT_TOO_LARGE, HOLD_ENDED_MESSAGE, noteDocumentName } from '@eln/shared';
import { startTestServer, type TestServer } from '../../testing/harness.js';
import { appendParagraph, connectWriter, eventually, paragraphTexts, type LiveClient } from '../../testing/live.js';

describe('the size of a live document', () => {
  let server: TestServer;
  let url: string;
  let token: string;
  let labNoteNo: number;
  const clients: LiveClient[] = [];
  const track = (client: LiveClient) => {
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    server = await startTestServer();
    url = await server.listen();
    const writer = await server.createUser({ name: 'Writer Size' });
    const caller = await server.as(writer);
    token = (await server.signIn(writer.userId, writer.password)).accessToken;
    const project = await caller(api.projects.create, {
      title: 'Size limits',
      signatureList: { department: '', user: writer.userId },
    });
    labNoteNo = (await caller(api.notes.create, { projectNo: project.body.data.projectNo, title: 'Big note' })).body.data.labNoteNo;
  });
  afterEach(() => {
    for (const client of clients.splice(0)) client.destroy();
  });
  afterAll(async () => {
    await server?.stop();
  });

  const tooLarge = (client: LiveClient) =>
    client
      .stateless()
      .some(
        (m) =>
          (m as { type?: string; reason?: string }).type === HOLD_ENDED_MESSAGE && (m as { reason?: string }).reason === DOCUMENT_TOO_LARGE,
      );

  it('accepts updates up to the limit, refuses the one past it (not applied, not stored) and says why', async () => {
    const name = noteDocumentName(labNoteNo);
    const writer = track(await connectWriter(url, name, token));
    // Well under the limit: stored.
    const bulk = 'a'.repeat(COLLAB_LIMITS.documentBytes - 1024 * 1024);
    appendParagraph(writer.doc, bulk);
    await eventually(() => writer.allDurable(), 'the large but allowed edit to be stored', 30_000);
    // Past the limit: refused with the reason, and the connection turns read-only.
    appendParagraph(writer.doc, 'b'.repeat(2 * 1024 * 1024));
    await eventually(() => tooLarge(writer), 'the too-large message', 30_000);
    const live = server.collab.documents.get(name);
    expect(live && Y.encodeStateAsUpdate(live).byteLength).toBeLessThanOrEqual(COLLAB_LIMITS.documentBytes);
    expect(live?.getXmlFragment(CONTENT_FIELD).length).toBe(1);
    // Later edits on that connection are refused too; a fresh connection gets what was stored.
    appendParagraph(writer.doc, 'after the refusal');
    writer.destroy();
    await eventually(() => !server.collab.documents.has(name), 'the document to unload', 30_000);
    const reader = track(await connectWriter(url, name, token));
    expect(paragraphTexts(reader.doc)).toEqual([bulk]);
  });

  it('lets a full document be trimmed, and then grown again', async () => {
    const name = noteDocumentName(labNoteNo);
    const writer = track(await connectWriter(url, name, token));
    const fragment = writer.doc.getXmlFragment(CONTENT_FIELD);
    expect(fragment.length).toBe(1);
    fragment.delete(0, 1);
    appendParagraph(writer.doc, 'small again');
    await eventually(() => writer.allDurable(), 'the trim and the small edit to be stored', 30_000);
    expect(tooLarge(writer)).toBe(false);
    writer.destroy();
    await eventually(() => !server.collab.documents.has(name), 'the document to unload', 30_000);
    const reader = track(await connectWriter(url, name, token));
    expect(paragraphTexts(reader.doc)).toEqual(['small again']);
  });
});
