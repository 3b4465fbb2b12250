import { useEffect, useRef } from 'react';
import type { Chart } from 'chart.js';
import type { ChartType } from '@eln/shared';
import { CHART_PALETTE, chartConfig, type ChartData, type ChartTheme } from '@eln/shared/editor';
import { useTheme } from '../../../theme/theme';

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

/** The current theme's colours and font; its accent leads the series colours. */
function themeColors(): ChartTheme {
  const style = getComputedStyle(document.documentElement);
  const read = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  return {
    text: read('--text-muted', '#575e6b'),
    grid: read('--border', '#e4e7ec'),
    font: read('--font-sans', 'sans-serif'),
    palette: [read('--accent', CHART_PALETTE[0]), ...CHART_PALETTE.slice(1)],
  };
}

/**
 * A chart as a picture: chart.js on a canvas, in the theme's colours, drawn again when its data, type,
 * axis labels or the theme change. The note's chart blocks and the style guide draw with it.
 */
export function ChartCanvas({
  type,
  data,
  axes,
  label,
}: {
  type: ChartType;
  data: ChartData;
  axes: { xLabel: string; yLabel: string };
  label: string;
}) {
  const theme = useTheme();
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const { xLabel, yLabel } = axes;

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    let chart: Chart | null = null;
    let cancelled = false;
    void loadChartJs().then((ChartJs) => {
      if (cancelled) return;
      chart = new ChartJs(canvas, chartConfig(type, data, { xLabel, yLabel }, themeColors()));
    });
    return () => {
      cancelled = true;
      chart?.destroy();
    };
  }, [data, type, xLabel, yLabel, theme]);

  return (
    <div className="note-chart-canvas">
      <canvas ref={canvasRef} role="img" aria-label={label} data-testid="chart-canvas" />
    </div>
  );
}
