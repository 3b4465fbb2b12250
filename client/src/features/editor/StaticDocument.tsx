import { useTranslation } from 'react-i18next';
import { EditorContent, useEditor } from '@tiptap/react';
import { blocksToDoc, type SavedBlock } from '@eln/shared';
import { browserExtensions } from './schema';
import { NODE_VIEWS } from './views/nodeViews';
import './editor.css';

/**
 * Saved blocks shown as the editor shows them (tables, charts, dates), read-only: a template version's
 * preview, the two sides of a comparison.
 */
export function StaticDocument({ blocks, testId, label }: { blocks: readonly SavedBlock[]; testId?: string; label?: string }) {
  const { t } = useTranslation('editor');
  const editor = useEditor(
    {
      extensions: browserExtensions(NODE_VIEWS),
      content: blocks.length ? blocksToDoc(blocks) : undefined,
      editable: false,
      editorProps: {
        attributes: {
          class: 'note-prose',
          role: 'textbox',
          'aria-multiline': 'true',
          'aria-label': label ?? t('content.label'),
          'aria-readonly': 'true',
        },
      },
    },
    [blocks],
  );
  return (
    <div className="live-editor is-readonly static-document" data-testid={testId}>
      <EditorContent editor={editor} className="editor-content" />
    </div>
  );
}
