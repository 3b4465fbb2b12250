import { Extension, type Editor } from '@tiptap/core';
import { Plugin, TextSelection } from '@tiptap/pm/state';
import { findTable, goToNextCell, isInTable } from '@tiptap/pm/tables';
import { tabStopBeside } from '../../lib/focusables';

/** The shortcut from the text to its toolbar (as in other editors); Escape in the toolbar comes back. */
export const TOOLBAR_SHORTCUT = 'Alt+F10';

/**
 * Moves focus to the editor's toolbar, without touching the selection (a range of cells stays selected
 * for merging or charting): to the table's row of the toolbar when the caret is in a table.
 */
export function focusToolbar(editor: Editor): boolean {
  const frame = editor.view.dom.closest('[data-testid="editor"]');
  const row =
    (isInTable(editor.state) && frame?.querySelector('[data-testid="table-toolbar"]')) ||
    frame?.querySelector('[data-testid="editor-toolbar"]');
  const first = row?.querySelector<HTMLElement>('button:not([disabled]), select:not([disabled])');
  first?.focus();
  return Boolean(first);
}

/** Keys that only modify the next one: between Escape and Tab they keep the way out open. */
const MODIFIERS = new Set(['Shift', 'Control', 'Alt', 'Meta']);

/**
 * Escape, then Tab (or Shift+Tab), leaves the text for the next (or previous) control, wherever the caret
 * is: in a table or a list Tab itself moves between cells and levels, so it cannot be the way out (the
 * convention of code editors, which keep Tab for indenting). Any other key closes the way again.
 */
function escapeThenTab(): Plugin {
  let leaving = false;
  return new Plugin({
    props: {
      // DOM handlers run before every keymap, the table's and the list's Tab among them.
      handleDOMEvents: {
        keydown(view, event) {
          if (event.key === 'Escape' && !event.shiftKey && !event.ctrlKey && !event.altKey && !event.metaKey) {
            leaving = true;
            return false;
          }
          if (MODIFIERS.has(event.key)) return false;
          const leave = leaving && event.key === 'Tab' && !event.ctrlKey && !event.altKey && !event.metaKey;
          leaving = false;
          if (!leave) return false;
          const target = tabStopBeside(view.dom, !event.shiftKey);
          // Nothing after the text on the page: the browser's own Tab (to its address bar) is the way out.
          if (target) {
            event.preventDefault();
            target.focus();
          }
          return true;
        },
        focus() {
          leaving = false;
          return false;
        },
      },
    },
  });
}

/**
 * The editor's keyboard path: Alt+F10 to the toolbar; Escape, then Tab out of the text; Tab in a table's
 * last cell moves the caret past the table instead of adding a row to everyone's note unasked (adding rows
 * is the toolbar's).
 */
export const KeyboardPath = Extension.create({
  name: 'keyboardPath',
  // Before the table extension's own Tab.
  priority: 1000,

  addProseMirrorPlugins() {
    return [escapeThenTab()];
  },

  addKeyboardShortcuts() {
    return {
      'Alt-F10': ({ editor }) => focusToolbar(editor),
      Tab: ({ editor }) => {
        const { state, view } = editor;
        if (!isInTable(state)) return false;
        if (goToNextCell(1)(state, view.dispatch)) return true;
        const table = findTable(state.selection.$from);
        if (!table) return true;
        const after = table.pos + table.node.nodeSize;
        if (after < state.doc.content.size)
          view.dispatch(state.tr.setSelection(TextSelection.near(state.doc.resolve(after), 1)).scrollIntoView());
        return true;
      },
    };
  },
});
