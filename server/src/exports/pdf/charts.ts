import { createRequire } from 'node:module';
import path from 'node:path';
import type { ChartConfiguration } from 'chart.js';
import { blocksToDoc, type PmNode, type SavedBlock } from '@eln/shared';
import { CHART_PALETTE, chartAttrsOf, chartConfig, chartData, findTable, type ChartCanvas, type ChartTheme } from '@eln/shared/editor';

/**
 * Charts as pictures in the PDF. The server's HTML prints a chart as its data table; chromium then draws
 * each chart above its table with chart.js, from the same cells the editor's chart reads (`chartData` of
 * the shared editor code) and with the editor's configuration (`chartConfig`), in print colours.
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

/** The same families the printed text uses, so Korean and Japanese labels have glyphs. */
export const CHART_FONT = '"Noto Sans CJK KR", "Noto Sans CJK JP", "Noto Sans", sans-serif';

/** Print colours: dark text and light grid lines on white paper, the palette without a theme's accent. */
const PRINT_THEME: ChartTheme = { text: '#333333', grid: '#d9dce1', palette: CHART_PALETTE, font: CHART_FONT };

/** Drawn once at the canvas's own size, at three device pixels per CSS pixel, sharp on paper. */
const PAPER_CANVAS: ChartCanvas = { responsive: false, devicePixelRatio: 3 };

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
    return { label: attrs.name || attrs.label, config: data ? chartConfig(attrs.chartType, data, attrs, PRINT_THEME, PAPER_CANVAS) : null };
  });
}
