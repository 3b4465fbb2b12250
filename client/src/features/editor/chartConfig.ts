import type { ChartConfiguration, ChartDataset } from 'chart.js';
import type { ChartType } from '@eln/shared';
import { cellNumber, type ChartData } from '@eln/shared/editor';

export interface ChartTheme {
  text: string;
  grid: string;
  palette: readonly string[];
  font: string;
}

const alpha = (hex: string, a: number) => {
  const m = /^#([0-9a-f]{6})$/i.exec(hex);
  if (!m || !m[1]) return hex;
  const n = Number.parseInt(m[1], 16);
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${a})`;
};

/** The chart.js configuration of a chart node: its type, its data from the table, its axis labels. */
export function chartConfig(
  type: ChartType,
  data: ChartData,
  labels: { xLabel: string; yLabel: string },
  theme: ChartTheme,
): ChartConfiguration {
  const color = (i: number) => theme.palette[i % theme.palette.length] ?? '#4f46e5';
  const radial = type === 'pie' || type === 'doughnut';
  const font = { family: theme.font, size: 12 };
  const axis = (title: string) => ({
    title: { display: Boolean(title), text: title, color: theme.text, font },
    ticks: { color: theme.text, font },
    grid: { color: theme.grid },
  });

  if (type === 'scatter') {
    const datasets: ChartDataset<'scatter'>[] = data.series.map((series, i) => ({
      label: series.name,
      data: series.values.flatMap((y, index) => {
        if (y === null) return [];
        const x = cellNumber(data.labels[index] ?? '') ?? index + 1;
        return [{ x, y }];
      }),
      backgroundColor: alpha(color(i), 0.75),
      borderColor: color(i),
      pointRadius: 4,
    }));
    return {
      type: 'scatter',
      data: { datasets },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        plugins: { legend: { labels: { color: theme.text, font } } },
        scales: { x: axis(labels.xLabel), y: axis(labels.yLabel) },
      },
    };
  }

  const chartJsType = type === 'horizontal' ? 'bar' : type;
  const datasets = data.series.map((series, i) => ({
    label: series.name,
    data: series.values,
    backgroundColor: radial
      ? data.labels.map((_, j) => alpha(color(j), 0.8))
      : alpha(color(i), type === 'line' || type === 'radar' ? 0.18 : 0.75),
    borderColor: radial ? '#ffffff' : color(i),
    borderWidth: radial ? 2 : type === 'line' || type === 'radar' ? 2 : 1,
    fill: type === 'radar',
    tension: 0.25,
    spanGaps: true,
  }));
  const base = {
    responsive: true,
    maintainAspectRatio: false,
    animation: false as const,
    plugins: { legend: { labels: { color: theme.text, font } } },
  };
  if (radial) {
    return { type: chartJsType, data: { labels: data.labels, datasets }, options: base } as ChartConfiguration;
  }
  if (type === 'radar') {
    return {
      type: 'radar',
      data: { labels: data.labels, datasets },
      options: {
        ...base,
        scales: {
          r: {
            ticks: { color: theme.text, backdropColor: 'transparent', font },
            grid: { color: theme.grid },
            angleLines: { color: theme.grid },
            pointLabels: { color: theme.text, font },
          },
        },
      },
    } as ChartConfiguration;
  }
  return {
    type: chartJsType,
    data: { labels: data.labels, datasets },
    options: { ...base, indexAxis: type === 'horizontal' ? 'y' : 'x', scales: { x: axis(labels.xLabel), y: axis(labels.yLabel) } },
  } as ChartConfiguration;
}
