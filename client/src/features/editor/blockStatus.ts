import { Extension } from '@tiptap/core';
import type { Node as PmNode } from '@tiptap/pm/model';
import { Plugin, PluginKey, type EditorState } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';
import type { BlockStatus } from '@eln/shared';

/** Statuses by blockUid; blocks not listed are unchanged since the saved version. */
export type BlockStatuses = ReadonlyMap<string, BlockStatus>;

export const blockStatusKey = new PluginKey<BlockStatuses>('blockStatus');

function decorate(doc: PmNode, statuses: BlockStatuses): DecorationSet {
  if (statuses.size === 0) return DecorationSet.empty;
  const decorations: Decoration[] = [];
  doc.forEach((node, offset) => {
    const uid: unknown = node.attrs.blockUid;
    const status = typeof uid === 'string' ? statuses.get(uid) : undefined;
    if (status === 'ADD' || status === 'EDIT') {
      decorations.push(
        Decoration.node(offset, offset + node.nodeSize, {
          class: `block-status block-status-${status.toLowerCase()}`,
          'data-block-status': status,
        }),
      );
    }
  });
  return DecorationSet.create(doc, decorations);
}

/**
 * Marks blocks that differ from the saved version with a subtle left rule (new and edited). The
 * statuses come from the block converter; `setBlockStatuses` hands them to the editor.
 */
export const BlockStatusMarks = Extension.create({
  name: 'blockStatusMarks',
  addProseMirrorPlugins() {
    return [
      new Plugin<BlockStatuses>({
        key: blockStatusKey,
        state: {
          init: () => new Map(),
          apply: (tr, value) => (tr.getMeta(blockStatusKey) as BlockStatuses | undefined) ?? value,
        },
        props: {
          decorations(state: EditorState) {
            return decorate(state.doc, blockStatusKey.getState(state) ?? new Map());
          },
        },
      }),
    ];
  },
});
