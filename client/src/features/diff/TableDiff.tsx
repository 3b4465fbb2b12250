import { useTranslation } from 'react-i18next';
import { tableLayout, type BlockDetail, type BlockTable, type CellChange, type TableCell } from '@eln/shared';
import { TextDiff, type TextSide } from './TextDiff';
import type { DiffView } from './diffRows';

type TableDetail = Extract<BlockDetail, { kind: 'table' }>;

/** Where a side's changes are: each changed cell by its grid place, and the rows and columns only this side has. */
interface SideMarks {
  cells: Map<string, CellChange>;
  rows: ReadonlySet<number>;
  columns: ReadonlySet<number>;
  /** The CSS class of a row or column only this side has. */
  own: 'is-added' | 'is-removed';
}

const placeKey = (row: number, col: number) => `${row},${col}`;

function marksOf(detail: TableDetail, side: 'before' | 'after'): SideMarks {
  const cells = new Map<string, CellChange>();
  for (const change of detail.cells) {
    if (side === 'before' && change.kind !== 'added') cells.set(placeKey(change.beforeRow, change.beforeCol), change);
    if (side === 'after' && change.kind !== 'removed') cells.set(placeKey(change.row, change.col), change);
  }
  return side === 'before'
    ? { cells, rows: new Set(detail.rowsRemoved), columns: new Set(detail.columnsRemoved), own: 'is-removed' }
    : { cells, rows: new Set(detail.rowsAdded), columns: new Set(detail.columnsAdded), own: 'is-added' };
}

function CellContent({ cell, change, textSide }: { cell: TableCell; change: CellChange | undefined; textSide: TextSide }) {
  const { t } = useTranslation('history');
  const spans = (value: { colspan: number; rowspan: number } | null) => (value ? `${value.rowspan}×${value.colspan}` : '—');
  return (
    <>
      {change?.text ? <TextDiff parts={change.text} side={textSide} /> : cell.text}
      {cell.dropbox ? (
        <span className={`diff-cell-dropbox${change?.dropboxChanged ? ' is-changed' : ''}`}>
          {[cell.dropbox.title, cell.dropbox.code, cell.dropbox.name].filter(Boolean).join(' · ')}
        </span>
      ) : null}
      {change?.spanChanged ? (
        <span className="diff-cell-note">{t('diff.table.span', { before: spans(change.before), after: spans(change.after) })}</span>
      ) : null}
      {change && change.kind !== 'changed' ? (
        <span className="diff-cell-note">{change.kind === 'added' ? t('diff.table.split') : t('diff.table.merged')}</span>
      ) : null}
    </>
  );
}

/** One side's table as the editor lays it out (merged cells spanning), its changed cells, rows and columns marked. */
function MarkedTable({ table, marks, textSide, label }: { table: BlockTable; marks: SideMarks | null; textSide: TextSide; label: string }) {
  const layout = tableLayout(table);
  return (
    // Drawn with the note's own table styles (.note-prose), so a compared table looks as it does in the note.
    <div className="diff-table-scroll note-prose">
      <table className="diff-table" aria-label={label}>
        <tbody>
          {layout.rows.map((cells, r) => (
            <tr key={r} className={marks?.rows.has(r) ? marks.own : undefined}>
              {cells.map(({ cell, col }) => {
                const change = marks?.cells.get(placeKey(r, col));
                const Tag = r < layout.headerRows ? 'th' : 'td';
                const columnOwn = marks && Array.from({ length: cell.colspan }, (_, i) => col + i).some((c) => marks.columns.has(c));
                const className = [change ? `is-cell-${change.kind}` : '', columnOwn ? marks.own : ''].filter(Boolean).join(' ');
                return (
                  <Tag
                    key={col}
                    colSpan={cell.colspan > 1 ? cell.colspan : undefined}
                    rowSpan={cell.rowspan > 1 ? cell.rowspan : undefined}
                    className={className || undefined}
                    data-testid={change ? 'diff-cell' : undefined}
                    data-cell={change ? `${r},${col}` : undefined}
                  >
                    <CellContent cell={cell} change={change} textSide={textSide} />
                  </Tag>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** What changed in a table, in words: its size, rows and columns added or removed, cells changed. */
function TableFacts({ detail }: { detail: TableDetail }) {
  const { t } = useTranslation('history');
  const facts: string[] = [];
  if (detail.before.rows !== detail.after.rows || detail.before.columns !== detail.after.columns)
    facts.push(
      t('diff.table.size', {
        beforeRows: detail.before.rows,
        beforeColumns: detail.before.columns,
        rows: detail.after.rows,
        columns: detail.after.columns,
      }),
    );
  if (detail.rowsAdded.length) facts.push(t('diff.table.rowsAdded', { count: detail.rowsAdded.length }));
  if (detail.rowsRemoved.length) facts.push(t('diff.table.rowsRemoved', { count: detail.rowsRemoved.length }));
  if (detail.columnsAdded.length) facts.push(t('diff.table.columnsAdded', { count: detail.columnsAdded.length }));
  if (detail.columnsRemoved.length) facts.push(t('diff.table.columnsRemoved', { count: detail.columnsRemoved.length }));
  if (detail.cells.length) facts.push(t('diff.table.cellsChanged', { count: detail.cells.length }));
  if (detail.formatting) facts.push(t('diff.formatting'));
  return facts.length ? (
    <p className="diff-facts" data-testid="diff-table-facts">
      {facts.join(' · ')}
    </p>
  ) : null;
}

/**
 * A table compared cell by cell: side by side, each version's table with its own changes marked; inline,
 * the newer table with each changed cell's removed and added words (rows and columns removed named above it).
 */
export function TableDiff({ detail, before, after, view }: { detail: TableDetail; before: BlockTable; after: BlockTable; view: DiffView }) {
  const { t } = useTranslation('history');
  return (
    <div className="diff-table-change">
      <TableFacts detail={detail} />
      {view === 'inline' ? (
        <MarkedTable table={after} marks={marksOf(detail, 'after')} textSide="both" label={t('diff.after')} />
      ) : (
        <div className="diff-sides">
          <MarkedTable table={before} marks={marksOf(detail, 'before')} textSide="before" label={t('diff.before')} />
          <MarkedTable table={after} marks={marksOf(detail, 'after')} textSide="after" label={t('diff.after')} />
        </div>
      )}
    </div>
  );
}
