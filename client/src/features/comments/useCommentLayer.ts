import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Editor } from '@tiptap/core';
import type { HocuspocusProvider } from '@hocuspocus/provider';
import { api, isCommentsChangedMessage, type CommentAnchor, type CommentListAnswer, type CommentThread } from '@eln/shared';
import { apiQueryKey, queryClient, useApiQuery, type Loaded } from '../../api/queries';
import { showFoundBlock } from '../editor/blockFocus';
import { commentHighlights, selectionAnchor, showHighlights } from './anchors';
import type { MentionPlace } from './mentions';

/** The keys that comment on the selection: Mod-Alt-M, as in the common word processors. */
export const COMMENT_SHORTCUT = {
  key: 'm',
  label: typeof navigator !== 'undefined' && /Mac/.test(navigator.platform) ? '⌘⌥M' : 'Ctrl+Alt+M',
};

export type Show = 'open' | 'resolved';

/** What the note screen and its comment panel share: the threads, the editor they are drawn in, and the panel's state. */
export interface CommentLayer {
  place: MentionPlace;
  threads: Loaded<CommentListAnswer>;
  /** The Tiptap extension drawing the threads' highlights (given to the live editor once). */
  extension: ReturnType<typeof commentHighlights>;
  setEditor(editor: Editor | null): void;
  open: boolean;
  setOpen(open: boolean): void;
  show: Show;
  setShow(show: Show): void;
  active: number | null;
  setActive(commentId: number | null): void;
  /** The anchor of a thread being written, from the selection when it was asked for. */
  pending: CommentAnchor | null;
  cancelPending(): void;
  /** Opens the panel to comment on the editor's selection (the button and Mod-Alt-M). */
  commentOnSelection(): void;
  /** Scrolls the note to a thread's block and highlights it. */
  jumpTo(thread: CommentThread): void;
  /** Loads the threads again (after this person's own change). */
  reload(): Promise<void>;
}

/**
 * The comments of one open note (or template draft): the threads (loaded again whenever the server tells
 * the document's connections that they changed: no polling), their highlights in the editor, the
 * selection to comment on, and `focusComment` (a notification's `?comment=`) opened in the panel.
 */
export function useCommentLayer(place: MentionPlace, provider: HocuspocusProvider, focusComment: number | null = null): CommentLayer {
  const placeKey = JSON.stringify(place);
  const stablePlace = useMemo(() => JSON.parse(placeKey) as MentionPlace, [placeKey]);
  const threads = useApiQuery(api.comments.list, stablePlace, { keepPrevious: false });
  const [editor, setEditor] = useState<Editor | null>(null);
  const [open, setOpen] = useState(focusComment !== null);
  const [show, setShow] = useState<Show>('open');
  const [active, setActive] = useState<number | null>(null);
  const [pending, setPending] = useState<CommentAnchor | null>(null);
  const activate = useRef<(commentId: number) => void>(() => undefined);
  activate.current = (commentId) => {
    setOpen(true);
    setActive(commentId);
  };
  // One extension per layer: the editor takes its extensions once.
  const extension = useMemo(() => commentHighlights((commentId) => activate.current(commentId)), []);

  const reload = useCallback(() => queryClient.invalidateQueries({ queryKey: apiQueryKey(api.comments.list, stablePlace) }), [stablePlace]);

  useEffect(() => {
    const onStateless = ({ payload }: { payload: string }) => {
      if (isCommentsChangedMessage(payload)) void reload();
    };
    provider.on('stateless', onStateless);
    return () => {
      provider.off('stateless', onStateless);
    };
  }, [provider, reload]);

  // The open threads are highlighted in the text (and a resolved one while it is the active one).
  const list = threads.data?.threads;
  useEffect(() => {
    if (!editor || editor.isDestroyed) return;
    const anchors = (list ?? [])
      .filter((thread) => !thread.onDeletedText && (thread.resolved === null || thread.commentId === active))
      .map(({ commentId, anchor }) => ({ commentId, anchor }));
    try {
      showHighlights(editor, { anchors, active });
    } catch {
      /* not mounted yet: the next change draws them */
    }
  }, [editor, list, active]);

  // A notification's comment: its thread, opened in the panel (a reply's number names its thread).
  const focused = useRef<number | null>(null);
  useEffect(() => {
    if (focusComment === null || focused.current === focusComment || !list) return;
    const thread = list.find((t) => t.commentId === focusComment || t.replies.some((r) => r.commentId === focusComment));
    if (!thread) return;
    focused.current = focusComment;
    setOpen(true);
    setShow(thread.resolved ? 'resolved' : 'open');
    setActive(thread.commentId);
  }, [focusComment, list]);

  const jumpTo = useCallback(
    (thread: CommentThread) => {
      setActive(thread.commentId);
      if (editor && !editor.isDestroyed) showFoundBlock(editor, thread.anchor.blockUid);
    },
    [editor],
  );

  const commentOnSelection = useCallback(() => {
    setOpen(true);
    setShow('open');
    if (!editor || editor.isDestroyed || threads.data?.abilities.comment === false) return;
    setPending(selectionAnchor(editor));
  }, [editor, threads.data?.abilities.comment]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!(event.metaKey || event.ctrlKey) || !event.altKey || event.code !== 'KeyM') return;
      event.preventDefault();
      commentOnSelection();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [commentOnSelection]);

  return {
    place: stablePlace,
    threads,
    extension,
    setEditor,
    open,
    setOpen,
    show,
    setShow,
    active,
    setActive,
    pending,
    cancelPending: () => setPending(null),
    commentOnSelection,
    jumpTo,
    reload,
  };
}
