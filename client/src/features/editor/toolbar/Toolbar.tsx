import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { useEditorState } from '@tiptap/react';
import type { Editor } from '@tiptap/core';
import { CellSelection } from '@tiptap/pm/tables';
import { api, fileExtensions, IMAGE_TYPES, LIMITS } from '@eln/shared';
import type { CellDropbox, ExtraFileType } from '@eln/shared';
import type { CellRef } from '@eln/shared/editor';
import type { ChartFields } from '../ChartDialog';
import { TOOLBAR_SHORTCUT } from '../keyboardPath';
import {
  chartSource,
  insertChart,
  insertDate,
  insertSchemaBlock,
  insertTable,
  selectedCellDropbox,
  setCellDropbox,
  type Refusal,
} from '../commands';
import {
  BoldIcon,
  ChartIcon,
  DateIcon,
  ImageIcon,
  ItalicIcon,
  ListIcon,
  OrderedListIcon,
  PaperclipIcon,
  RedoIcon,
  StrikeIcon,
  TableIcon,
  UnderlineIcon,
  UndoIcon,
} from '../icons';
import { columnDeletionRefusal, rowDeletionRefusal, selectedCellIsHeader, tableInfo } from '../tableRules';
import { acceptFor } from '../upload';
import { ColorPicker } from './ColorPicker';
import { SchemaIcon } from '../../../ui/icons';
import { onDropboxChoose } from '../dropboxCells';
import { TableToolbar } from './TableToolbar';
import { Sep, ToolButton } from './ToolButton';
import { uploadPicker } from './uploadPicker';

// Opened now and then, so loaded when first opened: the note screen's chunk stays within its 200 kB goal.
// Dialogs load when first opened: the note screen's chunk stays within its size budget.
const ChartDialog = lazy(() => import('../ChartDialog').then((m) => ({ default: m.ChartDialog })));
const TableSizeDialog = lazy(() => import('./TableDialogs').then((m) => ({ default: m.TableSizeDialog })));
const SchemaInsertDialog = lazy(() => import('./SchemaInsertDialog').then((m) => ({ default: m.SchemaInsertDialog })));
const DropboxCellDialog = lazy(() => import('./DropboxCellDialog').then((m) => ({ default: m.DropboxCellDialog })));
import { useRovingToolbar } from '../../../lib/useRovingToolbar';
import { useApiQuery } from '../../../api/queries';
import type { UploadOwner } from '../upload';

const NO_ADDED_TYPES: readonly ExtraFileType[] = [];

/**
 * The editor's toolbar: block style, marks, colour, lists, undo and redo, and the inserts (table, chart,
 * image, file, date, schema); inside a table, a second row with the table's actions (TableToolbar).
 */
