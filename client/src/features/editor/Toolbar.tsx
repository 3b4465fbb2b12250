import { useEffect, useRef, useState, type ChangeEvent, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useEditorState } from '@tiptap/react';
import type { Editor } from '@tiptap/core';
import { CellSelection } from '@tiptap/pm/tables';
import { FILE_TYPES, IMAGE_TYPES, LIMITS, type UploadAnswer, type UploadKind } from '@eln/shared';
import { currentLanguage } from '../../i18n';
import { alert, hideProgress, showProgress } from '../../modals/store';
import { Dialog } from '../../modals/Dialog';
import { Button } from '../../ui/Button';
import { Checkbox, TextField } from '../../ui/Field';
import { ChartDialog, type ChartFields } from './ChartDialog';
import {
  addColumn,
  addRow,
  chartSource,
  deleteColumn,
  deleteRow,
  insertChart,
  insertDate,
  insertFile,
  insertImage,
  insertTable,
  mergeCells,
  selectedCellDropbox,
  setCellDropbox,
  splitCell,
  type Refusal,
} from './commands';
import {
  BoldIcon,
  ChartIcon,
  ColumnAddIcon,
  ColumnDeleteIcon,
  DateIcon,
  ImageIcon,
  ItalicIcon,
  ListBoxIcon,
  ListIcon,
  MergeIcon,
  OrderedListIcon,
  PaletteIcon,
  PaperclipIcon,
  RedoIcon,
  RowAddIcon,
  RowDeleteIcon,
  SplitIcon,
  StrikeIcon,
  TableIcon,
  TrashIcon,
  UnderlineIcon,
  UndoIcon,
} from './icons';
import { columnDeletionRefusal, rowDeletionRefusal, tableInfo } from './tableRules';
import { freshAccessToken } from './token';
import { acceptFor, checkUpload, uploadCheckMessage, uploadFile } from './upload';
import { rememberLink } from './fileLinks';
import type { CellRef } from '@eln/shared/editor';

/** Text colours offered (chosen to read on both themes' white paper). */
export const TEXT_COLORS = ['#d92d20', '#dc6803', '#079455', '#1570ef', '#6941c6', '#c11574', '#475467'] as const;

function ToolButton({
  label,
  onClick,
  active,
  disabled,
  testId,
  children,
  text,
}: {
  label: string;
  onClick(): void;
  active?: boolean;
  disabled?: boolean;
  testId?: string;
  children: ReactNode;
  text?: string;
}) {
  return (
    <button
      type="button"
      className={`tool-btn${active ? ' is-active' : ''}${text ? ' tool-btn-text' : ''}`}
      onMouseDown={(event) => event.preventDefault()}
      onClick={onClick}
      disabled={disabled}
      aria-label={label}
      aria-pressed={active === undefined ? undefined : active}
      title={label}
      data-testid={testId}
    >
      {children}
      {text ? <span className="tool-btn-label">{text}</span> : null}
    </button>
  );
}

const Sep = () => <span className="tool-sep" aria-hidden="true" />;

/**
 * The editor's toolbar: block style, marks, colour, lists, undo and redo, and the inserts (table, chart,
 * image, file, date). Inside a table a second row offers the table's actions; each action the rules
 * forbid is disabled (last row or column) or refused with the reason (merged cells, size limits).
 */
