import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getSchema, type AnyExtension, type Editor, type JSONContent } from '@tiptap/core';
import { EditorContent, useEditor } from '@tiptap/react';
import { yXmlFragmentToProseMirrorRootNode } from '@tiptap/y-tiptap';
import { Collaboration } from '@tiptap/extension-collaboration';
import { CollaborationCaret } from '@tiptap/extension-collaboration-caret';
import { Placeholder } from '@tiptap/extensions';
import type { HocuspocusProvider } from '@hocuspocus/provider';
import type * as Y from 'yjs';
import { BLOCK_FOCUS_MS, BlockFocus, setFoundBlock, showFoundBlock } from './blockFocus';
import { BlockStatusMarks, blockStatusKey, type BlockStatuses } from './blockStatus';
import { KeyboardPath, TOOLBAR_SHORTCUT } from './keyboardPath';
import { browserExtensions } from './schema';
import { REFUSAL_PARAMS, type TableViolation } from './tableGuard';
import { Toolbar } from './toolbar/Toolbar';
import type { UploadOwner } from './upload';
import { NODE_VIEWS as VIEWS } from './views/nodeViews';
import { MentionPeopleProvider, useMentionedIds } from '../mentions/mentionPeople';
import { MentionSuggestions } from '../mentions/MentionSuggestions';
import { createMentionQueryStore, MentionSuggestion } from '../mentions/mentionSuggestion';
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
  /** What uploads are attached to (the note or template being edited); null offers no image or file upload. */
  uploadOwner: UploadOwner | null;
  /** ADD and EDIT blocks against the saved version, by blockUid. */
  statuses: BlockStatuses;
  /** Focus the text (at its start) the first time it is editable: a note just created. */
  focusOnEditable?: boolean;
  /**
   * A block to scroll to and highlight a while (a search hit's); `key` changes with each opening, so
   * opening the same block again shows it again.
   */
  focus?: { uid: string; key: string } | null;
  /** More extensions (the comment threads' highlights), given once per document. */
  extensions?: readonly AnyExtension[];
  /** Told the editor once it exists (and null when it goes): the comment panel reads its selection. */
  onEditor?(editor: Editor | null): void;
  /** The note whose people `@` offers and whose mentions' chips show who may read it; none (a template) offers none. */
  mentions?: { labNoteNo: number } | null;
}

/** How long a rule notice stays beside the toolbar. */
const RULE_NOTICE_MS = 8000;

/**
 * Why the editor did not do what was asked (a table rule, a chart's range): a notice beside the toolbar,
 * announced politely, not an error dialog; nothing went wrong, a rule held.
 */
function RuleNotice({ message, onDismiss }: { message: string; onDismiss(): void }) {
  const { t } = useTranslation('editor');
  return (
    <div className="editor-rule-notice" role="status" aria-live="polite" data-testid="editor-notice">
      <span className="editor-rule-notice-title">{t('notice.title')}</span>
      <span className="editor-rule-notice-text" data-testid="editor-notice-text">
        {message}
      </span>
      <button
        type="button"
        className="editor-rule-notice-close"
        onClick={onDismiss}
        aria-label={t('notice.dismiss')}
        data-testid="editor-notice-dismiss"
      >
        ×
      </button>
    </div>
  );
}

/** The editor's keys, under the text and as its description: how to reach the toolbar and how to leave. */
function KeyboardHelp({ id }: { id: string }) {
  const { t } = useTranslation('editor');
  return (
    <p className="editor-keys" id={id} data-testid="editor-keys">
      <span className="editor-keys-title">{t('toolbar.keys.title')}</span>
      <span>{t('toolbar.keys.toolbar', { keys: TOOLBAR_SHORTCUT })}</span>
      <span>{t('toolbar.keys.leave')}</span>
      <span>{t('toolbar.keys.table')}</span>
    </p>
  );
}

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

/** The note's stored content as the editor's first document, or nothing for an empty note. */
function initialContent(doc: Y.Doc): JSONContent | undefined {
  const fragment = doc.getXmlFragment('default');
  if (fragment.length === 0) return undefined;
  return yXmlFragmentToProseMirrorRootNode(fragment, getSchema(browserExtensions(VIEWS, () => undefined))).toJSON() as JSONContent;
}

/**
 * The live block editor, shared by lab notes and templates: Tiptap bound to the Y.Doc with
 * Collaboration (its own undo and redo) and CollaborationCaret, the note schema, and the toolbar.
 * Editing follows `editable` (the server decides; the client only mirrors it).
 */
