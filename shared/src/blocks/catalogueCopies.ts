import { canonicalJson } from '../canonical.js';

/**
 * Copies from the lab's catalogues inside a note (a schema block, a dropbox cell's list and chosen row).
 * The server hands each copy out with a seal, an HMAC over exactly what it copied (`sealedText`), and
 * accepts a new or changed copy in a note only with a seal it made (`collab/guard/catalogueSeals.ts`): a copy
 * says what the catalogue said, not what a writer typed into a pasted HTML attribute.
 */
export const isRecordNo = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value > 0;

/** A seal as the server writes it: base64url of an HMAC-SHA256 (43 characters). */
export const isSeal = (value: unknown): value is string => typeof value === 'string' && /^[A-Za-z0-9_-]{43}$/.test(value);

export type CatalogueCopyKind = 'schemaBlock' | 'dropboxCell';

/** The text a copy's seal is made over: its kind and its fields (the seal itself left out), canonical. */
export function sealedText(kind: CatalogueCopyKind, copy: object): string {
  const { seal: _seal, ...fields } = copy as Record<string, unknown>;
  return canonicalJson({ kind, ...fields });
}
