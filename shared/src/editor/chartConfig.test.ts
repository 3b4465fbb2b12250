import { describe, expect, it } from 'vitest';
import { CHART_TYPES } from '../blocks/model.js';
import { CHART_PALETTE, chartConfig, SCREEN_CANVAS } from './chartConfig.js';

describe('chart configuration', () => {
  const data = { labels: ['1', '2'], series: [{ name: 'OD', values: [1, 2] }] };
  const axes = { xLabel: 'x', yLabel: 'y' };
  const theme = { text: '#333333', grid: '#eeeeee', font: 'sans-serif', palette: CHART_PALETTE };

  it('builds chart.js configurations for every chart type', () => {
    expect(chartConfig('horizontal', data, axes, theme)).toMatchObject({ type: 'bar', options: { indexAxis: 'y' } });
    expect(chartConfig('scatter', data, axes, theme).data.datasets[0]?.data).toEqual([
      { x: 1, y: 1 },
      { x: 2, y: 2 },
    ]);
    for (const type of ['bar', 'line', 'doughnut', 'pie', 'radar'] as const) expect(chartConfig(type, data, axes, theme).type).toBe(type);
  });

  it('differs on paper from the screen only in how the canvas is sized', () => {
    const paper = { responsive: false, devicePixelRatio: 3 } as const;
    for (const type of CHART_TYPES) {
      const screen = chartConfig(type, data, axes, theme);
      const printed = chartConfig(type, data, axes, theme, paper);
      expect(screen.options).toMatchObject({ ...SCREEN_CANVAS, animation: false });
      expect(printed.options).toMatchObject({ ...paper, animation: false });
      const { responsive: _r, maintainAspectRatio: _m, ...screenRest } = screen.options ?? {};
      const { responsive: _p, devicePixelRatio: _d, ...paperRest } = printed.options ?? {};
      expect(paperRest, type).toEqual(screenRest);
      expect(printed.data, type).toEqual(screen.data);
    }
  });

  it('makes #rrggbb colours translucent and keeps a theme’s other colours as they are', () => {
    const themed = { ...theme, palette: ['rgb(1, 2, 3)', '#0891b2'] };
    const datasets = chartConfig('bar', { ...data, series: [...data.series, { name: 'pH', values: [7, 8] }] }, axes, themed).data.datasets;
    expect(datasets.map((set) => [set.backgroundColor, set.borderColor])).toEqual([
      ['rgb(1, 2, 3)', 'rgb(1, 2, 3)'],
      ['rgba(8, 145, 178, 0.75)', '#0891b2'],
    ]);
  });
});
