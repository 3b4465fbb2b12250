import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { EditorContent, ReactNodeViewRenderer, useEditor } from '@tiptap/react';
import { Collaboration } from '@tiptap/extension-collaboration';
import { CollaborationCaret } from '@tiptap/extension-collaboration-caret';
import { Placeholder } from '@tiptap/extensions';
import type { HocuspocusProvider } from '@hocuspocus/provider';
import type * as Y from 'yjs';
import { alert } from '../../modals/store';
import { BlockStatusMarks, blockStatusKey, type BlockStatuses } from './blockStatus';
import { browserExtensions, type NodeViews } from './schema';
import { REFUSAL_PARAMS, type TableViolation } from './tableGuard';
import { Toolbar } from './toolbar/Toolbar';
import { ChartView } from './views/ChartView';
import { DateView } from './views/DateView';
import { FileView } from './views/FileView';
import { ImageView } from './views/ImageView';
import './editor.css';

export interface EditorUser {
  userId: string;
  name: string;
  color: string;
}

export interface LiveEditorProps {
  /** The live document (Hocuspocus provider's Y.Doc); content in the XML fragment `default`. */
  doc: Y.Doc;
  provider: HocuspocusProvider;
  user: EditorUser;
  editable: boolean;
  /** The lab note uploads belong to; null offers no image or file upload. */
  uploadNoteNo: number | null;
  /** ADD and EDIT blocks against the saved version, by blockUid. */
  statuses: BlockStatuses;
}

const VIEWS: NodeViews = {
  chart: (base) => base.extend({ addNodeView: () => ReactNodeViewRenderer(ChartView) }),
  image: (base) => base.extend({ addNodeView: () => ReactNodeViewRenderer(ImageView) }),
  file: (base) => base.extend({ addNodeView: () => ReactNodeViewRenderer(FileView) }),
  date: (base) => base.extend({ addNodeView: () => ReactNodeViewRenderer(DateView) }),
};

/** A remote caret: a thin bar in the writer's colour with their name above it. */
function renderCaret(user: Record<string, unknown>): HTMLElement {
  const color = typeof user.color === 'string' ? user.color : '#4f46e5';
  const caret = document.createElement('span');
  caret.className = 'collab-caret';
  caret.style.borderColor = color;
  caret.setAttribute('data-testid', 'remote-caret');
  const label = document.createElement('span');
  label.className = 'collab-caret-label';
  label.style.backgroundColor = color;
  label.textContent = typeof user.name === 'string' ? user.name : '';
  caret.append(label);
  return caret;
}

/**
 * The live block editor, shared by lab notes and (later) templates: Tiptap bound to the Y.Doc with
 * Collaboration (its own undo and redo) and CollaborationCaret, the note schema, and the toolbar.
 * Editing follows `editable` (the server decides; the client only mirrors it).
 */
export function LiveEditor({ doc, provider, user, editable, uploadNoteNo, statuses }: LiveEditorProps) {
  const { t } = useTranslation('editor');
  const refusing = useRef(false);

  const onTableRefused = (violation: TableViolation) => {
    if (refusing.current) return;
    refusing.current = true;
    void alert(t(`refusal.${violation}`, REFUSAL_PARAMS), { tone: 'error' }).finally(() => {
      refusing.current = false;
    });
  };

  const editor = useEditor(
    {
      extensions: [
        ...browserExtensions(VIEWS, onTableRefused),
        BlockStatusMarks,
        Placeholder.configure({ placeholder: t('content.empty') }),
        Collaboration.configure({ document: doc, field: 'default', provider }),
        CollaborationCaret.configure({
          provider,
          user,
          render: renderCaret,
          selectionRender: (u: Record<string, unknown>) => ({
            nodeName: 'span',
            class: 'collab-selection',
            style: `background-color: ${typeof u.color === 'string' ? u.color : '#4f46e5'}2e`,
          }),
        }),
      ],
      editable,
      editorProps: {
        attributes: { class: 'note-prose', 'aria-label': t('content.label'), spellcheck: 'true' },
      },
    },
    [doc, provider],
  );

  useEffect(() => {
    if (editor && !editor.isDestroyed && editor.isEditable !== editable) editor.setEditable(editable);
  }, [editor, editable]);

  useEffect(() => {
    if (!editor || editor.isDestroyed) return;
    try {
      editor.view.dispatch(editor.state.tr.setMeta(blockStatusKey, statuses).setMeta('addToHistory', false));
    } catch {
      /* not mounted yet: the next change of statuses applies them */
    }
  }, [editor, statuses]);

  return (
    <div className={`live-editor${editable ? '' : ' is-readonly'}`} data-testid="editor">
      {editor && editable ? <Toolbar editor={editor} uploadNoteNo={uploadNoteNo} /> : null}
      <EditorContent editor={editor} className="editor-content" data-testid="editor-content" />
    </div>
  );
}
