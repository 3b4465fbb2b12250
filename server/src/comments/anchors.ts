import * as Y from 'yjs';
import { COMMENT_LIMITS, CONTENT_FIELD, type CommentAnchor } from '@eln/shared';

/*
 * A thread's anchor as the server reads it: two Yjs relative positions (encoded, base64) in the note's
 * content, and the block's uid. The client makes them from the live document; the server checks that
 * they can be read and, when it answers a list or exports, whether the text they enclose is still there.
 */

/** The relative position an encoded one names, or null when it cannot be read. */
export function decodePosition(encoded: string): Y.RelativePosition | null {
  try {
    const bytes = Buffer.from(encoded, 'base64');
    const position = Y.decodeRelativePosition(bytes);
    // Garbage may decode to something: only what encodes back to the very same bytes is a position.
    return Buffer.from(Y.encodeRelativePosition(position)).equals(bytes) ? position : null;
  } catch {
    return null;
  }
}

/** Whether both ends of an anchor can be read (a whole block's anchor has none). */
export function readableAnchor(anchor: Pick<CommentAnchor, 'start' | 'end'>): boolean {
  if (anchor.start === null || anchor.end === null) return anchor.start === anchor.end;
  return decodePosition(anchor.start) !== null && decodePosition(anchor.end) !== null;
}

/** The quote kept with a thread: the anchored text, cut to COMMENT_LIMITS.quote with an ellipsis. */
export function keptQuote(quote: string): string {
  const chars = Array.from(quote);
  return chars.length <= COMMENT_LIMITS.quote ? quote : `${chars.slice(0, COMMENT_LIMITS.quote - 1).join('')}…`;
}

/** Whether a type lies in deleted content: it, or an element it is in, was deleted. */
function insideDeleted(type: Y.AbstractType<unknown>): boolean {
  for (let item = type._item; item; item = item.parent instanceof Y.AbstractType ? item.parent._item : null) {
    if (item.deleted) return true;
  }
  return false;
}

/** The top-level block uids of a document's content. */
function blockUidsOf(doc: Y.Doc): Set<string> {
  const uids = new Set<string>();
  for (const node of doc.getXmlFragment(CONTENT_FIELD).toArray()) {
    if (node instanceof Y.XmlElement) {
      const uid = node.getAttribute('blockUid');
      if (typeof uid === 'string') uids.add(uid);
    }
  }
  return uids;
}

/**
 * Reads anchors against one state of a document: `onDeletedText(anchor)` says whether the anchored text is
 * gone. A range is gone when both its ends now fall in deleted content, or when it closed up (every
 * character between its ends was deleted); a whole block's anchor when no block has its uid any more.
 */
export class AnchorReader {
  private readonly doc: Y.Doc;
  private uids: Set<string> | null = null;

  constructor(document: Y.Doc | Uint8Array) {
    if (document instanceof Y.Doc) this.doc = document;
    else {
      this.doc = new Y.Doc();
      Y.applyUpdate(this.doc, document);
    }
  }

  onDeletedText(anchor: Pick<CommentAnchor, 'blockUid' | 'start' | 'end'>): boolean {
    if (anchor.start === null || anchor.end === null) {
      this.uids ??= blockUidsOf(this.doc);
      return !this.uids.has(anchor.blockUid);
    }
    const start = decodePosition(anchor.start);
    const end = decodePosition(anchor.end);
    if (!start || !end) return true;
    const from = this.absolute(start);
    const to = this.absolute(end);
    // Not found though this copy has seen the text it names: deleted, and collected since (a deleted
    // block's text is). Not seen at all: it never reached this copy, so nothing says it is gone.
    if (!from || !to) return [start, end].every((position) => this.seen(position));
    if (from === 'collected' || to === 'collected') return true;
    if (insideDeleted(from.type) && insideDeleted(to.type)) return true;
    return from.type === to.type && from.index >= to.index;
  }

  private absolute(position: Y.RelativePosition): Y.AbsolutePosition | 'collected' | null {
    try {
      return Y.createAbsolutePositionFromRelativePosition(position, this.doc);
    } catch {
      // A position in a type that was deleted and collected names an item that is no longer one.
      return 'collected';
    }
  }

  private seen(position: Y.RelativePosition): boolean {
    const id = position.item ?? position.type;
    return id ? Y.getState(this.doc.store, id.client) > id.clock : true;
  }
}
