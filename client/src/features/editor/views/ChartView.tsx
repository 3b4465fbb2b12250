import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NodeViewWrapper, type NodeViewProps } from '@tiptap/react';
import type { Editor } from '@tiptap/core';
import type { Node as PmNode } from '@tiptap/pm/model';
import type { Chart } from 'chart.js';
import type { PmNode as JsonNode } from '@eln/shared';
import { useTheme } from '../../../theme/theme';
import { PencilIcon } from '../../../ui/icons';
import { ChartDialog, cellAddress, type ChartFields } from '../ChartDialog';
import { chartConfig } from '../chartConfig';
import { chartAttrsOf, chartData, type ChartAttrs, type ChartData } from '@eln/shared/editor';

/** chart.js loads with the first chart shown, not with the editor. */
let chartJs: Promise<typeof Chart> | null = null;
function loadChartJs(): Promise<typeof Chart> {
  chartJs ??= import('chart.js').then((m) => {
    m.Chart.register(
      m.BarController,
      m.BarElement,
      m.CategoryScale,
      m.LinearScale,
      m.LineController,
      m.LineElement,
      m.PointElement,
      m.DoughnutController,
      m.PieController,
      m.ArcElement,
      m.RadarController,
      m.RadialLinearScale,
      m.ScatterController,
      m.Filler,
      m.Legend,
      m.Tooltip,
    );
    return m.Chart;
  });
  return chartJs;
}

/** Reads the chart's numbers from its source table as the document has it now. */
function readData(editor: Editor, attrs: ChartAttrs): ChartData | null {
  const tables: PmNode[] = [];
  editor.state.doc.forEach((node) => {
    if (node.type.name === 'table' && node.attrs.blockUid === attrs.tableUid) tables.push(node);
  });
  const table = tables[0];
  return table ? chartData(table.toJSON() as JsonNode, attrs.from, attrs.to, attrs.direction, attrs.dataName) : null;
}

function themeColors() {
  const style = getComputedStyle(document.documentElement);
  const read = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  const accent = read('--accent', '#4f46e5');
  return {
    text: read('--text-muted', '#575e6b'),
    grid: read('--border', '#e4e7ec'),
    font: read('--font-sans', 'sans-serif'),
    palette: [accent, '#0891b2', '#db2777', '#059669', '#d97706', '#7c3aed', '#dc2626', '#65a30d'],
  };
}

/** A chart block: drawn with chart.js from a range of a table, and redrawn whenever that table changes. */
export function ChartView({ node, editor, selected, updateAttributes }: NodeViewProps) {
  const { t } = useTranslation('editor');
  const theme = useTheme();
  const attrs = useMemo(() => chartAttrsOf(node.attrs), [node.attrs]);
  const [data, setData] = useState<ChartData | null>(() => readData(editor, attrs));
  const [editing, setEditing] = useState(false);
  const canvasRef = useRef<HTMLCanvasElement>(null);

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

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas || !data || !hasNumbers) return;
    let chart: Chart | null = null;
    let cancelled = false;
    void loadChartJs().then((ChartJs) => {
      if (cancelled) return;
      chart = new ChartJs(canvas, chartConfig(attrs.chartType, data, { xLabel: attrs.xLabel, yLabel: attrs.yLabel }, themeColors()));
    });
    return () => {
      cancelled = true;
      chart?.destroy();
    };
  }, [data, hasNumbers, attrs.chartType, attrs.xLabel, attrs.yLabel, theme]);

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
        {editor.isEditable ? (
          <button type="button" className="icon-btn icon-btn-sm" onClick={() => setEditing(true)} aria-label={t('chart.edit')} title={t('chart.edit')} data-testid="chart-edit">
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
        <div className="note-chart-canvas">
          <canvas ref={canvasRef} role="img" aria-label={t('chart.aria', { type: t(`chart.types.${attrs.chartType}`), name: attrs.name })} data-testid="chart-canvas" />
        </div>
      )}
      {attrs.label ? <figcaption className="note-chart-label">{attrs.label}</figcaption> : null}
      {editing ? (
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
      ) : null}
    </NodeViewWrapper>
  );
}
