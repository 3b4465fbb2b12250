/** Longest stored file name, extension included. */
export const FILE_NAME_MAX = 200;
/** An extension longer than this is no extension of the accepted types: it stays part of the name. */
const EXTENSION_MAX = 8;

/**
 * What cannot stay in a stored file name: control characters (NUL included), invisible and
 * direction-changing marks that disguise a name, path separators and the characters Windows refuses
 * in names offered for download.
 */
const UNSAFE = /[\p{Cc}\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff/\\:*?"<>|]/gu;

/** Half of a surrogate pair standing alone: not text, and not storable in PostgreSQL. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Keeps at most `max` characters (code points, so no surrogate pair is cut in two). */
const clip = (text: string, max: number) => Array.from(text).slice(0, max).join('');

/**
 * The uploaded file's name as stored and shown: readable, one path segment, at most FILE_NAME_MAX
 * characters with its extension kept; `file.<ext>` when nothing readable is left.
 */
export function cleanFileName(raw: string): string {
  const cleaned = raw.replace(LONE_SURROGATE, '\ufffd').normalize('NFC').replace(UNSAFE, '').replace(/\s+/gu, ' ').trim();
  const dot = cleaned.lastIndexOf('.');
  const hasExtension = dot >= 0 && cleaned.length - dot - 1 <= EXTENSION_MAX;
  const extension = hasExtension ? cleaned.slice(dot).trim() : '';
  const base = (hasExtension ? cleaned.slice(0, dot) : cleaned).replace(/^[.\s]+/u, '').trim();
  return `${clip(base, FILE_NAME_MAX - extension.length).trim() || 'file'}${extension}`;
}
