/**
 * Before/after comparison for the audit detail: which values changed, and both values as pretty JSON lines
 * with the changed ones marked. Objects are compared key by key (recursively); arrays and other values are
 * compared whole, since matching array items by position would claim changes that did not happen when an
 * item is inserted.
 */

export type Change = 'added' | 'removed' | 'changed';

/** A JSON pointer (RFC 6901) to a value; '' is the whole value. */
export type JsonPath = string;

export type TokenKind = 'string' | 'number' | 'boolean' | 'null' | 'punct';

export interface JsonLine {
  depth: number;
  /** The member name (JSON-quoted) when the line starts a member of an object. */
  key: string | null;
  /** The value text or bracket on this line, without the trailing comma. */
  text: string;
  kind: TokenKind;
  comma: boolean;
  path: JsonPath;
  /** Set when this line belongs to a value that differs on the other side. */
  change: Change | null;
}

type JsonObject = Record<string, unknown>;

export function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function escapeSegment(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

function unescapeSegment(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

export function childPath(path: JsonPath, key: string | number): JsonPath {
  return `${path}/${escapeSegment(String(key))}`;
}

/** A path for people: `/auth/project` → `auth.project`, the whole value → `(value)`. */
export function pathLabel(path: JsonPath): string {
  if (path === '') return '(value)';
  return path.slice(1).split('/').map(unescapeSegment).join('.');
}

/** Deep equality of JSON values (object member order does not matter). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, index) => jsonEqual(item, b[index]));
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    return keys.every((key) => Object.prototype.hasOwnProperty.call(b, key) && jsonEqual(a[key], b[key]));
  }
  return false;
}

/**
 * The changed paths between two values: members only in `after` are added, only in `before` removed, and
 * any other differing value changed (at the deepest object member where they differ).
 */
export function diffPaths(
  before: unknown,
  after: unknown,
  path: JsonPath = '',
  out: Map<JsonPath, Change> = new Map(),
): Map<JsonPath, Change> {
  if (isPlainObject(before) && isPlainObject(after)) {
    const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
    for (const key of keys) {
      const inBefore = Object.prototype.hasOwnProperty.call(before, key);
      const inAfter = Object.prototype.hasOwnProperty.call(after, key);
      const at = childPath(path, key);
      if (!inAfter) out.set(at, 'removed');
      else if (!inBefore) out.set(at, 'added');
      else diffPaths(before[key], after[key], at, out);
    }
    return out;
  }
  if (!jsonEqual(before, after)) out.set(path, 'changed');
  return out;
}

export interface RecordComparison {
  /** Whether each side holds a value at all (a create has no before, a delete no after). */
  hasBefore: boolean;
  hasAfter: boolean;
  changes: Map<JsonPath, Change>;
  before: JsonLine[];
  after: JsonLine[];
}

const isAbsent = (value: unknown) => value === null || value === undefined;

/**
 * Everything the detail's before/after panes need. When one side is empty there is nothing to compare
 * against, so nothing is marked: the empty side says so instead.
 */
export function compareValues(before: unknown, after: unknown): RecordComparison {
  const hasBefore = !isAbsent(before);
  const hasAfter = !isAbsent(after);
  const changes = hasBefore && hasAfter ? diffPaths(before, after) : new Map<JsonPath, Change>();
  return {
    hasBefore,
    hasAfter,
    changes,
    before: hasBefore ? jsonLines(before, changes, 'before') : [],
    after: hasAfter ? jsonLines(after, changes, 'after') : [],
  };
}

function kindOf(value: unknown): TokenKind {
  if (value === null) return 'null';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'number') return 'number';
  if (typeof value === 'boolean') return 'boolean';
  return 'null';
}

/**
 * The value as pretty JSON (two-space indent, as JSON.stringify(value, null, 2) writes it), one entry per
 * line. Lines of a value that is changed on this side are marked: the before side shows what was removed
 * or changed, the after side what was added or changed. Every line inside a marked value is marked too.
 */
export function jsonLines(value: unknown, changes: ReadonlyMap<JsonPath, Change>, side: 'before' | 'after'): JsonLine[] {
  const lines: JsonLine[] = [];
  const shows = (change: Change | undefined): Change | null => {
    if (!change) return null;
    if (change === 'changed') return change;
    return (side === 'before') === (change === 'removed') ? change : null;
  };

  const walk = (node: unknown, path: JsonPath, depth: number, key: string | null, comma: boolean, inherited: Change | null) => {
    const change = inherited ?? shows(changes.get(path));
    const line = (text: string, kind: TokenKind, lineKey: string | null, lineComma: boolean, at = depth) =>
      lines.push({ depth: at, key: lineKey, text, kind, comma: lineComma, path, change });
    if (Array.isArray(node)) {
      if (node.length === 0) return line('[]', 'punct', key, comma);
      line('[', 'punct', key, false);
      node.forEach((item, index) => walk(item, childPath(path, index), depth + 1, null, index < node.length - 1, change));
      return line(']', 'punct', null, comma);
    }
    if (isPlainObject(node)) {
      const keys = Object.keys(node);
      if (keys.length === 0) return line('{}', 'punct', key, comma);
      line('{', 'punct', key, false);
      keys.forEach((member, index) =>
        walk(node[member], childPath(path, member), depth + 1, JSON.stringify(member), index < keys.length - 1, change),
      );
      return line('}', 'punct', null, comma);
    }
    // JSON has no undefined, functions or symbols; anything odd shows as null, as JSON.stringify would.
    const text = node === undefined || typeof node === 'function' || typeof node === 'symbol' ? 'null' : (JSON.stringify(node) ?? 'null');
    return line(text, kindOf(node), key, comma);
  };

  walk(value, '', 0, null, false, null);
  return lines;
}

/** A line as plain text (what copying the pane gives). */
export function lineText(line: JsonLine): string {
  return `${'  '.repeat(line.depth)}${line.key !== null ? `${line.key}: ` : ''}${line.text}${line.comma ? ',' : ''}`;
}
