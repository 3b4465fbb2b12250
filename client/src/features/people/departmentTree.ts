import type { DepartmentRow } from '@eln/shared';

/** A department placed in the tree: its depth and how many departments sit directly below it. */
export interface DepartmentTreeRow extends DepartmentRow {
  depth: number;
  childCount: number;
  /** Active users here and in every department below. */
  totalUsers: number;
}

/**
 * Orders the flat `/department/list` rows as a tree (each parent followed by its children, the rows' own
 * order kept among siblings). Rows whose parent is missing become top-level; a cycle in the data cannot
 * loop forever.
 */
export function flattenDepartments(rows: readonly DepartmentRow[]): DepartmentTreeRow[] {
  const byCode = new Map(rows.map((row) => [row.code, row]));
  const children = new Map<string | null, DepartmentRow[]>();
  for (const row of rows) {
    const parent = row.parentCode && byCode.has(row.parentCode) && row.parentCode !== row.code ? row.parentCode : null;
    const list = children.get(parent) ?? [];
    list.push(row);
    children.set(parent, list);
  }

  const out: DepartmentTreeRow[] = [];
  const placed = new Set<string>();
  const visit = (row: DepartmentRow, depth: number): number => {
    placed.add(row.code);
    const entry: DepartmentTreeRow = { ...row, depth, childCount: 0, totalUsers: row.userCount };
    out.push(entry);
    for (const child of children.get(row.code) ?? []) {
      if (placed.has(child.code)) continue;
      entry.childCount += 1;
      entry.totalUsers += visit(child, depth + 1);
    }
    return entry.totalUsers;
  };
  for (const root of children.get(null) ?? []) visit(root, 0);
  // Rows caught in a cycle have no root above them: show them at the top rather than lose them.
  for (const row of rows) if (!placed.has(row.code)) visit(row, 0);
  return out;
}

/** The codes of a department and everything below it (where it cannot be moved to). */
export function subtreeOf(rows: readonly Pick<DepartmentRow, 'code' | 'parentCode'>[], code: string): Set<string> {
  const out = new Set([code]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const row of rows) {
      if (row.parentCode && out.has(row.parentCode) && !out.has(row.code)) {
        out.add(row.code);
        grew = true;
      }
    }
  }
  return out;
}

/** The path from the top to a department, as names ("Research › Chemistry"). */
export function pathOf(rows: readonly Pick<DepartmentRow, 'code' | 'name' | 'parentCode'>[], code: string | null): string[] {
  const byCode = new Map(rows.map((row) => [row.code, row]));
  const names: string[] = [];
  const seen = new Set<string>();
  let current = code ? byCode.get(code) : undefined;
  while (current && !seen.has(current.code)) {
    seen.add(current.code);
    names.unshift(current.name);
    current = current.parentCode ? byCode.get(current.parentCode) : undefined;
  }
  return names;
}

/** An option label that shows the tree inside a native select (where markup is not allowed). */
export function indentedLabel(name: string, depth: number): string {
  return depth === 0 ? name : `${'\u00A0\u00A0\u00A0'.repeat(depth - 1)}\u00A0└\u00A0${name}`;
}
