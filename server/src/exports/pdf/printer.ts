import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { chartJsBundlePath, type ChartPicture } from './charts.js';
import { PAGE_MARGIN } from './style.js';
import { DRAW_CHARTS_SCRIPT, EXPORT_ORIGIN, UNLINK_EXPORT_URLS_SCRIPT } from './pageScripts.js';

/**
 * Prints HTML pages to PDF with Debian's chromium through playwright-core (no browser is downloaded). One
 * per server process: the browser starts with the first print, serves every later one, starts again when
 * it died, and stops with `close()`.
 *
 * Prints happen in sessions: a session is one browser context with one tab, opened at its first print and
 * closed with it, so no cookie, cache, storage or script of one session reaches another. An export prints
 * all its notes in one session (`printer.session(...)`); `printer.print(job)` is a session of one print.
 * Within a session each print is a new page load in the same tab (a fresh window and document; cookies
 * and storage are the session's, i.e. one export's, and the printed pages run none of their own), which
 * keeps the tab's renderer warm: on chromium 156 a print in a new context took 1.5-2 s, a print in the
 * warm tab 0.5 s (a new context and tab alone 0.4-0.5 s, and the first print in a renderer twice as long
 * as the later ones).
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

/** What prints a page: the printer (each print in a session of its own) or one of its sessions. */
export interface Printer {
  print(job: PrintJob): Promise<Buffer>;
}

export interface PdfPrinterOptions {
  executablePath: string;
  /**
   * Prints running at once; the others wait (each holds a page and its PDF in memory). An idle session
   * keeps its tab outside these slots: the export queue, one job at a time a process, bounds those.
   */
  maxConcurrentPrints?: number;
}

/** chromium is not where the configuration says; the PDF export cannot run until it is installed. */
export class ChromiumMissingError extends Error {
  readonly code = 'CHROMIUM_MISSING';
  constructor(readonly executablePath: string) {
    super(
      `chromium was not found at ${executablePath}: install Debian's chromium (apt-get install chromium fonts-liberation fonts-nanum fonts-ipaexfont-gothic fonts-noto-cjk) or set CHROMIUM_PATH`,
    );
    this.name = 'ChromiumMissingError';
  }
}

export class PrinterClosedError extends Error {
  constructor(message = 'the PDF printer has been closed (the server is stopping)') {
    super(message);
    this.name = 'PrinterClosedError';
  }
}

/**
 * The browser has no way out but the routes of its contexts. What playwright's routes never see (a
 * connection opened ahead as a hint, WebRTC) goes through a proxy that does not exist, for every address
 * including this machine's own (`<-loopback>`), with no direct fallback; WebRTC may not use UDP outside
 * that proxy, so it sends nothing at all.
 */
const NO_WAY_OUT_ARGS = [
  '--proxy-server=http://proxy.invalid:9',
  '--proxy-bypass-list=<-loopback>',
  '--host-resolver-rules=MAP * ~NOTFOUND',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
];
const LAUNCH_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-dev-shm-usage',
  '--font-render-hinting=none',
  ...NO_WAY_OUT_ARGS,
];
const PRINT_TIMEOUT_MS = 120_000;
/** The address each print's page is loaded from (answered by the session with the print's HTML). */
const PAGE_URL = `${EXPORT_ORIGIN}/print`;

/** What a session needs of its printer: the browser and a print slot. */
interface PrinterHost {
  browser(): Promise<Browser>;
  browserAlive(): Promise<boolean>;
  isClosed(): boolean;
  acquire(): Promise<void>;
  release(): void;
}

export class PdfPrinter implements Printer {
  private browser: Promise<Browser> | null = null;
  private closed = false;
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  private readonly maxConcurrent: number;
  private readonly host: PrinterHost = {
    browser: () => this.launched(),
    browserAlive: () => this.browserAlive(),
    isClosed: () => this.closed,
    acquire: () => this.acquire(),
    release: () => this.release(),
  };

  constructor(private readonly options: PdfPrinterOptions) {
    this.maxConcurrent = Math.max(1, options.maxConcurrentPrints ?? 2);
  }

  /** The page printed as a PDF, alone in its session. */
  print(job: PrintJob): Promise<Buffer> {
    return this.session((session) => session.print(job));
  }

  /** Runs `use` with a session of its own, closed when `use` ends, however it ends. */
  async session<T>(use: (session: PrintSession) => Promise<T>): Promise<T> {
    if (this.closed) throw new PrinterClosedError();
    const session = new PrintSession(this.host);
    try {
      return await use(session);
    } finally {
      await session.close();
    }
  }

