import { Extension } from '@tiptap/core';
import { newBlockUid } from '../blocks/ids.js';
import { BLOCK_NODE_TYPES } from './blockNodes.js';
import type { AttributeSource } from './nodes.js';

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

/**
 * A global `blockUid` attribute on every block node type. The ID is not copied when a block is split
 * (the new half gets its own). The browser extends this with the plugin that assigns IDs.
 */
export const BlockUidAttribute = Extension.create<{ types: readonly string[] }>({
  name: 'blockUid',
  addOptions() {
    return { types: BLOCK_NODE_TYPES };
  },
  addGlobalAttributes() {
    return [
      {
        types: [...this.options.types],
        attributes: {
          blockUid: {
            default: null,
            keepOnSplit: false,
            parseHTML: (element: AttributeSource) => element.getAttribute('data-block-uid'),
            renderHTML: (attributes: Record<string, unknown>) =>
              typeof attributes.blockUid === 'string' && attributes.blockUid ? { 'data-block-uid': attributes.blockUid } : {},
          },
        },
      },
    ];
  },
});
