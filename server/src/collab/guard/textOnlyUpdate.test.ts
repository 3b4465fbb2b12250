import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { CONTENT_FIELD, DELETION_MARKS_FIELD } from '@eln/shared';
import { onlyEditsText } from './textOnlyUpdate.js';

/** A server copy and a client copy of a note with one paragraph of text; `change` runs on the client. */
function updateOf(change: (client: Y.Doc) => void): { server: Y.Doc; update: Uint8Array } {
  const server = new Y.Doc();
  const paragraph = new Y.XmlElement('paragraph');
  paragraph.setAttribute('blockUid', 'p1');
  paragraph.insert(0, [new Y.XmlText('Hello')]);
  server.getXmlFragment(CONTENT_FIELD).insert(0, [paragraph]);
  const client = new Y.Doc();
  Y.applyUpdate(client, Y.encodeStateAsUpdate(server));
  const vector = Y.encodeStateVector(client);
  change(client);
  return { server, update: Y.encodeStateAsUpdate(client, vector) };
}
const textOf = (doc: Y.Doc) => (doc.getXmlFragment(CONTENT_FIELD).get(0) as Y.XmlElement).get(0) as Y.XmlText;
const paragraphOf = (doc: Y.Doc) => doc.getXmlFragment(CONTENT_FIELD).get(0) as Y.XmlElement;
const fast = (change: (client: Y.Doc) => void) => {
  const { server, update } = updateOf(change);
  return onlyEditsText(server, update);
};

