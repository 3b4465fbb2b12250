import { Extension, type Editor } from '@tiptap/core';
import type { Node as PmNode } from '@tiptap/pm/model';
import { Plugin, PluginKey } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';

/** The blockUid of the block a search opened the note at, highlighted a while; null when none is. */
export const blockFocusKey = new PluginKey<string | null>('blockFocus');

/** How long the found block stays highlighted. */
export const BLOCK_FOCUS_MS = 8000;

/** The position of the top-level block with this blockUid, or null. */
export function blockPosition(doc: PmNode, uid: string): number | null {
  let found: number | null = null;
  doc.forEach((node, offset) => {
    if (found === null && node.attrs.blockUid === uid) found = offset;
  });
  return found;
}

/**
 * Highlights one block by its blockUid with a decoration (ProseMirror redraws its own DOM, so a class set
 * by hand would not last): `.block-found`, styled in editor.css for both themes.
 */
export const BlockFocus = Extension.create({
  name: 'blockFocus',
  addProseMirrorPlugins() {
    return [
      new Plugin<string | null>({
        key: blockFocusKey,
        state: {
          init: () => null,
          apply: (tr, value) => {
            const meta = tr.getMeta(blockFocusKey) as string | null | undefined;
            return meta === undefined ? value : meta;
          },
        },
        props: {
          decorations(state) {
            const uid = blockFocusKey.getState(state);
            const pos = uid ? blockPosition(state.doc, uid) : null;
            const node = pos === null ? null : state.doc.nodeAt(pos);
            if (pos === null || !node) return DecorationSet.empty;
            return DecorationSet.create(state.doc, [
              Decoration.node(pos, pos + node.nodeSize, { class: 'block-found', 'data-block-found': 'yes' }),
            ]);
          },
        },
      }),
    ];
  },
});

/** Sets (or, with null, clears) the highlighted block. */
export function setFoundBlock(editor: Editor, uid: string | null): void {
  editor.view.dispatch(editor.state.tr.setMeta(blockFocusKey, uid).setMeta('addToHistory', false));
}

/** Highlights the block and scrolls it to the middle of the window; false when the note has no such block. */
export function showFoundBlock(editor: Editor, uid: string): boolean {
  const pos = blockPosition(editor.state.doc, uid);
  if (pos === null) return false;
  setFoundBlock(editor, uid);
  const dom = editor.view.nodeDOM(pos);
  if (dom instanceof HTMLElement) {
    const smooth = !window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    dom.scrollIntoView({ block: 'center', behavior: smooth ? 'smooth' : 'auto' });
  }
  return true;
}
