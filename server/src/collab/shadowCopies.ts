import * as Y from 'yjs';
import { yXmlFragmentToProsemirrorJSON } from '@tiptap/y-tiptap';
import { CONTENT_FIELD, newContentViolations, type ContentViolation, type PmNode } from '@eln/shared';
import { schemaViolation } from '@eln/shared/editor';

interface Shadow {
  doc: Y.Doc;
  /** The shadow's content as JSON while it is current (null once something changed it). */
  content: PmNode | null;
}

const contentOf = (doc: Y.Doc) => yXmlFragmentToProsemirrorJSON(doc.getXmlFragment(CONTENT_FIELD)) as PmNode;

/**
 * The content rules an update broke, and the editor's schema when the document fitted it before (a
 * document that did not stays editable, like one breaking a content rule).
 */
export function violationsBetween(after: PmNode, before: PmNode): ContentViolation[] {
  const added = newContentViolations(after, before);
  if (added.length) return added;
  return schemaViolation(after) !== null && schemaViolation(before) === null ? [{ rule: 'schema', blockUid: null }] : [];
}

/**
 * A copy of each live document on which an update is tried before the document gets it, so that the
 * content rules can judge the result without copying the whole document per update. The copy follows
 * every update the document applies (from any connection or process); an update tried on it and then
 * refused makes it wrong, so it is dropped and made again when next needed. Its content JSON is kept
 * between checks: the JSON after an accepted update is the JSON before the next.
 */
export class ShadowCopies {
  private readonly shadows = new WeakMap<Y.Doc, Shadow>();
  private readonly followed = new WeakSet<Y.Doc>();

  /** The violations `update` would add to `document` (tried on its copy, never on the document). */
  violationsAdded(document: Y.Doc, update: Uint8Array): ContentViolation[] {
    const shadow = this.shadowOf(document);
    const before = shadow.content ?? contentOf(shadow.doc);
    Y.applyUpdate(shadow.doc, update);
    const after = contentOf(shadow.doc);
    const added = violationsBetween(after, before);
    if (added.length) this.drop(document);
    else shadow.content = after;
    return added;
  }

  private shadowOf(document: Y.Doc): Shadow {
    const known = this.shadows.get(document);
    if (known) return known;
    const doc = new Y.Doc();
    Y.applyUpdate(doc, Y.encodeStateAsUpdate(document));
    const shadow: Shadow = { doc, content: null };
    // Anything the shadow takes from the document makes its JSON stale (an update it already had changes nothing).
    doc.on('update', () => {
      shadow.content = null;
    });
    this.shadows.set(document, shadow);
    if (!this.followed.has(document)) {
      this.followed.add(document);
      document.on('update', (applied: Uint8Array) => {
        const current = this.shadows.get(document);
        if (current) Y.applyUpdate(current.doc, applied);
      });
      document.on('destroy', () => this.drop(document));
    }
    return shadow;
  }

  private drop(document: Y.Doc): void {
    this.shadows.get(document)?.doc.destroy();
    this.shadows.delete(document);
  }
}
