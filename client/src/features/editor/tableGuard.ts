import { Extension } from '@tiptap/core';
import { isChangeOrigin } from '@tiptap/extension-collaboration';
import type { Node as PmNode } from '@tiptap/pm/model';
import { Plugin, PluginKey } from '@tiptap/pm/state';
import { TableMap } from '@tiptap/pm/tables';
import { LIMITS } from '@eln/shared';

export type TableViolation = 'tableInTable' | 'maxRows' | 'maxColumns';

/** What is wrong with a table node, if anything: a table inside it, or more than 30 rows or columns. */
export function tableViolation(table: PmNode): TableViolation | null {
  let nested = false;
  table.descendants((node) => {
    if (nested) return false;
    if (node.type.name === 'table') nested = true;
    return !nested;
  });
  if (nested) return 'tableInTable';
  const map = TableMap.get(table);
  if (map.height > LIMITS.tableMaxSide) return 'maxRows';
  if (map.width > LIMITS.tableMaxSide) return 'maxColumns';
  return null;
}

/** The first violation among the tables a change touched (unchanged tables are the same objects). */
export function changedTablesViolation(before: PmNode, after: PmNode): TableViolation | null {
  const unchanged = new Set<PmNode>();
  before.descendants((node) => {
    if (node.type.name === 'table') unchanged.add(node);
    return node.type.name !== 'table';
  });
  let found: TableViolation | null = null;
  after.descendants((node) => {
    if (found) return false;
    if (node.type.name !== 'table') return true;
    if (!unchanged.has(node)) found = tableViolation(node);
    return false;
  });
  return found;
}

/**
 * Keeps this client's own edits within the table rules whatever the route (Tab in the last cell, paste,
 * drop): a change that would put a table inside a table or grow one past 30 rows or columns is refused.
 * Changes from others are never refused here (that would split the shared document); the server checks
 * the rules again on save.
 */
export const TableGuard = Extension.create<{ onRefuse: (violation: TableViolation) => void }>({
  name: 'tableGuard',
  addOptions() {
    return { onRefuse: () => undefined };
  },
  addProseMirrorPlugins() {
    const onRefuse = this.options.onRefuse;
    return [
      new Plugin({
        key: new PluginKey('tableGuard'),
        filterTransaction: (tr, state) => {
          if (!tr.docChanged || isChangeOrigin(tr)) return true;
          const violation = changedTablesViolation(state.doc, tr.doc);
          if (violation) onRefuse(violation);
          return violation === null;
        },
      }),
    ];
  },
});
