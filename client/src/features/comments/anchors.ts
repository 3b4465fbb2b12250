import type { Editor } from '@tiptap/core';
import { Extension } from '@tiptap/core';
import { isChangeOrigin } from '@tiptap/extension-collaboration';
import { Plugin, PluginKey, type EditorState } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';
import { absolutePositionToRelativePosition, relativePositionToAbsolutePosition, ySyncPluginKey } from '@tiptap/y-tiptap';
import * as Y from 'yjs';
import { COMMENT_LIMITS, type CommentAnchor } from '@eln/shared';
import { blockPosition } from '../editor/blockFocus';

/*
 * Where a comment thread is in the live document, and its highlight. An anchor keeps the range's ends as
 * Yjs relative positions in the note's Y.XmlFragment (made from the editor's selection through y-tiptap's
 * mapping), so that it follows the text as anyone edits it; the highlight is a decoration drawn from them
 * on every change, never a mark in the content (the content, and so the signed record, stays untouched).
 */

/** The sync plugin's view of the document: the Yjs fragment and its mapping to ProseMirror nodes. */
interface SyncState {
  doc: Y.Doc;
  type: Y.XmlFragment;
  binding: { mapping: Parameters<typeof relativePositionToAbsolutePosition>[3] } | null;
}

function syncStateOf(state: EditorState): SyncState | null {
  const sync = ySyncPluginKey.getState(state) as SyncState | undefined;
  return sync?.binding ? sync : null;
}

const toBase64 = (bytes: Uint8Array) => btoa(Array.from(bytes, (byte) => String.fromCharCode(byte)).join(''));
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (char) => char.charCodeAt(0));

/** The uid and position of the top-level block a position is in. */
function blockAt(state: EditorState, pos: number): { uid: string; pos: number } | null {
  const resolved = state.doc.resolve(Math.min(pos, state.doc.content.size));
  if (resolved.depth < 1) {
    const node = state.doc.nodeAt(pos);
    return typeof node?.attrs.blockUid === 'string' ? { uid: node.attrs.blockUid, pos } : null;
  }
  const uid: unknown = resolved.node(1).attrs.blockUid;
  return typeof uid === 'string' && uid ? { uid, pos: resolved.before(1) } : null;
}

/** The quote kept with an anchor: the text, cut with an ellipsis. */
function quoteOf(text: string): string {
  const chars = Array.from(text.replace(/\s+/g, ' ').trim());
  return chars.length <= COMMENT_LIMITS.quote ? chars.join('') : `${chars.slice(0, COMMENT_LIMITS.quote - 1).join('')}…`;
}

/**
 * The anchor of the editor's selection: its range as relative positions, its first block and the selected
 * text; with nothing selected, the whole block the caret is in. Null when the editor is not bound yet or
 * the selection is in no block.
 */
export function selectionAnchor(editor: Editor): CommentAnchor | null {
  const { state } = editor;
  const sync = syncStateOf(state);
  const { from, to, empty } = state.selection;
  const block = blockAt(state, from);
  if (!sync?.binding || !block) return null;
  if (empty) return { blockUid: block.uid, start: null, end: null, quote: quoteOf(state.doc.nodeAt(block.pos)?.textContent ?? '') };
  const encode = (pos: number) =>
    toBase64(Y.encodeRelativePosition(absolutePositionToRelativePosition(pos, sync.type, sync.binding!.mapping) as Y.RelativePosition));
  return { blockUid: block.uid, start: encode(from), end: encode(to), quote: quoteOf(state.doc.textBetween(from, to, ' ', ' ')) };
}

/** Where an anchor is in the editor now: its range, or its whole block; null when its text (or block) is gone. */
export function anchorRange(state: EditorState, anchor: CommentAnchor): { from: number; to: number } | null {
  const pos = blockPosition(state.doc, anchor.blockUid);
  if (anchor.start === null || anchor.end === null) {
    const node = pos === null ? null : state.doc.nodeAt(pos);
    return pos === null || !node ? null : { from: pos, to: pos + node.nodeSize };
  }
  const sync = syncStateOf(state);
  if (!sync?.binding) return null;
  try {
    const resolve = (encoded: string) =>
      relativePositionToAbsolutePosition(sync.doc, sync.type, Y.decodeRelativePosition(fromBase64(encoded)), sync.binding!.mapping);
    const from = resolve(anchor.start);
    const to = resolve(anchor.end);
    return from === null || to === null || from >= to ? null : { from, to };
  } catch {
    return null;
  }
}

/** What the highlight draws: each open thread's anchor, and which one is active. */
export interface HighlightState {
  anchors: ReadonlyArray<{ commentId: number; anchor: CommentAnchor }>;
  active: number | null;
}

const commentHighlightKey = new PluginKey<HighlightPluginState>('commentHighlight');

function decorationsOf(state: EditorState, shown: HighlightState): DecorationSet {
  if (!shown.anchors.length) return DecorationSet.empty;
  const decorations: Decoration[] = [];
  for (const { commentId, anchor } of shown.anchors) {
    const range = anchorRange(state, anchor);
    if (!range) continue;
    const attrs = {
      class: commentId === shown.active ? 'comment-anchor is-active' : 'comment-anchor',
      'data-comment': String(commentId),
    };
    decorations.push(anchor.start === null ? Decoration.node(range.from, range.to, attrs) : Decoration.inline(range.from, range.to, attrs));
  }
  return DecorationSet.create(state.doc, decorations);
}

interface HighlightPluginState {
  shown: HighlightState;
  decorations: DecorationSet;
}

/**
 * The threads' highlight: a decoration over each open thread's text (or block). It is drawn from the
 * relative positions when the threads change and when a change arrives through Yjs (someone else's edit:
 * the binding's mapping is up to date then); this editor's own edits move it along with the text they
 * change (the mapping learns of them only after). A click on one calls `onActivate` with its thread.
 */
export function commentHighlights(onActivate: (commentId: number) => void) {
  return Extension.create({
    name: 'commentHighlights',
    addProseMirrorPlugins() {
      return [
        new Plugin<HighlightPluginState>({
          key: commentHighlightKey,
          state: {
            init: () => ({ shown: { anchors: [], active: null }, decorations: DecorationSet.empty }),
            apply: (tr, value, _old, state) => {
              const shown = tr.getMeta(commentHighlightKey) as HighlightState | undefined;
              if (shown) return { shown, decorations: decorationsOf(state, shown) };
              if (!tr.docChanged) return value;
              if (isChangeOrigin(tr)) return { shown: value.shown, decorations: decorationsOf(state, value.shown) };
              return { shown: value.shown, decorations: value.decorations.map(tr.mapping, tr.doc) };
            },
          },
          props: {
            decorations: (state) => commentHighlightKey.getState(state)?.decorations ?? DecorationSet.empty,
            handleClick(view, _pos, event) {
              const target = event.target instanceof Element ? event.target.closest('[data-comment]') : null;
              const id = Number(target?.getAttribute('data-comment'));
              if (!id || !target || !view.dom.contains(target)) return false;
              onActivate(id);
              return false;
            },
          },
        }),
      ];
    },
  });
}

/** Shows these threads' anchors (the active one marked) in the editor. */
export function showHighlights(editor: Editor, shown: HighlightState): void {
  if (editor.isDestroyed) return;
  editor.view.dispatch(editor.state.tr.setMeta(commentHighlightKey, shown).setMeta('addToHistory', false));
}
