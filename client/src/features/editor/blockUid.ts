import { Extension, type Editor } from '@tiptap/core';
import { isChangeOrigin } from '@tiptap/extension-collaboration';
import type { Node as PmNode } from '@tiptap/pm/model';
import { Plugin, PluginKey, type EditorState, type Transaction } from '@tiptap/pm/state';
import { newBlockUid } from '@eln/shared';

/** The node types that stand at the top of a note and carry a blockUid (every kind of block). */
export const BLOCK_NODE_TYPES = [
  'paragraph',
  'heading',
  'bulletList',
  'orderedList',
  'blockquote',
  'codeBlock',
  'horizontalRule',
  'table',
  'chart',
  'image',
  'fileAttachment',
  'date',
] as const;

/**
 * Which top-level blocks need a new ID: those without one, and every repeat of an ID already used above
 * (a pasted copy of a block, or a split that copied the attribute). The first holder keeps its ID, so
 * the ID of a block stays stable across edits.
 */
export function planBlockUids(uids: ReadonlyArray<unknown>, generate: () => string = newBlockUid): Map<number, string> {
  const seen = new Set<string>();
  const plan = new Map<number, string>();
  uids.forEach((uid, index) => {
    if (typeof uid === 'string' && uid && !seen.has(uid)) {
      seen.add(uid);
      return;
    }
    let next = generate();
    while (seen.has(next)) next = generate();
    seen.add(next);
    plan.set(index, next);
  });
  return plan;
}

/** A transaction giving every top-level block that lacks one (or repeats one) a fresh blockUid, or null. */
export function blockUidTransaction(state: EditorState, generate: () => string = newBlockUid): Transaction | null {
  const children: Array<{ node: PmNode; pos: number }> = [];
  state.doc.forEach((node, offset) => children.push({ node, pos: offset }));
  const carriers = children.filter(({ node }) => Boolean(node.type.spec.attrs && 'blockUid' in node.type.spec.attrs));
  const plan = planBlockUids(
    carriers.map(({ node }) => node.attrs.blockUid),
    generate,
  );
  if (plan.size === 0) return null;
  const tr = state.tr;
  for (const [index, uid] of plan) {
    const carrier = carriers[index];
    if (carrier) tr.setNodeAttribute(carrier.pos, 'blockUid', uid);
  }
  return tr.setMeta('addToHistory', false);
}

export const blockUidPluginKey = new PluginKey('blockUid');

/**
 * A global `blockUid` attribute on every top-level block type. The ID is not copied when a block is
 * split (the new half gets its own), and IDs are assigned only for this client's own edits: remote
 * changes arrive with their IDs already set by the client that made them.
 */
export const BlockUid = Extension.create<{ types: readonly string[]; generate: () => string }>({
  name: 'blockUid',
  addOptions() {
    return { types: BLOCK_NODE_TYPES, generate: () => newBlockUid() };
  },
  addGlobalAttributes() {
    return [
      {
        types: [...this.options.types],
        attributes: {
          blockUid: {
            default: null,
            keepOnSplit: false,
            parseHTML: (element: HTMLElement) => element.getAttribute('data-block-uid'),
            renderHTML: (attributes: Record<string, unknown>) =>
              typeof attributes.blockUid === 'string' && attributes.blockUid ? { 'data-block-uid': attributes.blockUid } : {},
          },
        },
      },
    ];
  },
  addProseMirrorPlugins() {
    const editor: Editor = this.editor;
    const generate = this.options.generate;
    return [
      new Plugin({
        key: blockUidPluginKey,
        appendTransaction: (transactions, _old, state) => {
          if (!editor.isEditable) return null;
          const local = transactions.some((tr) => tr.docChanged && !isChangeOrigin(tr));
          if (!local) return null;
          return blockUidTransaction(state, generate);
        },
      }),
    ];
  },
});
