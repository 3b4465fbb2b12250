import { useMemo, type ReactNode } from 'react';
import type { AnyExtension, Editor } from '@tiptap/core';
import type { HocuspocusProvider } from '@hocuspocus/provider';
import { CommentPanel } from './CommentPanel';
import { CommentsButton } from './CommentsButton';
import type { MentionPlace } from './mentions';
import { useCommentLayer } from './useCommentLayer';

/**
 * A live document with its comment threads, for screens whose header has no place for the toggle (the
 * template editor): the toggle above the document, the panel beside it. `children` renders the live
 * editor with the extensions and editor callback it is given.
 */
export function CommentedDocument({
  place,
  provider,
  focusComment = null,
  children,
}: {
  place: MentionPlace;
  provider: HocuspocusProvider;
  focusComment?: number | null;
  children(editorProps: { extensions: readonly AnyExtension[]; onEditor(editor: Editor | null): void }): ReactNode;
}) {
  const layer = useCommentLayer(place, provider, focusComment);
  const extensions = useMemo(() => [layer.extension], [layer.extension]);
  return (
    <>
      <div className="comments-bar">
        <CommentsButton layer={layer} />
      </div>
      <div className={`comments-layout${layer.open ? ' is-open' : ''}`}>
        <div>{children({ extensions, onEditor: layer.setEditor })}</div>
        {layer.open ? <CommentPanel layer={layer} /> : null}
      </div>
    </>
  );
}
