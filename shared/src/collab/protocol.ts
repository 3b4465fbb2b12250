import type { ContentRule } from '../editor/contentRules.js';

/**
 * The live-editing protocol between the editor and the collaboration server: the websocket path, the
 * reasons a connection is refused or closed, and the stateless messages the server sends.
 */

/** Path of the live-editing websocket. */
export const COLLAB_PATH = '/collab';

/** Why the live-editing server refused or closed a document's connection (the provider's `reason`). */
export const COLLAB_REFUSALS = {
  /** No valid session behind the token: expired, revoked or forged. */
  session: 'session-ended',
  document: 'no-such-document',
  forbidden: 'forbidden',
  /**
   * The connection sent an update that breaks a content rule: it was not applied, and since the server
   * can never apply that client's later updates (Yjs clocks), the client reopens with a fresh document.
   */
  contentRefused: 'content-refused',
} as const;
export type CollabRefusalReason = (typeof COLLAB_REFUSALS)[keyof typeof COLLAB_REFUSALS];

/** The websocket close code that goes with `COLLAB_REFUSALS.contentRefused`. */
export const CONTENT_REFUSED_CLOSE_CODE = 4422;

/** The Yjs XML fragment that holds a live document's content (Tiptap's default). */
export const CONTENT_FIELD = 'default';

/** The stateless message by which the server ends a connection's write access (hold cleared, note locked). */
export const HOLD_ENDED_MESSAGE = 'hold-ended';

/**
 * The hold-ended reason for an update refused because the document would outgrow
 * COLLAB_LIMITS.documentBytes: the update is not stored and the connection turns read-only.
 */
export const DOCUMENT_TOO_LARGE = 'too-large';

/** The stateless message by which the server confirms that edits are stored. */
export const DURABLE_MESSAGE = 'durable';

export interface DurableMessage {
  type: typeof DURABLE_MESSAGE;
  /** For each Yjs client ID, the clock up to which its edits are stored in the database. */
  clocks: Record<string, number>;
}

/**
 * The stateless message by which the server tells a sender its update broke a content rule and was
 * dropped; the connection is closed right after (CONTENT_REFUSED_CLOSE_CODE).
 */
export const CONTENT_REFUSED_MESSAGE = 'content-refused';

export interface ContentRefusedMessage {
  type: typeof CONTENT_REFUSED_MESSAGE;
  rule: ContentRule;
  blockUid: string | null;
}

export function parseContentRefusedMessage(payload: string): ContentRefusedMessage | null {
  try {
    const value = JSON.parse(payload) as Partial<ContentRefusedMessage>;
    return value.type === CONTENT_REFUSED_MESSAGE && typeof value.rule === 'string' ? (value as ContentRefusedMessage) : null;
  } catch {
    return null;
  }
}

/**
 * The stateless message by which the server tells a document's connections that its comment threads
 * changed (server/src/comments): open screens load the threads again. It carries nothing else, so it
 * tells no reader what they may not read.
 */
export const COMMENTS_CHANGED_MESSAGE = 'comments-changed';

export function isCommentsChangedMessage(payload: string): boolean {
  try {
    return (JSON.parse(payload) as { type?: unknown }).type === COMMENTS_CHANGED_MESSAGE;
  } catch {
    return false;
  }
}
