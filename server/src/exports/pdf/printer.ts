import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import type { Browser, Page, Route } from 'playwright-core';
import { chartJsBundlePath, type ChartPicture } from './charts.js';
import { PAGE_MARGIN } from './style.js';
import { DRAW_CHARTS_SCRIPT, EXPORT_ORIGIN, UNLINK_EXPORT_URLS_SCRIPT } from './pageScripts.js';

/**
 * Prints HTML pages to PDF with Debian's chromium through playwright-core (no browser is downloaded). One
 * per server process: the browser starts with the first print, serves every later one (each in its own
 * context, so no cookie, cache or script of one print reaches the next), starts again when it died, and
 * stops with `close()`.
 */

export { EXPORT_ORIGIN };
export const exportFileUrl = (fileId: string) => `${EXPORT_ORIGIN}/files/${encodeURIComponent(fileId)}`;

export interface PrintFile {
  absolutePath: string;
  mimeType: string;
}

export interface PrintJob {
  /** A whole HTML page; it may load nothing but `exportFileUrl` of `files`. */
  html: string;
  files: ReadonlyMap<string, PrintFile>;
  /** The page's charts in document order (one per `figure.eln-chart`), drawn above their data tables. */
  charts: readonly ChartPicture[];
  headerTemplate: string;
  footerTemplate: string;
  /** A tagged (accessible) PDF; parts merged into a larger file are printed untagged (merging drops tags). */
  tagged: boolean;
}

export interface PdfPrinterOptions {
  executablePath: string;
  /** Prints running at once; the others wait (each holds a page and its PDF in memory). */
  maxConcurrentPrints?: number;
}

/** chromium is not where the configuration says; the PDF export cannot run until it is installed. */
export class ChromiumMissingError extends Error {
  readonly code = 'CHROMIUM_MISSING';
  constructor(readonly executablePath: string) {
    super(`chromium was not found at ${executablePath}: install Debian's chromium (apt-get install chromium fonts-liberation fonts-noto-cjk) or set CHROMIUM_PATH`);
    this.name = 'ChromiumMissingError';
  }
}

export class PrinterClosedError extends Error {
  constructor() {
    super('the PDF printer has been closed (the server is stopping)');
    this.name = 'PrinterClosedError';
  }
}

const LAUNCH_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-dev-shm-usage', '--font-render-hinting=none'];
const PRINT_TIMEOUT_MS = 120_000;

export class PdfPrinter {
  private browser: Promise<Browser> | null = null;
  private closed = false;
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  private readonly maxConcurrent: number;
  private chartJs: string | null = null;

  constructor(private readonly options: PdfPrinterOptions) {
    this.maxConcurrent = Math.max(1, options.maxConcurrentPrints ?? 2);
  }

  /** The page printed as a PDF. A print that fails because the browser died is tried once more on a new one. */
  async print(job: PrintJob): Promise<Buffer> {
    await this.acquire();
    try {
      try {
        return await this.printOnce(job);
      } catch (error) {
        if (this.closed || error instanceof ChromiumMissingError || (await this.browserAlive())) throw error;
        return await this.printOnce(job);
      }
    } finally {
      this.release();
    }
  }

  /** Stops the browser; prints under way fail, later ones are refused. */
  async close(): Promise<void> {
    this.closed = true;
    const browser = this.browser;
    this.browser = null;
    if (browser) await (await browser.catch(() => null))?.close().catch(() => undefined);
  }

  private async printOnce(job: PrintJob): Promise<Buffer> {
    const browser = await this.launched();
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(PRINT_TIMEOUT_MS);
      await this.routeRequests(page, job.files);
      await page.setContent(job.html, { waitUntil: 'load' });
      await page.evaluate(UNLINK_EXPORT_URLS_SCRIPT);
      if (job.charts.some((chart) => chart.config)) await this.drawCharts(page, job.charts);
      await page.evaluate('document.fonts.ready.then(() => true)');
      return await page.pdf({
        format: 'A4',
        printBackground: true,
        displayHeaderFooter: true,
        headerTemplate: job.headerTemplate,
        footerTemplate: job.footerTemplate,
        margin: PAGE_MARGIN,
        tagged: job.tagged,
        outline: false,
      });
    } finally {
      await context.close().catch(() => undefined);
    }
  }

  /**
   * Nothing leaves the machine: the note's files are answered from disk (one at a time, as chromium asks),
   * anything else is refused.
   */
  private async routeRequests(page: Page, files: ReadonlyMap<string, PrintFile>): Promise<void> {
    await page.route('**/*', (route) => route.abort('blockedbyclient'));
    await page.route(`${EXPORT_ORIGIN}/files/**`, async (route: Route) => {
      const fileId = decodeURIComponent(new URL(route.request().url()).pathname.slice('/files/'.length));
      const file = files.get(fileId);
      if (!file) return route.fulfill({ status: 404, body: '' });
      try {
        await route.fulfill({ path: file.absolutePath, contentType: file.mimeType, headers: { 'cache-control': 'no-store' } });
      } catch {
        await route.fulfill({ status: 404, body: '' }).catch(() => undefined);
      }
    });
  }

  /** Draws each chart above its table and turns it into a picture; fails when one could not be drawn. */
  private async drawCharts(page: Page, charts: readonly ChartPicture[]): Promise<void> {
    this.chartJs ??= chartJsBundlePath();
    await page.addScriptTag({ path: this.chartJs });
    const expected = charts.filter((chart) => chart.config).length;
    const drawn = await page.evaluate(`(${DRAW_CHARTS_SCRIPT})(${JSON.stringify(charts)})`);
    if (drawn !== expected) throw new Error(`the PDF's charts were not drawn: ${String(drawn)} of ${expected}`);
  }

  /** The running browser, started on first use and again after it died (a crash, or killed from outside). */
  private launched(): Promise<Browser> {
    if (this.closed) return Promise.reject(new PrinterClosedError());
    if (!this.browser) {
      const attempt = this.launch();
      this.browser = attempt;
      const forget = () => {
        if (this.browser === attempt) this.browser = null;
      };
      attempt.then((browser) => browser.on('disconnected', forget), forget);
    }
    return this.browser;
  }

  private async launch(): Promise<Browser> {
    const { executablePath } = this.options;
    try {
      await access(executablePath, constants.X_OK);
    } catch {
      throw new ChromiumMissingError(executablePath);
    }
    // Loaded on the first print, not at start: playwright-core is the heaviest module of the server to load.
    const { chromium } = await import('playwright-core');
    return chromium.launch({ executablePath, args: LAUNCH_ARGS });
  }

  /** Whether the browser still runs; a dead one is forgotten at once, so the next print starts another. */
  private async browserAlive(): Promise<boolean> {
    const current = this.browser;
    const browser = await current?.catch(() => null);
    if (browser?.isConnected()) return true;
    if (this.browser === current) this.browser = null;
    return false;
  }

  private async acquire(): Promise<void> {
    if (this.closed) throw new PrinterClosedError();
    if (this.running < this.maxConcurrent) {
      this.running += 1;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  /** Hands the slot straight to the next waiting print, or frees it. */
  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running -= 1;
  }
}
