import { Extension, type Editor, type Range } from '@tiptap/core';
import { isChangeOrigin } from '@tiptap/extension-collaboration';
import { PluginKey } from '@tiptap/pm/state';
import { Suggestion, exitSuggestion } from '@tiptap/suggestion';
import { MENTION_NODE, type MentionAttrs } from '@eln/shared';

/** What the editor's `@` is doing: the text typed after it, where it stands, and the rectangle to show the list under. */
export interface MentionQuery {
  query: string;
  range: Range;
  rect: DOMRect | null;
}

/**
 * The bridge between the editor's suggestion plugin and the React list: the plugin writes the query here
 * as the writer types (null when `@` is no longer being typed), the list reads it, and the list lends the
 * plugin its key handler (arrows and Enter go to the list while it shows; Escape closes it).
 */
export interface MentionQueryStore {
  get(): MentionQuery | null;
  subscribe(listener: () => void): () => void;
  set(query: MentionQuery | null): void;
  keyHandler: ((event: KeyboardEvent) => boolean) | null;
}

export function createMentionQueryStore(): MentionQueryStore {
  let current: MentionQuery | null = null;
  const listeners = new Set<() => void>();
  return {
    get: () => current,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    set(query) {
      current = query;
      for (const listener of listeners) listener();
    },
    keyHandler: null,
  };
}

const mentionSuggestionKey = new PluginKey('mentionSuggestion');

/**
 * `@` in the editor: Tiptap's suggestion utility, started by `@` at the start of a word, only in an
 * editable editor and only by this writer's own typing (a collaborator's `@` opens nothing here). The
 * people are found and shown by React (MentionSuggestions); this extension only tells it what is typed.
 */
export const MentionSuggestion = Extension.create<{ store: MentionQueryStore | null }>({
  name: 'mentionSuggestion',
  addOptions() {
    return { store: null };
  },
  addProseMirrorPlugins() {
    const { store } = this.options;
    if (!store) return [];
    const tell = ({ query, range, clientRect }: { query: string; range: Range; clientRect?: (() => DOMRect | null) | null }) =>
      store.set({ query, range, rect: clientRect?.() ?? null });
    return [
      Suggestion({
        editor: this.editor,
        pluginKey: mentionSuggestionKey,
        char: '@',
        allow: ({ editor }) => editor.isEditable,
        shouldShow: ({ transaction }) => !isChangeOrigin(transaction),
        render: () => ({
          onStart: tell,
          onUpdate: tell,
          onExit: () => store.set(null),
          onKeyDown: ({ event }) => (event.key === 'Escape' ? false : (store.keyHandler?.(event) ?? false)),
        }),
      }),
    ];
  },
});

/**
 * Puts the mention of a person where `@` and the query were typed (followed by a space), and ends the
 * suggestion. The range is the one shown when the person was picked; if the text there has changed since
 * (a dialog was open while others wrote), the mention goes where the caret is instead.
 */
export function insertMention(editor: Editor, at: MentionQuery, person: MentionAttrs): void {
  const { doc } = editor.state;
  const typed = at.range.to <= doc.content.size ? doc.textBetween(at.range.from, at.range.to) : '';
  const range = typed === `@${at.query}` ? at.range : editor.state.selection;
  editor
    .chain()
    .focus()
    .insertContentAt({ from: range.from, to: range.to }, [
      { type: MENTION_NODE, attrs: { userId: person.userId, label: person.label } },
      { type: 'text', text: ' ' },
    ])
    .run();
  exitSuggestion(editor.view, mentionSuggestionKey);
}

/** Closes the suggestions without inserting anything (a refusal, or the writer cancelled). */
export function closeMentionSuggestion(editor: Editor): void {
  if (!editor.isDestroyed) exitSuggestion(editor.view, mentionSuggestionKey);
}
