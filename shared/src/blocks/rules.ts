import { LIMITS } from '../limits.js';
import { NODE, type PmNode } from './model.js';

export type ContentViolation =
  | { rule: 'tableSize'; blockUid: string | null; rows: number; columns: number }
  | { rule: 'tableInTable'; blockUid: string | null }
  | { rule: 'imageTitle'; blockUid: string | null };

function columnsOf(row: PmNode): number {
  return (row.content ?? []).reduce((n, cell) => n + (typeof cell.attrs?.colspan === 'number' ? cell.attrs.colspan : 1), 0);
}

function containsTable(node: PmNode): boolean {
  return (node.content ?? []).some((child) => child.type === NODE.table || containsTable(child));
}

/** The spec's content rules the server checks before it saves: table sizes, no nested tables, image titles. */
export function contentViolations(doc: PmNode): ContentViolation[] {
  const violations: ContentViolation[] = [];
  for (const node of doc.content ?? []) {
    const blockUid = typeof node.attrs?.blockUid === 'string' ? node.attrs.blockUid : null;
    if (node.type === NODE.table) {
      const rows = node.content?.length ?? 0;
      const columns = Math.max(0, ...(node.content ?? []).map(columnsOf));
      if (rows < 1 || rows > LIMITS.tableMaxSide || columns < 1 || columns > LIMITS.tableMaxSide) violations.push({ rule: 'tableSize', blockUid, rows, columns });
      if (containsTable(node)) violations.push({ rule: 'tableInTable', blockUid });
    }
    if (node.type === NODE.image && String(node.attrs?.title ?? '').length > LIMITS.imageTitle) violations.push({ rule: 'imageTitle', blockUid });
  }
  return violations;
}