export function LiveEditor({
  doc,
  provider,
  user,
  editable,
  uploadOwner,
  statuses,
  focusOnEditable = false,
  focus = null,
  extensions = [],
  onEditor,
  mentions = null,
}: LiveEditorProps) {
  const { t } = useTranslation('editor');
  const [notice, setNotice] = useState<string | null>(null);
  const editorId = useId();
  // A rule notice stays a while, then goes; the next refusal replaces it.
  useEffect(() => {
    if (!notice) return;
    const timer = window.setTimeout(() => setNotice(null), RULE_NOTICE_MS);
    return () => window.clearTimeout(timer);
  }, [notice]);
  const onTableRefused = (violation: TableViolation) => setNotice(t(`refusal.${violation}`, REFUSAL_PARAMS));
  const [mentionQueries] = useState(createMentionQueryStore);

  // Read once per document: the editor takes its content only when it is created.
  const firstContent = useMemo(() => initialContent(doc), [doc]);
  const editor = useEditor(
    {
      extensions: editorExtensions(),
      // Starting from the stored content (not an empty paragraph) puts the first caret where the note's
      // first text is: y-tiptap keeps that caret when it binds, and a caret at position 1 would point
      // into a table when the note starts with one.
      content: firstContent,
      editable,
      editorProps: {
        attributes: {
          class: 'note-prose',
          role: 'textbox',
          'aria-multiline': 'true',
          'aria-label': t('content.label'),
          'aria-describedby': `${editorId}-keys`,
          spellcheck: 'true',
        },
      },
    },
    [doc, provider],
  );

  function editorExtensions() {
    return [
      ...browserExtensions(VIEWS, onTableRefused),
      KeyboardPath,
      BlockStatusMarks,
      BlockFocus,
      Placeholder.configure({ placeholder: t('content.empty') }),
      ...extensions,
      MentionSuggestion.configure({ store: mentions ? mentionQueries : null }),
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
    ];
  }

  useEffect(() => {
    if (editor && !editor.isDestroyed && editor.isEditable !== editable) editor.setEditable(editable);
  }, [editor, editable]);

  useEffect(() => {
    onEditor?.(editor);
    return () => onEditor?.(null);
  }, [editor, onEditor]);
  const mentionedIds = useMentionedIds(mentions ? editor : null);

  const focusedOnce = useRef(false);
  useEffect(() => {
    if (!focusOnEditable || focusedOnce.current || !editable || !editor || editor.isDestroyed) return;
    try {
      editor.commands.focus('start');
      focusedOnce.current = true;
    } catch {
      /* not mounted yet: the next render tries again */
    }
  }, [editor, editable, focusOnEditable]);

  useEffect(() => {
    if (!editor || editor.isDestroyed) return;
    try {
      editor.view.dispatch(editor.state.tr.setMeta(blockStatusKey, statuses).setMeta('addToHistory', false));
    } catch {
      /* not mounted yet: the next change of statuses applies them */
    }
  }, [editor, statuses]);

  const focusUid = focus?.uid ?? null;
  const focusKey = focus?.key ?? null;
  useEffect(() => {
    if (!editor || editor.isDestroyed || !focusUid) return;
    let timer: number | undefined;
    // Shown once the editor has its view in the page (it scrolls the block's own element into view).
    const show = () => {
      if (editor.isDestroyed || !showFoundBlock(editor, focusUid)) return;
      timer = window.setTimeout(() => {
        if (!editor.isDestroyed) setFoundBlock(editor, null);
      }, BLOCK_FOCUS_MS);
    };
    const onCreate = () => {
      editor.off('create', onCreate);
      show();
    };
    if (editor.isInitialized) show();
    else editor.on('create', onCreate);
    return () => {
      editor.off('create', onCreate);
      window.clearTimeout(timer);
    };
  }, [editor, focusUid, focusKey]);

  return (
    <div className={`live-editor${editable ? '' : ' is-readonly'}`} data-testid="editor">
      {editor && editable ? <Toolbar editor={editor} uploadOwner={uploadOwner} onRefuse={setNotice} /> : null}
      {notice ? <RuleNotice message={notice} onDismiss={() => setNotice(null)} /> : null}
      {mentions ? (
        <MentionPeopleProvider labNoteNo={mentions.labNoteNo} userIds={mentionedIds}>
          <EditorContent editor={editor} className="editor-content" data-testid="editor-content" />
        </MentionPeopleProvider>
      ) : (
        <EditorContent editor={editor} className="editor-content" data-testid="editor-content" />
      )}
      {editor && editable && mentions ? (
        <MentionSuggestions editor={editor} store={mentionQueries} labNoteNo={mentions.labNoteNo} onRefuse={setNotice} />
      ) : null}
      {editor && editable ? <KeyboardHelp id={`${editorId}-keys`} /> : null}
    </div>
  );
}