describe('the text-only fast path', () => {
  it('takes typing and deleting text, and changes outside the content', () => {
    expect(fast((doc) => textOf(doc).insert(5, ' world'))).toBe(true);
    expect(fast((doc) => [...'abc'].forEach((ch, i) => textOf(doc).insert(i, ch)))).toBe(true);
    expect(fast((doc) => textOf(doc).delete(1, 2))).toBe(true);
    expect(
      fast((doc) =>
        doc.transact(() => {
          textOf(doc).delete(0, 1);
          doc.getMap(DELETION_MARKS_FIELD).set(String(doc.clientID), 1);
        }),
      ),
    ).toBe(true);
    expect(fast(() => undefined)).toBe(true);
    // Nothing outside the note's content fragment is read by a rule.
    expect(fast((doc) => doc.getMap('elsewhere').set('k', new Y.Map()))).toBe(true);
  });
  it('takes typing into text carrying marks its node allows, not where a mark may not stand', () => {
    const typedInto = (nodeName: string) => {
      const server = new Y.Doc();
      const node = new Y.XmlElement(nodeName);
      const text = new Y.XmlText('Hello');
      node.insert(0, [text]);
      server.getXmlFragment(CONTENT_FIELD).insert(0, [node]);
      text.format(0, 3, { bold: true });
      const client = new Y.Doc();
      Y.applyUpdate(client, Y.encodeStateAsUpdate(server));
      const vector = Y.encodeStateVector(client);
      textOf(client).insert(1, 'x');
      return onlyEditsText(server, Y.encodeStateAsUpdate(client, vector));
    };
    expect(typedInto('paragraph')).toBe(true);
    expect(typedInto('codeBlock')).toBe(false);
  });
  it('takes adding, splitting and deleting paragraphs at the top of the note (no rule reads them)', () => {
    const paragraph = (text: string, uid = 'p2') => {
      const element = new Y.XmlElement('paragraph');
      element.setAttribute('blockUid', uid);
      element.insert(0, [new Y.XmlText(text)]);
      return element;
    };
    expect(fast((doc) => doc.getXmlFragment(CONTENT_FIELD).push([paragraph('Second')]))).toBe(true);
    expect(fast((doc) => doc.getXmlFragment(CONTENT_FIELD).insert(0, [paragraph('First'), paragraph('', 'p3')]))).toBe(true);
    // Enter in the middle: the tail moves into a new paragraph.
    expect(
      fast((doc) =>
        doc.transact(() => {
          textOf(doc).delete(3, 2);
          doc.getXmlFragment(CONTENT_FIELD).insert(1, [paragraph('lo')]);
        }),
      ),
    ).toBe(true);
    expect(fast((doc) => doc.getXmlFragment(CONTENT_FIELD).delete(0, 1))).toBe(true);
    expect(fast((doc) => paragraphOf(doc).setAttribute('blockUid', 'other'))).toBe(true);
  });
  it('leaves everything else to the full check (text nodes of a paragraph aside)', () => {
    // Whether a mark may stand in text depends on the node holding it (none in a code block).
    expect(fast((doc) => textOf(doc).format(0, 5, { bold: true }))).toBe(false);
    expect(fast((doc) => paragraphOf(doc).setAttribute('onclick', 'steal()'))).toBe(false);
    expect(fast((doc) => paragraphOf(doc).setAttribute('blockUid', 42 as unknown as string))).toBe(false);
    expect(fast((doc) => doc.getXmlFragment(CONTENT_FIELD).push([new Y.XmlElement('table')]))).toBe(false);
    expect(fast((doc) => doc.getXmlFragment(CONTENT_FIELD).push([new Y.XmlElement('heading')]))).toBe(false);
    expect(
      fast((doc) => {
        const withImage = new Y.XmlElement('paragraph');
        withImage.insert(0, [new Y.XmlElement('image')]);
        doc.getXmlFragment(CONTENT_FIELD).push([withImage]);
      }),
    ).toBe(false);
    expect(
      fast((doc) => {
        const cell = new Y.XmlElement('tableCell');
        const inner = new Y.XmlElement('paragraph');
        inner.insert(0, [new Y.XmlText('in a cell')]);
        cell.insert(0, [inner]);
        doc.getXmlFragment(CONTENT_FIELD).push([cell]);
      }),
    ).toBe(false);
    expect(fast((doc) => paragraphOf(doc).insert(1, [new Y.XmlText('second text')]))).toBe(true);
    expect(fast((doc) => paragraphOf(doc).delete(0, 1))).toBe(true); // an empty paragraph breaks nothing
    expect(fast((doc) => doc.getXmlFragment(CONTENT_FIELD).insert(0, [new Y.XmlText('bare text at the top')]))).toBe(false);
  });
  it('leaves to the full check an update Yjs would apply otherwise than it reads: a gap, a section given twice, anything pending', () => {
    const { server, update: first } = updateOf((doc) => textOf(doc).insert(5, '!'));
    const client = new Y.Doc();
    Y.applyUpdate(client, Y.encodeStateAsUpdate(server));
    Y.applyUpdate(client, first);
    const before = Y.encodeStateVector(client);
    textOf(client).insert(6, '?');
    const second = Y.encodeStateAsUpdate(client, before);
    expect(onlyEditsText(server, first)).toBe(true);
    // A gap: the second keystroke before the first.
    expect(onlyEditsText(server, second)).toBe(false);
    // Both in one update, the client's section given twice (Yjs would apply only the second).
    const twice = new Uint8Array([2, ...first.slice(1, -1), ...second.slice(1)]);
    expect(Y.decodeUpdate(twice).structs).toHaveLength(2);
    expect(onlyEditsText(server, twice)).toBe(false);
    // Pending in the document: any update may place it.
    Y.applyUpdate(server, second);
    expect(server.store.pendingStructs).not.toBeNull();
    const other = new Y.Doc();
    Y.applyUpdate(other, Y.encodeStateAsUpdate(server));
    let keystroke: Uint8Array = new Uint8Array();
    other.on('update', (update: Uint8Array) => (keystroke = update));
    textOf(other).insert(0, 'x');
    expect(onlyEditsText(server, keystroke)).toBe(false);
    // Sent again: the document's clock is past the section's start.
    Y.applyUpdate(server, first);
    expect(server.store.pendingStructs).toBeNull();
    expect(onlyEditsText(server, first)).toBe(false);
  });
});
