import type { ChartConfiguration, ChartDataset } from 'chart.js';
import type { ChartType } from '../blocks/model.js';
import { cellNumber, type ChartData } from './chartData.js';

/**
 * The chart.js configuration of a chart node, one for the editor's canvas and the PDF's picture, so that a
 * printout draws what the screen drew. Only the colours and font (the theme) and how the canvas is sized
 * differ. Type-only use of chart.js: the caller loads chart.js itself (the browser with the first chart,
 * the printer as its browser bundle).
 */

export interface ChartTheme {
  text: string;
  grid: string;
  palette: readonly string[];
  font: string;
}

/** The series colours in order; the screen puts the theme's accent first, paper keeps the first. */
export const CHART_PALETTE = ['#4f46e5', '#0891b2', '#db2777', '#059669', '#d97706', '#7c3aed', '#dc2626', '#65a30d'] as const;

/**
 * How the chart fills its canvas: on screen it follows its box, whose CSS gives the height; on paper it is
 * drawn once at the canvas's own size, at a resolution of its own.
 */
export type ChartCanvas = { responsive: true; maintainAspectRatio: false } | { responsive: false; devicePixelRatio: number };

export const SCREEN_CANVAS: ChartCanvas = { responsive: true, maintainAspectRatio: false };

/** A #rrggbb colour with transparency; any other colour (a theme's own) as it is. */
const alpha = (hex: string, a: number) => {
  const m = /^#([0-9a-f]{6})$/i.exec(hex);
  if (!m || !m[1]) return hex;
  const n = Number.parseInt(m[1], 16);
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${a})`;
};

/** The chart.js configuration of a chart node: its type, its data from the table, its axis labels, never animated. */
export function chartConfig(
  type: ChartType,
  data: ChartData,
  labels: { xLabel: string; yLabel: string },
  theme: ChartTheme,
  canvas: ChartCanvas = SCREEN_CANVAS,
): ChartConfiguration {
  const color = (i: number) => theme.palette[i % theme.palette.length] ?? CHART_PALETTE[0];
  const radial = type === 'pie' || type === 'doughnut';
  const lined = type === 'line' || type === 'radar';
  const font = { family: theme.font, size: 12 };
  const axis = (title: string) => ({
    title: { display: Boolean(title), text: title, color: theme.text, font },
    ticks: { color: theme.text, font },
    grid: { color: theme.grid },
  });
  const base = {
    ...canvas,
    animation: false as const,
    plugins: { legend: { labels: { color: theme.text, font } } },
  };

  if (type === 'scatter') {
    const datasets: ChartDataset<'scatter'>[] = data.series.map((series, i) => ({
      label: series.name,
      data: series.values.flatMap((y, index) => (y === null ? [] : [{ x: cellNumber(data.labels[index] ?? '') ?? index + 1, y }])),
      backgroundColor: alpha(color(i), 0.75),
      borderColor: color(i),
      pointRadius: 4,
    }));
    return { type: 'scatter', data: { datasets }, options: { ...base, scales: { x: axis(labels.xLabel), y: axis(labels.yLabel) } } };
  }

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
  const tableData = { labels: data.labels, datasets };
  if (radial) return { type, data: tableData, options: base };
  if (type === 'radar') {
    const r = {
      ticks: { color: theme.text, backdropColor: 'transparent', font },
      grid: { color: theme.grid },
      angleLines: { color: theme.grid },
      pointLabels: { color: theme.text, font },
    };
    return { type: 'radar', data: tableData, options: { ...base, scales: { r } } };
  }
  return {
    type: type === 'horizontal' ? 'bar' : type,
    data: tableData,
    options: { ...base, indexAxis: type === 'horizontal' ? 'y' : 'x', scales: { x: axis(labels.xLabel), y: axis(labels.yLabel) } },
  };
}
