import type { AuthUser } from '../auth/authUser.js';

/** What a connection may do with a live document. */
export type DocumentAccess = 'write' | 'read';

/**
 * A family of live documents named `<prefix>.<id>` (lab notes `labnote.<no>`, templates
 * `template.<no>`). The feature that owns the family decides who may open a document and whether they
 * may write: the server enforces it, whatever the client does.
 */
export interface DocumentKind {
  prefix: string;
  authorize(user: AuthUser, id: string): Promise<DocumentAccess | null>;
}

export function parseDocumentName(name: string): { prefix: string; id: string } | null {
  const match = /^([a-z]+)\.([A-Za-z0-9_-]{1,64})$/.exec(name);
  return match ? { prefix: match[1] as string, id: match[2] as string } : null;
}