  /** Stops the browser; prints under way fail, later ones are refused. */
  async close(): Promise<void> {
    this.closed = true;
    const browser = this.browser;
    this.browser = null;
    if (browser) await (await browser.catch(() => null))?.close().catch(() => undefined);
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
    if (this.closed) {
      this.release();
      throw new PrinterClosedError();
    }
  }

  /** Hands the slot straight to the next waiting print, or frees it. */
  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running -= 1;
  }
}

interface Tab {
  browser: Browser;
  context: BrowserContext;
  page: Page;
}

/**
 * One browser context and its tab, printing one page at a time (prints asked for together wait their
 * turn). A print that fails because the browser died is tried once more on a new one; after any failure
 * the tab is closed and the next print opens another.
 */
export class PrintSession implements Printer {
  private tab: Promise<Tab> | null = null;
  /** The print under way: the tab's routes answer its page and its files. */
  private current: PrintJob | null = null;
  private turn: Promise<unknown> = Promise.resolve();
  private chartJs: string | null = null;
  private closed = false;

  constructor(private readonly host: PrinterHost) {}

  print(job: PrintJob): Promise<Buffer> {
    const printed = this.turn.then(() => this.printInTurn(job));
    this.turn = printed.catch(() => undefined);
    return printed;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.turn;
    await this.closeTab();
  }

  private async printInTurn(job: PrintJob): Promise<Buffer> {
    if (this.closed) throw new PrinterClosedError('the print session has ended');
    await this.host.acquire();
    try {
      try {
        return await this.printOnce(job);
      } catch (error) {
        // The tab's own browser, not the printer's current one: another session may have started a new
        // browser after this tab's died.
        const browserDied = await this.tabBrowserDied();
        await this.closeTab();
        if (this.host.isClosed() || error instanceof ChromiumMissingError || !browserDied) throw error;
        // The printer forgets a dead browser now rather than at its 'disconnected' event: the retry starts another.
        await this.host.browserAlive();
        return await this.printOnce(job);
      }
    } catch (error) {
      await this.closeTab();
      throw error;
    } finally {
      this.current = null;
      this.host.release();
    }
  }

  private async printOnce(job: PrintJob): Promise<Buffer> {
    const { page } = await this.openTab();
    this.current = job;
    await page.goto(PAGE_URL, { waitUntil: 'load' });
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
  }

  /** The session's tab, or a new one when there is none or its browser died (prints take turns, so one at a time). */
  private async openTab(): Promise<Tab> {
    const open = await this.tab?.catch(() => null);
    if (open?.browser.isConnected()) return open;
    await this.closeTab();
    this.tab = this.newTab();
    return this.tab;
  }

  /** Whether the failed print's browser is gone (a tab that could not even be opened counts as such). */
  private async tabBrowserDied(): Promise<boolean> {
    const tab = await this.tab?.catch(() => null);
    return !tab?.browser.isConnected();
  }

  private async newTab(): Promise<Tab> {
    const browser = await this.host.browser();
    // No service worker: its requests would pass by the context's routes.
    const context = await browser.newContext({ serviceWorkers: 'block' });
    try {
      await this.routeRequests(context);
      const page = await context.newPage();
      page.setDefaultTimeout(PRINT_TIMEOUT_MS);
      return { browser, context, page };
    } catch (error) {
      await context.close().catch(() => undefined);
      throw error;
    }
  }

  private async closeTab(): Promise<void> {
    const tab = this.tab;
    this.tab = null;
    if (tab) await (await tab.catch(() => null))?.context.close().catch(() => undefined);
  }

  /**
   * Nothing leaves the machine: the print's page and the note's files are answered from memory and disk
   * (one at a time, as chromium asks), every other request of the context (its frames, popups and workers
   * too) is refused, and every websocket is closed before it connects. The routes are the context's, not
   * the page's: a popup the page opens is a page of its own, which the page's routes would not cover.
   */
  private async routeRequests(context: BrowserContext): Promise<void> {
    await context.routeWebSocket(/.*/, (socket) => socket.close({ code: 1008, reason: 'the print page opens no socket' }));
    await context.route('**/*', (route) => route.abort('blockedbyclient'));
    await context.route(PAGE_URL, (route: Route) => {
      const html = this.current?.html;
      if (html === undefined) return route.fulfill({ status: 404, body: '' });
      return route.fulfill({ body: html, contentType: 'text/html; charset=utf-8', headers: { 'cache-control': 'no-store' } });
    });
    await context.route(`${EXPORT_ORIGIN}/files/**`, async (route: Route) => {
      const fileId = decodeURIComponent(new URL(route.request().url()).pathname.slice('/files/'.length));
      const file = this.current?.files.get(fileId);
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
}
