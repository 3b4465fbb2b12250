import { createRequire } from 'node:module';
import path from 'node:path';
import type { ChartConfiguration } from 'chart.js';
import { blocksToDoc, type ChartType, type PmNode, type SavedBlock } from '@eln/shared';
import { cellNumber, chartAttrsOf, chartData, findTable, type ChartData } from '@eln/shared/editor';

/**
 * Charts as pictures in the PDF. The server's HTML prints a chart as its data table; chromium then draws
 * each chart above its table with chart.js, from the same cells the editor's chart reads (`chartData` of
 * the shared editor code), in print colours, without animation.
 */

/** A chart of the version, in document order; `config` is null when its table or range is gone (the HTML says so). */
export interface ChartPicture {
  label: string;
  config: ChartConfiguration | null;
}

/**
 * chart.js's browser bundle (UMD, defines `window.Chart`), found beside the package's main file wherever
 * the server's node_modules has it (the package's exports do not name the bundle).
 */
export function chartJsBundlePath(): string {
  return path.join(path.dirname(createRequire(import.meta.url).resolve('chart.js')), 'chart.umd.min.js');
}

const PALETTE = ['#4f46e5', '#0891b2', '#db2777', '#059669', '#d97706', '#7c3aed', '#dc2626', '#65a30d'] as const;
const TEXT = '#333333';
const GRID = '#d9dce1';
/** The same families the printed text uses, so Korean and Japanese labels have glyphs. */
export const CHART_FONT = '"Noto Sans CJK KR", "Noto Sans CJK JP", "Noto Sans", sans-serif';

/** Every chart node of the document, in the order the renderer prints them (depth first). */
function chartNodes(node: PmNode, out: PmNode[] = []): PmNode[] {
  if (node.type === 'chart') out.push(node);
  for (const child of node.content ?? []) chartNodes(child, out);
  return out;
}

export function chartPictures(blocks: readonly SavedBlock[]): ChartPicture[] {
  const doc = blocksToDoc(blocks);
  return chartNodes(doc).map((node) => {
    const attrs = chartAttrsOf(node.attrs ?? {});
    const table = findTable(doc, attrs.tableUid);
    const data = table ? chartData(table, attrs.from, attrs.to, attrs.direction, attrs.dataName) : null;
    return { label: attrs.name || attrs.label, config: data ? printChartConfig(attrs.chartType, data, attrs) : null };
  });
}

const alpha = (hex: string, a: number) => {
  const n = Number.parseInt(hex.slice(1), 16);
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${a})`;
};

/**
 * The chart.js configuration of a chart for paper: the editor's (client/src/features/editor/chartConfig.ts)
 * in fixed print colours, not responsive, no animation, drawn at three device pixels per CSS pixel.
 */
export function printChartConfig(type: ChartType, data: ChartData, labels: { xLabel: string; yLabel: string }): ChartConfiguration {
  const color = (i: number) => PALETTE[i % PALETTE.length] ?? PALETTE[0];
  const radial = type === 'pie' || type === 'doughnut';
  const font = { family: CHART_FONT, size: 12 };
  const axis = (title: string) => ({
    title: { display: Boolean(title), text: title, color: TEXT, font },
    ticks: { color: TEXT, font },
    grid: { color: GRID },
  });
  const base = {
    responsive: false,
    animation: false as const,
    devicePixelRatio: 3,
    plugins: { legend: { labels: { color: TEXT, font } } },
  };

  if (type === 'scatter') {
    const datasets = data.series.map((series, i) => ({
      label: series.name,
      data: series.values.flatMap((y, index) => (y === null ? [] : [{ x: cellNumber(data.labels[index] ?? '') ?? index + 1, y }])),
      backgroundColor: alpha(color(i), 0.75),
      borderColor: color(i),
      pointRadius: 4,
    }));
    return { type: 'scatter', data: { datasets }, options: { ...base, scales: { x: axis(labels.xLabel), y: axis(labels.yLabel) } } };
  }
  const lined = type === 'line' || type === 'radar';
  const datasets = data.series.map((series, i) => ({
    label: series.name,
    data: series.values,
    backgroundColor: radial ? data.labels.map((_, j) => alpha(color(j), 0.8)) : alpha(color(i), lined ? 0.18 : 0.75),
    borderColor: radial ? '#ffffff' : color(i),
    borderWidth: radial ? 2 : lined ? 2 : 1,
    fill: type === 'radar',
    tension: 0.25,
    spanGaps: true,
  }));
  const chartData = { labels: data.labels, datasets };
  if (radial) return { type, data: chartData, options: base } as ChartConfiguration;
  if (type === 'radar') {
    const r = {
      ticks: { color: TEXT, backdropColor: 'transparent', font },
      grid: { color: GRID },
      angleLines: { color: GRID },
      pointLabels: { color: TEXT, font },
    };
    return { type: 'radar', data: chartData, options: { ...base, scales: { r } } } as ChartConfiguration;
  }
  return {
    type: type === 'horizontal' ? 'bar' : type,
    data: chartData,
    options: { ...base, indexAxis: type === 'horizontal' ? 'y' : 'x', scales: { x: axis(labels.xLabel), y: axis(labels.yLabel) } },
  } as ChartConfiguration;
}
