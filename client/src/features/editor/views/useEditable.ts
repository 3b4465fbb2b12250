import { useSyncExternalStore } from 'react';
import type { Editor } from '@tiptap/core';

/**
 * Whether the editor takes edits now, re-read when it changes: a node view rendered while a note was
 * writable must drop its edit controls the moment the note is signed (setEditable emits 'update').
 */
export function useEditable(editor: Editor): boolean {
  return useSyncExternalStore(
    (notify) => {
      editor.on('update', notify);
      return () => {
        editor.off('update', notify);
      };
    },
    () => editor.isEditable,
  );
}
