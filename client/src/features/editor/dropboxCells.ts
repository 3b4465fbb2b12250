import { Extension, type Editor } from '@tiptap/core';
import type { Node as PmNode } from '@tiptap/pm/model';
import { Plugin, PluginKey, TextSelection, type EditorState } from '@tiptap/pm/state';
import { Decoration, DecorationSet, type EditorView } from '@tiptap/pm/view';
import { cellDropboxOf, type CellDropbox } from '@eln/shared';
import i18n from '../../i18n';

/** The DOM event a dropbox cell's value sends to ask the toolbar for the dropbox dialog. */
const CHOOSE_EVENT = 'eln:dropbox-choose';

/** Runs `open` whenever a dropbox cell's value is clicked in this editor; returns the unsubscribe. */
export function onDropboxChoose(editor: Editor, open: () => void): () => void {
  const dom = editor.view.dom;
  dom.addEventListener(CHOOSE_EVENT, open);
  return () => dom.removeEventListener(CHOOSE_EVENT, open);
}

/** What a dropbox cell shows before its text: the chosen name, or which list to choose from. */
export function chipOf(dropbox: CellDropbox): { text: string; title: string; chosen: boolean } {
  const t = i18n.getFixedT(null, 'editor');
  const { title } = dropbox;
  if (dropbox.code !== null && dropbox.name !== null)
    return { text: dropbox.name, title: t('dropbox.chipChosen', { title, code: dropbox.code }), chosen: true };
  return {
    text: dropbox.dropboxNo === null ? title : t('dropbox.chipChoose', { title }),
    title: t('dropbox.chipTitle', { title }),
    chosen: false,
  };
}

function chip(dropbox: CellDropbox, cellPos: number) {
  return (view: EditorView) => {
    const { text, title, chosen } = chipOf(dropbox);
    const element = document.createElement('span');
    element.className = chosen ? 'cell-dropbox-value' : 'cell-dropbox-value cell-dropbox-empty';
    element.contentEditable = 'false';
    element.title = title;
    element.dataset.testid = 'cell-dropbox-value';
    element.textContent = text;
    // A pointer's way to the dialog; keyboards reach it through the table toolbar's Dropbox button.
    element.addEventListener('mousedown', (event) => {
      if (!view.editable) return;
      event.preventDefault();
      const inside = TextSelection.near(view.state.doc.resolve(cellPos + 1));
      view.dispatch(view.state.tr.setSelection(inside));
      view.focus();
      view.dom.dispatchEvent(new CustomEvent(CHOOSE_EVENT));
    });
    return element;
  };
}

function decorationsOf(doc: PmNode): DecorationSet {
  const decorations: Decoration[] = [];
  doc.descendants((node, pos) => {
    if (node.type.name !== 'tableCell') return node.type.name === 'table' || node.type.name === 'tableRow';
    const dropbox = cellDropboxOf(node.attrs.dropbox);
    if (dropbox) {
      const { text } = chipOf(dropbox);
      decorations.push(Decoration.node(pos, pos + node.nodeSize, { class: 'cell-dropbox' }));
      // The key names what the chip shows, so a changed choice draws a new chip.
      decorations.push(
        Decoration.widget(pos + 1, chip(dropbox, pos), {
          side: -1,
          key: `dropbox:${dropbox.dropboxNo}:${dropbox.code}:${text}`,
          ignoreSelection: true,
        }),
      );
    }
    return false;
  });
  return DecorationSet.create(doc, decorations);
}

const key = new PluginKey<DecorationSet>('dropboxCells');

/** The dropbox cells' decorations of an editor state (a node class and a chip per cell). */
export const dropboxCellDecorations = (state: EditorState) => key.getState(state);

/** Shows each dropbox cell's chosen value (or its list) at the cell's start, in editors and read-only views. */
export const DropboxCells = Extension.create({
  name: 'dropboxCells',
  addProseMirrorPlugins() {
    return [
      new Plugin<DecorationSet>({
        key,
        state: {
          init: (_, state) => decorationsOf(state.doc),
          apply: (tr, previous, _old, state) => (tr.docChanged ? decorationsOf(state.doc) : previous),
        },
        props: { decorations: (state) => key.getState(state) },
      }),
    ];
  },
});
