import { useCallback, useId, useRef, useState, useSyncExternalStore } from 'react';
import { createPortal } from 'react-dom';
import type { Editor } from '@tiptap/core';
import type { MentionCandidatesAnswer, MentionPerson } from '@eln/shared';
import { MentionList } from './MentionList';
import { closeMentionSuggestion, insertMention, type MentionQueryStore } from './mentionSuggestion';
import { useMentionPick } from './useMentionPick';
import './mentions.css';

/** The list's room below the caret; with less below it, it opens above. */
const LIST_HEIGHT = 320;

/**
 * The `@` suggestions of a note's editor: the list under the caret while `@` is being typed, and what a
 * pick does (useMentionPick): insert the mention, add the person first (the leader, confirmed), or say
 * why not (`onRefuse`) and insert nothing.
 */
export function MentionSuggestions({
  editor,
  store,
  labNoteNo,
  onRefuse,
}: {
  editor: Editor;
  store: MentionQueryStore;
  labNoteNo: number;
  onRefuse(message: string): void;
}) {
  const typed = useSyncExternalStore(store.subscribe, store.get);
  const [busy, setBusy] = useState(false);
  const keys = useRef<((event: KeyboardEvent) => boolean) | null>(null);
  const id = useId();
  const pick = useMentionPick(onRefuse);
  store.keyHandler = (event) => keys.current?.(event) ?? false;
  // The caret stays in the text: the text field points screen readers at the list and its chosen person.
  const pointAt = useCallback(
    (optionId: string | null) => {
      if (editor.isDestroyed) return;
      const field = editor.view.dom;
      if (optionId) {
        field.setAttribute('aria-controls', id);
        field.setAttribute('aria-activedescendant', optionId);
      } else {
        field.removeAttribute('aria-controls');
        field.removeAttribute('aria-activedescendant');
      }
    },
    [editor, id],
  );

  async function picked(person: MentionPerson, shown: MentionCandidatesAnswer) {
    const at = store.get();
    if (!at || busy) return;
    setBusy(true);
    try {
      if ((await pick(person, shown)) === 'mention' && !editor.isDestroyed && editor.isEditable)
        insertMention(editor, at, { userId: person.userId, label: person.name });
      else {
        closeMentionSuggestion(editor);
        if (!editor.isDestroyed) editor.commands.focus();
      }
    } finally {
      setBusy(false);
    }
  }

  if (!typed || busy) return null;
  const rect = typed.rect;
  const below = !rect || rect.bottom + LIST_HEIGHT < window.innerHeight;
  const style = rect
    ? {
        left: Math.max(8, Math.min(rect.left, window.innerWidth - 336)),
        ...(below ? { top: rect.bottom + 4 } : { bottom: window.innerHeight - rect.top + 4 }),
      }
    : undefined;
  return createPortal(
    <div className="mention-layer" style={style}>
      <MentionList
        labNoteNo={labNoteNo}
        query={typed.query}
        keys={keys}
        id={id}
        onActive={pointAt}
        onPick={(person, shown) => void picked(person, shown)}
      />
    </div>,
    document.body,
  );
}