export function Toolbar({ editor, uploadNoteNo }: { editor: Editor; uploadNoteNo: number | null }) {
  const { t } = useTranslation('editor');
  const [colorsOpen, setColorsOpen] = useState(false);
  const [tableDialog, setTableDialog] = useState(false);
  const [dropboxDialog, setDropboxDialog] = useState<string | null>(null);
  const [chartDraft, setChartDraft] = useState<{ tableUid: string; from: CellRef; to: CellRef } | null>(null);
  const imageInput = useRef<HTMLInputElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const colorsRef = useRef<HTMLDivElement>(null);

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
        block: e.isActive('heading', { level: 1 }) ? 'h1' : e.isActive('heading', { level: 2 }) ? 'h2' : e.isActive('heading', { level: 3 }) ? 'h3' : 'p',
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

  useEffect(() => {
    if (!colorsOpen) return;
    const close = (event: MouseEvent) => {
      if (colorsRef.current && !colorsRef.current.contains(event.target as Node)) setColorsOpen(false);
    };
    document.addEventListener('mousedown', close);
    return () => document.removeEventListener('mousedown', close);
  }, [colorsOpen]);

  const refuse = (refusal: Refusal | null) => {
    if (refusal) void alert(t(`refusal.${refusal}`, { max: LIMITS.tableMaxSide }), { tone: 'error' });
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
    setDropboxDialog(selectedCellDropbox(editor));
  };

  const upload = async (file: File, kind: UploadKind) => {
    const language = currentLanguage();
    const check = checkUpload(file.name, file.size, kind);
    const message = uploadCheckMessage(check, language);
    if (message || uploadNoteNo === null) {
      if (message) await alert(message, { tone: 'error' });
      return;
    }
    let answer: UploadAnswer;
    showProgress(0);
    try {
      answer = await uploadFile({ labNoteNo: uploadNoteNo, file, token: await freshAccessToken(), language, onProgress: showProgress });
    } catch (error) {
      hideProgress();
      await alert(error instanceof Error ? error.message : String(error), { tone: 'error' });
      return;
    }
    hideProgress();
    if (answer.url) rememberLink(answer.fileId, answer.url);
    if (kind === 'image') {
      const base = (answer.origin || file.name).replace(/\.[^.]+$/, '');
      insertImage(editor, { fileId: answer.fileId, title: base.slice(0, LIMITS.imageTitle) });
    } else {
      insertFile(editor, { fileId: answer.fileId, name: answer.origin || file.name, size: answer.size ?? file.size, extension: answer.extension ?? '' });
    }
  };

  const onPick = (kind: UploadKind) => (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (file) void upload(file, kind);
  };

  return (
    <div className="editor-toolbar" role="toolbar" aria-label={t('toolbar.label')} data-testid="editor-toolbar">
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
        <ToolButton label={t('toolbar.bold')} active={state.bold} onClick={() => editor.chain().focus().toggleBold().run()} testId="toolbar-bold">
          <BoldIcon />
        </ToolButton>
        <ToolButton label={t('toolbar.italic')} active={state.italic} onClick={() => editor.chain().focus().toggleItalic().run()} testId="toolbar-italic">
          <ItalicIcon />
        </ToolButton>
        <ToolButton label={t('toolbar.underline')} active={state.underline} onClick={() => editor.chain().focus().toggleUnderline().run()} testId="toolbar-underline">
          <UnderlineIcon />
        </ToolButton>
        <ToolButton label={t('toolbar.strike')} active={state.strike} onClick={() => editor.chain().focus().toggleStrike().run()} testId="toolbar-strike">
          <StrikeIcon />
        </ToolButton>
        <div className="tool-popover-anchor" ref={colorsRef}>
          <ToolButton label={t('toolbar.color')} active={colorsOpen} onClick={() => setColorsOpen((open) => !open)} testId="toolbar-color">
            <PaletteIcon />
            <span className="tool-color-bar" style={{ background: state.color ?? 'currentColor' }} aria-hidden="true" />
          </ToolButton>
          {colorsOpen ? (
            <div className="tool-popover color-grid" role="group" aria-label={t('toolbar.color')}>
              <button
                type="button"
                className="color-swatch color-swatch-default"
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => {
                  editor.chain().focus().unsetColor().run();
                  setColorsOpen(false);
                }}
                aria-label={t('toolbar.colorDefault')}
                title={t('toolbar.colorDefault')}
              />
              {TEXT_COLORS.map((color) => (
                <button
                  key={color}
                  type="button"
                  className={`color-swatch${state.color === color ? ' is-active' : ''}`}
                  style={{ background: color }}
                  onMouseDown={(event) => event.preventDefault()}
                  onClick={() => {
                    editor.chain().focus().setColor(color).run();
                    setColorsOpen(false);
                  }}
                  aria-label={t('toolbar.colorNamed', { color })}
                  title={color}
                  data-testid={`color-${color.slice(1)}`}
                />
              ))}
            </div>
          ) : null}
        </div>
        <Sep />
        <ToolButton label={t('toolbar.bulletList')} active={state.bulletList} onClick={() => editor.chain().focus().toggleBulletList().run()} testId="toolbar-bullet-list">
          <ListIcon />
        </ToolButton>
        <ToolButton label={t('toolbar.orderedList')} active={state.orderedList} onClick={() => editor.chain().focus().toggleOrderedList().run()} testId="toolbar-ordered-list">
          <OrderedListIcon />
        </ToolButton>
        <Sep />
        <ToolButton label={t('toolbar.undo')} disabled={!state.canUndo} onClick={() => editor.chain().focus().undo().run()} testId="toolbar-undo">
          <UndoIcon />
        </ToolButton>
        <ToolButton label={t('toolbar.redo')} disabled={!state.canRedo} onClick={() => editor.chain().focus().redo().run()} testId="toolbar-redo">
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
        <ToolButton label={t('toolbar.image')} text={t('toolbar.image')} disabled={uploadNoteNo === null} onClick={() => imageInput.current?.click()} testId="toolbar-image">
          <ImageIcon />
        </ToolButton>
        <ToolButton label={t('toolbar.file')} text={t('toolbar.file')} disabled={uploadNoteNo === null} onClick={() => fileInput.current?.click()} testId="toolbar-file">
          <PaperclipIcon />
        </ToolButton>
        <ToolButton label={t('toolbar.date')} text={t('toolbar.date')} onClick={() => refuse(insertDate(editor))} testId="toolbar-date">
          <DateIcon />
        </ToolButton>
        <input ref={imageInput} type="file" hidden accept={acceptFor('image', IMAGE_TYPES)} onChange={onPick('image')} data-testid="image-input" aria-label={t('upload.pickImage')} />
        <input ref={fileInput} type="file" hidden accept={acceptFor('file', FILE_TYPES)} onChange={onPick('file')} data-testid="file-input" aria-label={t('upload.pickFile')} />
      </div>

      {state.inTable ? (
        <div className="toolbar-row toolbar-row-table" role="group" aria-label={t('table.label')} data-testid="table-toolbar">
          <span className="toolbar-group-label">
            <TableIcon size={15} /> {t('table.size', { rows: state.rows, columns: state.columns })}
          </span>
          <ToolButton label={t('table.addRow')} text={t('table.addRow')} onClick={() => refuse(addRow(editor))} testId="table-add-row">
            <RowAddIcon />
          </ToolButton>
          <ToolButton label={t('table.addColumn')} text={t('table.addColumn')} onClick={() => refuse(addColumn(editor))} testId="table-add-column">
            <ColumnAddIcon />
          </ToolButton>
          <ToolButton label={t('table.deleteRow')} text={t('table.deleteRow')} disabled={state.lastRow} onClick={() => refuse(deleteRow(editor))} testId="table-delete-row">
            <RowDeleteIcon />
          </ToolButton>
          <ToolButton
            label={t('table.deleteColumn')}
            text={t('table.deleteColumn')}
            disabled={state.lastColumn}
            onClick={() => refuse(deleteColumn(editor))}
            testId="table-delete-column"
          >
            <ColumnDeleteIcon />
          </ToolButton>
          <Sep />
          <ToolButton label={t('table.merge')} text={t('table.merge')} disabled={!state.canMerge} onClick={() => refuse(mergeCells(editor))} testId="table-merge">
            <MergeIcon />
          </ToolButton>
          <ToolButton label={t('table.split')} text={t('table.split')} disabled={!state.canSplit} onClick={() => splitCell(editor)} testId="table-split">
            <SplitIcon />
          </ToolButton>
          <ToolButton label={t('table.dropbox')} text={t('table.dropbox')} onClick={openDropbox} testId="table-dropbox">
            <ListBoxIcon />
          </ToolButton>
          <Sep />
          <ToolButton label={t('table.deleteTable')} onClick={() => editor.chain().focus().deleteTable().run()} testId="table-delete">
            <TrashIcon />
          </ToolButton>
        </div>
      ) : null}

      {tableDialog ? (
        <TableSizeDialog
          onClose={() => setTableDialog(false)}
          onSubmit={(rows, columns, header) => {
            setTableDialog(false);
            refuse(insertTable(editor, rows, columns, header));
          }}
        />
      ) : null}
      {chartDraft ? (
        <ChartDialog
          initial={{ name: '', label: '', dataName: '', chartType: 'bar', direction: 'vertical', xLabel: '', yLabel: '' }}
          range={{ from: chartDraft.from, to: chartDraft.to }}
          onClose={() => setChartDraft(null)}
          onSubmit={(fields: ChartFields) => {
            insertChart(editor, chartDraft, fields);
            setChartDraft(null);
          }}
        />
      ) : null}
      {dropboxDialog !== null ? (
        <DropboxDialog
          initial={dropboxDialog}
          onClose={() => setDropboxDialog(null)}
          onSubmit={(name) => {
            setDropboxDialog(null);
            refuse(setCellDropbox(editor, name));
          }}
        />
      ) : null}
    </div>
  );
}