export function Toolbar({
  editor,
  uploadOwner,
  onRefuse,
}: {
  editor: Editor;
  uploadOwner: UploadOwner | null;
  onRefuse(message: string): void;
}) {
  const { t } = useTranslation('editor');
  const [tableDialog, setTableDialog] = useState(false);
  const [dropboxDialog, setDropboxDialog] = useState<{ initial: CellDropbox | null } | null>(null);
  const [schemaDialog, setSchemaDialog] = useState(false);
  const [chartDraft, setChartDraft] = useState<{ tableUid: string; from: CellRef; to: CellRef } | null>(null);
  const imageInput = useRef<HTMLInputElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => {
      const info = tableInfo(e.state);
      return {
        bold: e.isActive('bold'),
        italic: e.isActive('italic'),
        underline: e.isActive('underline'),
        strike: e.isActive('strike'),
        bulletList: e.isActive('bulletList'),
        orderedList: e.isActive('orderedList'),
        block: e.isActive('heading', { level: 1 })
          ? 'h1'
          : e.isActive('heading', { level: 2 })
            ? 'h2'
            : e.isActive('heading', { level: 3 })
              ? 'h3'
              : 'p',
        color: (e.getAttributes('textStyle').color as string | undefined) ?? null,
        canUndo: e.can().undo(),
        canRedo: e.can().redo(),
        inTable: info !== null,
        rows: info?.rows ?? 0,
        columns: info?.columns ?? 0,
        lastRow: info ? rowDeletionRefusal(info) === 'lastRow' : false,
        lastColumn: info ? columnDeletionRefusal(info) === 'lastColumn' : false,
        canMerge: info !== null && e.state.selection instanceof CellSelection && info.selectedCells >= 2,
        canSplit: info !== null && e.can().splitCell(),
      };
    },
  });

  const refuse = (refusal: Refusal | null) => {
    if (refusal) onRefuse(t(`refusal.${refusal}`, { max: LIMITS.tableMaxSide }));
  };

  const setBlock = (value: string) => {
    const chain = editor.chain().focus();
    if (value === 'p') chain.setParagraph().run();
    else chain.setHeading({ level: Number(value.slice(1)) as 1 | 2 | 3 }).run();
  };

  const openTable = () => {
    if (state.inTable) {
      refuse('tableInTable');
      return;
    }
    setTableDialog(true);
  };

  const openChart = () => {
    const source = chartSource(editor);
    if (typeof source === 'string') {
      refuse(source);
      return;
    }
    setChartDraft(source);
  };

  const openDropbox = () => {
    if (selectedCellIsHeader(editor.state)) return refuse('dropboxHeader');
    setDropboxDialog({ initial: selectedCellDropbox(editor) });
  };
  // A dropbox cell's own chip (dropboxCells.ts) asks for the same dialog.
  const openDropboxLatest = useRef(openDropbox);
  openDropboxLatest.current = openDropbox;
  useEffect(() => onDropboxChoose(editor, () => openDropboxLatest.current()), [editor]);

  /**
   * Closes a dialog, then acts on the editor: the dialog must be gone first, since while it is open the
   * page behind it is inert and the editor's focus (taken a frame later) would fail, leaving focus on the
   * toolbar button that opened it and the next keys typed lost.
   */
  const closeThen = (close: () => void, act: () => void) => {
    flushSync(close);
    act();
  };

  // The types administrators added to the spec's list: offered by the file picker and judged by the same rule as the server's.
  const addedTypes = useApiQuery(api.files.types, {}).data?.extra ?? NO_ADDED_TYPES;
  const onPick = uploadPicker(editor, uploadOwner, addedTypes);
  const roving = useRovingToolbar<HTMLDivElement>();

  return (
    <div
      ref={roving.ref}
      className="editor-toolbar"
      role="toolbar"
      aria-label={t('toolbar.label')}
      aria-keyshortcuts={TOOLBAR_SHORTCUT}
      data-testid="editor-toolbar"
      onFocus={roving.onFocus}
      onKeyDown={(event) => {
        roving.onKeyDown(event);
        // Back to the text, where the selection still is (a popover's own Escape closes it first).
        if (event.key === 'Escape' && !event.defaultPrevented) {
          event.preventDefault();
          editor.commands.focus();
        }
      }}
    >
      <div className="toolbar-row">
        <div className="select-wrap toolbar-select">
          <select
            className="input select input-sm"
            value={state.block}
            onChange={(event) => setBlock(event.target.value)}
            aria-label={t('toolbar.blockStyle')}
            data-testid="toolbar-block"
          >
            <option value="p">{t('toolbar.paragraph')}</option>
            <option value="h1">{t('toolbar.heading1')}</option>
            <option value="h2">{t('toolbar.heading2')}</option>
            <option value="h3">{t('toolbar.heading3')}</option>
          </select>
        </div>
        <Sep />
        <ToolButton
          label={t('toolbar.bold')}
          active={state.bold}
          onClick={() => editor.chain().focus().toggleBold().run()}
          testId="toolbar-bold"
        >
          <BoldIcon />
        </ToolButton>
        <ToolButton
          label={t('toolbar.italic')}
          active={state.italic}
          onClick={() => editor.chain().focus().toggleItalic().run()}
          testId="toolbar-italic"
        >
          <ItalicIcon />
        </ToolButton>
        <ToolButton
          label={t('toolbar.underline')}
          active={state.underline}
          onClick={() => editor.chain().focus().toggleUnderline().run()}
          testId="toolbar-underline"
        >
          <UnderlineIcon />
        </ToolButton>
        <ToolButton
          label={t('toolbar.strike')}
          active={state.strike}
          onClick={() => editor.chain().focus().toggleStrike().run()}
          testId="toolbar-strike"
        >
          <StrikeIcon />
        </ToolButton>
        <ColorPicker editor={editor} color={state.color} />
        <Sep />
        <ToolButton
          label={t('toolbar.bulletList')}
          active={state.bulletList}
          onClick={() => editor.chain().focus().toggleBulletList().run()}
          testId="toolbar-bullet-list"
        >
          <ListIcon />
        </ToolButton>
        <ToolButton
          label={t('toolbar.orderedList')}
          active={state.orderedList}
          onClick={() => editor.chain().focus().toggleOrderedList().run()}
          testId="toolbar-ordered-list"
        >
          <OrderedListIcon />
        </ToolButton>
        <Sep />
        <ToolButton
          label={t('toolbar.undo')}
          disabled={!state.canUndo}
          onClick={() => editor.chain().focus().undo().run()}
          testId="toolbar-undo"
        >
          <UndoIcon />
        </ToolButton>
        <ToolButton
          label={t('toolbar.redo')}
          disabled={!state.canRedo}
          onClick={() => editor.chain().focus().redo().run()}
          testId="toolbar-redo"
        >
          <RedoIcon />
        </ToolButton>
        <Sep />
        <span className="toolbar-group-label">{t('toolbar.insert')}</span>
        <ToolButton label={t('toolbar.table')} text={t('toolbar.table')} onClick={openTable} testId="toolbar-table">
          <TableIcon />
        </ToolButton>
        <ToolButton label={t('toolbar.chart')} text={t('toolbar.chart')} onClick={openChart} testId="toolbar-chart">
          <ChartIcon />
        </ToolButton>
        <ToolButton
          label={t('toolbar.image')}
          text={t('toolbar.image')}
          disabled={uploadOwner === null}
          onClick={() => imageInput.current?.click()}
          testId="toolbar-image"
        >
          <ImageIcon />
        </ToolButton>
        <ToolButton
          label={t('toolbar.file')}
          text={t('toolbar.file')}
          disabled={uploadOwner === null}
          onClick={() => fileInput.current?.click()}
          testId="toolbar-file"
        >
          <PaperclipIcon />
        </ToolButton>
        <ToolButton label={t('toolbar.date')} text={t('toolbar.date')} onClick={() => refuse(insertDate(editor))} testId="toolbar-date">
          <DateIcon />
        </ToolButton>
        <ToolButton label={t('toolbar.schema')} text={t('toolbar.schema')} onClick={() => setSchemaDialog(true)} testId="toolbar-schema">
          <SchemaIcon />
        </ToolButton>
        <input
          ref={imageInput}
          type="file"
          hidden
          accept={acceptFor('image', IMAGE_TYPES)}
          onChange={onPick('image')}
          data-testid="image-input"
          aria-label={t('upload.pickImage')}
        />
        <input
          ref={fileInput}
          type="file"
          hidden
          accept={acceptFor('file', fileExtensions(addedTypes))}
          onChange={onPick('file')}
          data-testid="file-input"
          aria-label={t('upload.pickFile')}
        />
      </div>

      {state.inTable ? <TableToolbar editor={editor} table={state} refuse={refuse} onDropbox={openDropbox} /> : null}

      <Suspense fallback={null}>
        {tableDialog ? (
          <TableSizeDialog
            onClose={() => setTableDialog(false)}
            onSubmit={(rows, columns, header) =>
              closeThen(
                () => setTableDialog(false),
                () => refuse(insertTable(editor, rows, columns, header ? (n) => t('table.columnLabel', { n }) : null)),
              )
            }
          />
        ) : null}
        {chartDraft ? (
          <ChartDialog
            initial={{ name: '', label: '', dataName: '', chartType: 'bar', direction: 'vertical', xLabel: '', yLabel: '' }}
            range={{ from: chartDraft.from, to: chartDraft.to }}
            onClose={() => setChartDraft(null)}
            onSubmit={(fields: ChartFields) =>
              closeThen(
                () => setChartDraft(null),
                () => insertChart(editor, chartDraft, fields),
              )
            }
          />
        ) : null}
        {schemaDialog ? (
          <SchemaInsertDialog
            onClose={() => setSchemaDialog(false)}
            onSubmit={(block) =>
              closeThen(
                () => setSchemaDialog(false),
                () => insertSchemaBlock(editor, block),
              )
            }
          />
        ) : null}
        {dropboxDialog !== null ? (
          <DropboxCellDialog
            initial={dropboxDialog.initial}
            onClose={() => setDropboxDialog(null)}
            onSubmit={(value) =>
              closeThen(
                () => setDropboxDialog(null),
                () => refuse(setCellDropbox(editor, value)),
              )
            }
          />
        ) : null}
      </Suspense>
    </div>
  );
}
