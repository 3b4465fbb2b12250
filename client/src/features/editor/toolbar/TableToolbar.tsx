import { useTranslation } from 'react-i18next';
import type { Editor } from '@tiptap/core';
import { addColumn, addRow, deleteColumn, deleteRow, mergeCells, splitCell, type Refusal } from '../commands';
import {
  ColumnAddIcon,
  ColumnDeleteIcon,
  ListBoxIcon,
  MergeIcon,
  RowAddIcon,
  RowDeleteIcon,
  SplitIcon,
  TableIcon,
  TrashIcon,
} from '../icons';
import { Sep, ToolButton } from './ToolButton';

/** What the table row shows of the selection's table, computed with the toolbar's editor state. */
export interface TableToolState {
  rows: number;
  columns: number;
  lastRow: boolean;
  lastColumn: boolean;
  canMerge: boolean;
  canSplit: boolean;
}

/**
 * The table's actions, shown while the selection is in a table: each action the rules forbid is disabled
 * (last row or column) or refused with the reason (merged cells, size limits).
 */
export function TableToolbar({
  editor,
  table: state,
  refuse,
  onDropbox: openDropbox,
}: {
  editor: Editor;
  table: TableToolState;
  refuse(refusal: Refusal | null): void;
  onDropbox(): void;
}) {
  const { t } = useTranslation('editor');
  return (
    <div className="toolbar-row toolbar-row-table" role="group" aria-label={t('table.label')} data-testid="table-toolbar">
      <span className="toolbar-group-label">
        <TableIcon size={15} /> {t('table.size', { rows: state.rows, columns: state.columns })}
      </span>
      <ToolButton label={t('table.addRow')} text={t('table.addRow')} onClick={() => refuse(addRow(editor))} testId="table-add-row">
        <RowAddIcon />
      </ToolButton>
      <ToolButton
        label={t('table.addColumn')}
        text={t('table.addColumn')}
        onClick={() => refuse(addColumn(editor))}
        testId="table-add-column"
      >
        <ColumnAddIcon />
      </ToolButton>
      <ToolButton
        label={t('table.deleteRow')}
        text={t('table.deleteRow')}
        disabled={state.lastRow}
        onClick={() => refuse(deleteRow(editor))}
        testId="table-delete-row"
      >
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
      <ToolButton
        label={t('table.merge')}
        text={t('table.merge')}
        disabled={!state.canMerge}
        onClick={() => refuse(mergeCells(editor))}
        testId="table-merge"
      >
        <MergeIcon />
      </ToolButton>
      <ToolButton
        label={t('table.split')}
        text={t('table.split')}
        disabled={!state.canSplit}
        onClick={() => splitCell(editor)}
        testId="table-split"
      >
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
  );
}