function TableSizeDialog({ onSubmit, onClose }: { onSubmit(rows: number, columns: number, header: boolean): void; onClose(): void }) {
  const { t } = useTranslation('editor');
  const { t: tApp } = useTranslation();
  const [rows, setRows] = useState(String(LIMITS.tableDefaultRows));
  const [columns, setColumns] = useState(String(LIMITS.tableDefaultColumns));
  const [header, setHeader] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const r = Number(rows);
    const c = Number(columns);
    const ok = (n: number) => Number.isInteger(n) && n >= 1 && n <= LIMITS.tableMaxSide;
    if (!ok(r) || !ok(c)) {
      setError(t('refusal.tableSize', { max: LIMITS.tableMaxSide }));
      return;
    }
    onSubmit(r, c, header);
  };
  return (
    <Dialog title={t('table.insertTitle')} onClose={onClose} testId="table-dialog">
      <form className="form" onSubmit={submit} noValidate>
        <div className="form-grid form-grid-2">
          <TextField
            label={t('table.rows')}
            type="number"
            inputMode="numeric"
            min={1}
            max={LIMITS.tableMaxSide}
            value={rows}
            onChange={(event) => setRows(event.target.value)}
            testId="table-rows"
          />
          <TextField
            label={t('table.columns')}
            type="number"
            inputMode="numeric"
            min={1}
            max={LIMITS.tableMaxSide}
            value={columns}
            onChange={(event) => setColumns(event.target.value)}
            testId="table-columns"
          />
        </div>
        <Checkbox label={t('table.withHeader')} checked={header} onChange={(event) => setHeader(event.target.checked)} testId="table-header" />
        {error ? (
          <p className="field-error" role="alert" data-testid="table-size-error">
            {error}
          </p>
        ) : (
          <p className="field-hint">{t('table.sizeHint', { max: LIMITS.tableMaxSide })}</p>
        )}
        <div className="modal-footer modal-footer-inline">
          <Button variant="secondary" onClick={onClose}>
            {tApp('common.cancel')}
          </Button>
          <Button type="submit" variant="primary" data-testid="table-submit">
            {t('table.insert')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

function DropboxDialog({ initial, onSubmit, onClose }: { initial: string; onSubmit(name: string | null): void; onClose(): void }) {
  const { t } = useTranslation('editor');
  const { t: tApp } = useTranslation();
  const [name, setName] = useState(initial);
  return (
    <Dialog title={t('dropbox.title')} onClose={onClose} testId="dropbox-dialog">
      <form
        className="form"
        onSubmit={(event) => {
          event.preventDefault();
          onSubmit(name);
        }}
        noValidate
      >
        <TextField label={t('dropbox.name')} value={name} maxLength={LIMITS.dropboxName} onChange={(event) => setName(event.target.value)} hint={t('dropbox.hint')} testId="dropbox-name" />
        <div className="modal-footer modal-footer-inline">
          {initial ? (
            <Button variant="ghost" onClick={() => onSubmit(null)} data-testid="dropbox-clear">
              {t('dropbox.clear')}
            </Button>
          ) : null}
          <Button variant="secondary" onClick={onClose}>
            {tApp('common.cancel')}
          </Button>
          <Button type="submit" variant="primary" data-testid="dropbox-save">
            {t('dropbox.save')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
