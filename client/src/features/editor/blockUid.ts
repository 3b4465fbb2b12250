import type { Editor } from '@tiptap/core';
import { isChangeOrigin } from '@tiptap/extension-collaboration';
import type { Node as PmNode } from '@tiptap/pm/model';
import { Plugin, PluginKey, type EditorState, type Transaction } from '@tiptap/pm/state';
import { BLOCK_NODE_TYPES, newBlockUid } from '@eln/shared';
import { BlockUidAttribute, planBlockUids } from '@eln/shared/editor';

/** A transaction giving every top-level block that lacks one (or repeats one) a fresh blockUid, or null. */
export function blockUidTransaction(state: EditorState, generate: () => string = newBlockUid): Transaction | null {
  const children: Array<{ node: PmNode; pos: number }> = [];
  state.doc.forEach((node, offset) => children.push({ node, pos: offset }));
  const carriers = children.filter(({ node }) => Boolean(node.type.spec.attrs && 'blockUid' in node.type.spec.attrs));
  const plan = planBlockUids(
    carriers.map(({ node }): unknown => node.attrs.blockUid),
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
 * The shared blockUid attribute plus the plugin that assigns IDs. IDs are assigned only for this client's
 * own edits: remote changes arrive with their IDs already set by the client that made them.
 */
export const BlockUid = BlockUidAttribute.extend<{ types: readonly string[]; generate: () => string }>({
  addOptions() {
    return { types: BLOCK_NODE_TYPES, generate: () => newBlockUid() };
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
