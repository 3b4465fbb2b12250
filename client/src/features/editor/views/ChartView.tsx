import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NodeViewWrapper, type NodeViewProps } from '@tiptap/react';
import { useEditable } from './useEditable';
import type { Editor } from '@tiptap/core';
import type { Node as PmNode } from '@tiptap/pm/model';
import type { PmNode as JsonNode } from '@eln/shared';
import { PencilIcon } from '../../../ui/icons';
import type { ChartFields } from '../ChartDialog';
import { cellAddress } from '../cellAddress';
import { ChartCanvas } from './ChartCanvas';

/** The chart's dialog loads when a chart is first edited (the toolbar's does the same). */
const ChartDialog = lazy(() => import('../ChartDialog').then((m) => ({ default: m.ChartDialog })));
import { chartAttrsOf, chartData, type ChartAttrs, type ChartData } from '@eln/shared/editor';

/** Reads the chart's numbers from its source table as the document has it now. */
function readData(editor: Editor, attrs: ChartAttrs): ChartData | null {
  const tables: PmNode[] = [];
  editor.state.doc.forEach((node) => {
    if (node.type.name === 'table' && node.attrs.blockUid === attrs.tableUid) tables.push(node);
  });
  const table = tables[0];
  return table ? chartData(table.toJSON() as JsonNode, attrs.from, attrs.to, attrs.direction, attrs.dataName) : null;
}

/** A chart block: drawn with chart.js from a range of a table, and redrawn whenever that table changes. */
export function ChartView({ node, editor, selected, updateAttributes }: NodeViewProps) {
  const editable = useEditable(editor);
  const { t } = useTranslation('editor');
  const attrs = useMemo(() => chartAttrsOf(node.attrs), [node.attrs]);
  const [data, setData] = useState<ChartData | null>(() => readData(editor, attrs));
  const [editing, setEditing] = useState(false);

  // Follow the table: every change of the document (local or from others) re-reads the range.
  useEffect(() => {
    let last = JSON.stringify(readData(editor, attrs));
    setData(JSON.parse(last) as ChartData | null);
    const onUpdate = () => {
      const next = JSON.stringify(readData(editor, attrs));
      if (next !== last) {
        last = next;
        setData(JSON.parse(next) as ChartData | null);
      }
    };
    editor.on('update', onUpdate);
    return () => {
      editor.off('update', onUpdate);
    };
  }, [editor, attrs]);

  const hasNumbers = Boolean(data?.series.some((series) => series.values.some((value) => value !== null)));

  const submit = (fields: ChartFields) => {
    updateAttributes(fields);
    setEditing(false);
  };

  return (
    <NodeViewWrapper
      as="figure"
      className={`note-chart${selected ? ' is-selected' : ''}`}
      data-testid="chart-block"
      data-chart-type={attrs.chartType}
      data-series={data ? JSON.stringify(data.series.map((series) => series.values)) : ''}
      contentEditable={false}
    >
      <div className="note-chart-head">
        <div>
          <p className="note-chart-name">{attrs.name}</p>
          <p className="note-chart-meta">
            {t(`chart.types.${attrs.chartType}`)} · {cellAddress(attrs.from)}–{cellAddress(attrs.to)}
          </p>
        </div>
        {editable ? (
          <button
            type="button"
            className="icon-btn icon-btn-sm"
            onClick={() => setEditing(true)}
            aria-label={t('chart.edit')}
            title={t('chart.edit')}
            data-testid="chart-edit"
          >
            <PencilIcon size={15} />
          </button>
        ) : null}
      </div>
      {!data ? (
        <p className="note-chart-empty" role="status">
          {t('chart.missingTable')}
        </p>
      ) : !hasNumbers ? (
        <p className="note-chart-empty" role="status">
          {t('chart.noNumbers')}
        </p>
      ) : (
        <ChartCanvas
          type={attrs.chartType}
          data={data}
          axes={{ xLabel: attrs.xLabel, yLabel: attrs.yLabel }}
          label={t('chart.aria', { type: t(`chart.types.${attrs.chartType}`), name: attrs.name })}
        />
      )}
      {attrs.label ? <figcaption className="note-chart-label">{attrs.label}</figcaption> : null}
      {editing ? (
        <Suspense fallback={null}>
          <ChartDialog
            editing
            initial={{
              name: attrs.name,
              label: attrs.label,
              dataName: attrs.dataName,
              chartType: attrs.chartType,
              direction: attrs.direction,
              xLabel: attrs.xLabel,
              yLabel: attrs.yLabel,
            }}
            range={{ from: attrs.from, to: attrs.to }}
            onSubmit={submit}
            onClose={() => setEditing(false)}
          />
        </Suspense>
      ) : null}
    </NodeViewWrapper>
  );
}
