import type { StatusCode } from './errors.js';
import type { FieldError } from './validation.js';

/** Every API answer: a four-character status ("0000" is success), a localised message and the data. */
export interface ApiResponse<T = unknown> {
  status: StatusCode;
  message: string;
  data: T;
}

/** The data of a 400 validation answer. */
export interface ValidationErrorData {
  fields: FieldError[];
}

/** Base path of every call. */
export const API_BASE = '/server';
/** Path of the live-editing websocket. */
export const COLLAB_PATH = '/collab';

/** Why the live-editing server refused or closed a document's connection (the provider's `reason`). */
export const COLLAB_REFUSALS = {
  /** No valid session behind the token: expired, revoked or forged. */
  session: 'session-ended',
  document: 'no-such-document',
  forbidden: 'forbidden',
} as const;
export type CollabRefusalReason = (typeof COLLAB_REFUSALS)[keyof typeof COLLAB_REFUSALS];

/** The Yjs XML fragment that holds a live document's content (Tiptap's default). */
export const CONTENT_FIELD = 'default';

/** The stateless message by which the server ends a connection's write access (hold cleared, note locked). */
export const HOLD_ENDED_MESSAGE = 'hold-ended';

/**
 * The hold-ended reason for an update refused because the document would outgrow
 * COLLAB_LIMITS.documentBytes: the update is not stored and the connection turns read-only.
 */
export const DOCUMENT_TOO_LARGE = 'too-large';
