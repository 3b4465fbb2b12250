import * as Y from 'yjs';
import { Document, OutgoingMessage, type Connection, type beforeHandleMessagePayload } from '@hocuspocus/server';
import { CONTENT_FIELD, type PmNode } from '@eln/shared';
import { yXmlFragmentToProsemirrorJSON } from '@tiptap/y-tiptap';
import { ContentRuleGuard, violationsAdded } from '../../server/src/collab/guard/contentRuleGuard.js';
import { CatalogueSeals } from '../../server/src/collab/guard/catalogueSeals.js';
import { violationsBetween } from '../../server/src/collab/guard/shadowCopies.js';
import { appendParagraph, appendTable } from '../../server/src/testing/live.js';

/**
 * The cost of the content rule guard per live update, on a note with a 30 x 30 table: 1,000 keystrokes
 * applied to the server's copy without the guard, with it (the text-only fast path), and with the full
 * check forced on a fresh copy per update; then 1,000 new paragraphs (the fast path since paragraphs
 * break no rule) and 1,000 new headings (a structural update: the shadow copy, judged per changed block)
 * through the guard, with the whole note judged per update (the guard before blocks were kept), and on
 * a fresh copy each.
 */
const KEYSTROKES = 1000;
const NAME = 'labnote.1';

function keystrokes(): { base: Uint8Array; updates: Uint8Array[] } {
  const client = new Y.Doc();
  appendTable(client, 30, 30);
  appendParagraph(client, 'Typed: ');
  const base = Y.encodeStateAsUpdate(client);
  const text = (client.getXmlFragment(CONTENT_FIELD).get(1) as Y.XmlElement).get(0) as Y.XmlText;
  const updates: Uint8Array[] = [];
  client.on('update', (update: Uint8Array) => updates.push(update));
  for (let i = 0; i < KEYSTROKES; i += 1) text.insert(text.length, String.fromCharCode(97 + (i % 26)));
  return { base, updates };
}

function serverCopy(base: Uint8Array): Document {
  const document = new Document(NAME);
  Y.applyUpdate(document, base);
  return document;
}

const contentOf = (doc: Y.Doc) => yXmlFragmentToProsemirrorJSON(doc.getXmlFragment(CONTENT_FIELD)) as PmNode;

const frame = (update: Uint8Array) => new OutgoingMessage(NAME).createSyncMessage().writeUpdate(update).toUint8Array();

async function timed(label: string, run: () => Promise<void> | void): Promise<void> {
  const start = performance.now();
  await run();
  const ms = performance.now() - start;
  console.log(`${label.padEnd(54)} ${ms.toFixed(1).padStart(9)} ms total  ${((ms * 1000) / KEYSTROKES).toFixed(1).padStart(8)} µs/update`);
}

export async function contentGuardBench(): Promise<void> {
  const { base, updates } = keystrokes();
  const guard = new ContentRuleGuard(() => true, new CatalogueSeals('bench-secret'), { warn: () => undefined });
  const connection = { readOnly: false } as Connection;
  const frames = updates.map(frame);

  let document = serverCopy(base);
  await timed('apply only (no guard)', () => {
    for (const update of updates) Y.applyUpdate(document, update);
  });
  document = serverCopy(base);
  await timed('guard (fast path) + apply', async () => {
    for (const [i, update] of updates.entries()) {
      await guard.beforeHandleMessage({ connection, document, update: frames[i] } as unknown as beforeHandleMessagePayload);
      Y.applyUpdate(document, update);
    }
  });
  document = serverCopy(base);
  await timed('full check on a fresh copy per update + apply', () => {
    for (const update of updates) {
      violationsAdded(document, update);
      Y.applyUpdate(document, update);
    }
  });
  // New blocks: paragraphs (as Enter makes) take the fast path; headings take the full check.
  for (const kind of ['paragraph', 'heading'] as const) {
    const edits = structuralEdits(base, kind);
    document = serverCopy(base);
    await timed(`new ${kind}s: guard + apply`, async () => {
      for (const [i, update] of edits.updates.entries()) {
        await guard.beforeHandleMessage({ connection, document, update: edits.frames[i] } as unknown as beforeHandleMessagePayload);
        Y.applyUpdate(document, update);
      }
    });
    document = serverCopy(base);
    const shadow = serverCopy(base);
    await timed(`new ${kind}s: whole-note check per update + apply`, () => {
      // The guard before it kept blocks: the whole note's JSON rendered and judged per structural update.
      for (const update of edits.updates) {
        const before = contentOf(shadow);
        Y.applyUpdate(shadow, update);
        violationsBetween(contentOf(shadow), before);
        Y.applyUpdate(document, update);
      }
    });
    document = serverCopy(base);
    await timed(`new ${kind}s: fresh copy per update + apply`, () => {
      for (const update of edits.updates) {
        violationsAdded(document, update);
        Y.applyUpdate(document, update);
      }
    });
  }
}

function structuralEdits(base: Uint8Array, kind: 'paragraph' | 'heading'): { updates: Uint8Array[]; frames: Uint8Array[] } {
  const client = new Y.Doc();
  Y.applyUpdate(client, base);
  const updates: Uint8Array[] = [];
  client.on('update', (update: Uint8Array) => updates.push(update));
  for (let i = 0; i < KEYSTROKES; i += 1) {
    if (kind === 'paragraph') appendParagraph(client, `line ${i}`);
    else {
      const heading = new Y.XmlElement('heading');
      heading.setAttribute('level', 2 as unknown as string);
      heading.insert(0, [new Y.XmlText(`Heading ${i}`)]);
      client.getXmlFragment(CONTENT_FIELD).push([heading]);
    }
  }
  return { updates, frames: updates.map(frame) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await contentGuardBench();
  process.exit(0);
}
