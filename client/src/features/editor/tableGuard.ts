import { Extension } from '@tiptap/core';
import { isChangeOrigin } from '@tiptap/extension-collaboration';
import type { Node as PmNode } from '@tiptap/pm/model';
import { Plugin, PluginKey } from '@tiptap/pm/state';
import { LIMITS, newContentViolations, type ContentRule, type ContentViolation, type PmNode as PmJson } from '@eln/shared';

/** Why a change was refused: a key of the `refusal` strings (a table too large says which side). */
export type TableViolation = 'maxRows' | 'maxColumns' | Exclude<ContentRule, 'tableSize'> | 'tableSize';

/** The values the `refusal` strings mention. */
export const REFUSAL_PARAMS = { max: LIMITS.tableMaxSide, imageTitle: LIMITS.imageTitle, userName: LIMITS.userName } as const;

/** The refusal key of a shared content rule violation. */
function refusalOf(violation: ContentViolation): TableViolation {
  if (violation.rule !== 'tableSize') return violation.rule;
  if (violation.rows > LIMITS.tableMaxSide) return 'maxRows';
  return violation.columns > LIMITS.tableMaxSide ? 'maxColumns' : 'tableSize';
}

const asDoc = (nodes: PmNode[]): PmJson => ({ type: 'doc', content: nodes.map((node) => node.toJSON() as PmJson) });

/**
 * The top-level blocks a rule check of this change needs: those it changed (unchanged blocks are the
 * same objects), every chart, and the tables charts refer to (a chart's range must stay in its table).
 */
function blocksToCheck(doc: PmNode, changed: Set<PmNode>, chartTables: Set<string>): PmNode[] {
  const blocks: PmNode[] = [];
  doc.forEach((node) => {
    const referred = node.type.name === 'table' && chartTables.has(String(node.attrs.blockUid));
    if (changed.has(node) || node.type.name === 'chart' || referred) blocks.push(node);
  });
  return blocks;
}

/**
 * The first content rule this change breaks that the document did not break already, as the server
 * judges every live update (`newContentViolations`), on the changed blocks only: typing costs little.
 */
export function changedContentViolation(before: PmNode, after: PmNode): TableViolation | null {
  const was = new Set<PmNode>();
  before.forEach((node) => void was.add(node));
  const is = new Set<PmNode>();
  after.forEach((node) => void is.add(node));
  const changed = new Set<PmNode>([...was].filter((node) => !is.has(node)).concat([...is].filter((node) => !was.has(node))));
  if (changed.size === 0) return null;
  const chartTables = new Set<string>();
  for (const doc of [before, after])
    doc.forEach((node) => void (node.type.name === 'chart' && chartTables.add(String(node.attrs.tableUid))));
  const first = newContentViolations(
    asDoc(blocksToCheck(after, changed, chartTables)),
    asDoc(blocksToCheck(before, changed, chartTables)),
  )[0];
  return first ? refusalOf(first) : null;
}

/**
 * Keeps this client's own edits within the content rules whatever the route (Tab in the last cell,
 * paste, drop): a change that would break a rule the server enforces is refused here at once, with the
 * same shared functions. Changes from others are never refused here (that would split the shared
 * document); the server has checked them already.
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
          const violation = changedContentViolation(state.doc, tr.doc);
          if (violation) onRefuse(violation);
          return violation === null;
        },
      }),
    ];
  },
});
