import { readFileSync } from 'node:fs';

/** What a heap snapshot holds, by constructor (objects and native objects) or by node type (closures, arrays, strings, code). */
export type HeapSummary = Map<string, { count: number; bytes: number }>;

/**
 * Reads a V8 heap snapshot (v8.writeHeapSnapshot) and sums its nodes' self sizes by constructor. Only
 * the nodes and the strings are read: the edges, most of the file, are not needed for this.
 */
export function summarizeHeapSnapshot(file: string): HeapSummary {
  const text = readFileSync(file, 'utf8');
  const nodesAt = text.indexOf('"nodes":[');
  const { meta } = (JSON.parse(`${text.slice(0, nodesAt).replace(/,\s*$/, '')}}`) as { snapshot: { meta: SnapshotMeta } }).snapshot;
  const stringsAt = text.indexOf('"strings":[');
  const strings = JSON.parse(text.slice(stringsAt + '"strings":'.length, text.lastIndexOf(']') + 1)) as string[];
  const fields = meta.node_fields.length;
  const typeField = meta.node_fields.indexOf('type');
  const nameField = meta.node_fields.indexOf('name');
  const sizeField = meta.node_fields.indexOf('self_size');
  const types = meta.node_types[typeField] as string[];
  const summary: HeapSummary = new Map();
  const node: number[] = [];
  let value = 0;
  let inNumber = false;
  for (let i = nodesAt + '"nodes":['.length; ; i += 1) {
    const code = text.charCodeAt(i);
    if (code >= 48 && code <= 57) {
      value = value * 10 + (code - 48);
      inNumber = true;
      continue;
    }
    if (inNumber) {
      node.push(value);
      value = 0;
      inNumber = false;
      if (node.length === fields) {
        const type = types[node[typeField]!]!;
        const key = type === 'object' || type === 'native' ? strings[node[nameField]!]! : `(${type})`;
        const entry = summary.get(key) ?? { count: 0, bytes: 0 };
        entry.count += 1;
        entry.bytes += node[sizeField]!;
        summary.set(key, entry);
        node.length = 0;
      }
    }
    if (code === 93) break; // ']': the end of the nodes
  }
  return summary;
}

interface SnapshotMeta {
  node_fields: string[];
  node_types: Array<string[] | string>;
}

/** The `top` constructors whose self size grew most from `before` to `after`. */
export function topGrowth(before: HeapSummary, after: HeapSummary, top: number): Array<Record<string, string | number>> {
  return [...after]
    .map(([name, now]) => ({ name, now, was: before.get(name) ?? { count: 0, bytes: 0 } }))
    .sort((a, b) => b.now.bytes - b.was.bytes - (a.now.bytes - a.was.bytes))
    .slice(0, top)
    .map(({ name, now, was }) => ({
      constructor: name.slice(0, 60),
      'count first/last': `${was.count}/${now.count}`,
      'kB first/last': `${Math.round(was.bytes / 1024)}/${Math.round(now.bytes / 1024)}`,
      'growth kB': Math.round((now.bytes - was.bytes) / 1024),
    }));
}
