import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { access, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadExportNote, loadExportProject, type ExportNote, type ExportProject } from '../projectContent.js';
import { startTestServer, type TestServer } from '../../testing/harness.js';
import { PDF_MESSAGES } from './messages.js';
import { ChromiumMissingError, PdfPrinter, pdfASupport, renderNotePdf, writeProjectPdf, type PdfOptions } from './index.js';
import { buildPdfFixture, tamperWithVersion, TEXT, type PdfFixture } from './pdfFixture.js';

const run = promisify(execFile);
const SCREENSHOTS = path.resolve(import.meta.dirname, '../../../../tests/e2e/screenshots');
/** The fonts the export sets its pages in, which the order pdftotext reads them in depends on; missing ones fail the file, saying which. */
const FONTS = { 'Liberation Sans': 'fonts-liberation', 'Noto Sans CJK KR': 'fonts-noto-cjk', 'Noto Sans CJK JP': 'fonts-noto-cjk' } as const;
/** The tools the checks read PDFs with (poppler-utils, qpdf); missing ones fail the file, saying which. */
const TOOLS = { pdftotext: 'poppler-utils', pdffonts: 'poppler-utils', pdftoppm: 'poppler-utils', pdfimages: 'poppler-utils', pdfinfo: 'poppler-utils', qpdf: 'qpdf', gs: 'ghostscript' } as const;

let server: TestServer;
let printer: PdfPrinter;
let fixture: PdfFixture;
let work: string;
let project: ExportProject;
/** The project PDF (Korean), page by page as pdftotext reads it. */
let projectPages: string[];
let projectPdfPath: string;
const progress: Array<[number, number]> = [];

const exportedAt = new Date('2026-03-04T01:05:00Z');
const optionsIn = (lang: PdfOptions['lang'], timeZone: string): PdfOptions => ({ lang, timeZone, exportedAt, exportedBy: { userId: 'inspector@lab.test', name: 'Inspector Im' } });

async function assertTools(): Promise<void> {
  const missing: string[] = [];
  for (const [tool, pkg] of Object.entries(TOOLS)) {
    try {
      await access(`/usr/bin/${tool}`, constants.X_OK);
    } catch {
      missing.push(`${tool} (Debian package ${pkg})`);
    }
  }
  if (missing.length) throw new Error(`the PDF tests read PDFs with tools that are not installed: ${missing.join(', ')}`);
  const { stdout: families } = await run('fc-list', [':', 'family']);
  const absent = Object.entries(FONTS).filter(([family]) => !families.includes(family));
  if (absent.length) throw new Error(`the PDF tests expect the fonts the export is set in: ${absent.map(([family, pkg]) => `${family} (Debian package ${pkg})`).join(', ')}`);
}

/**
 * The PDF's text, page by page (pdftotext ends each page with a form feed). In its reading order a label
 * and its value can be pages of text apart, depending on the fonts' widths; `layout` keeps each printed
 * line a line, so a label and the value beside it are read together.
 */
async function pagesOf(file: string, { layout = false } = {}): Promise<string[]> {
  const { stdout } = await run('pdftotext', ['-enc', 'UTF-8', ...(layout ? ['-layout'] : []), file, '-'], { maxBuffer: 64 << 20 });
  return stdout.split('\f').slice(0, -1);
}

async function saved(name: string, pdf: Buffer): Promise<string> {
  const file = path.join(work, name);
  await writeFile(file, pdf);
  return file;
}

const note = async (noteNo: number): Promise<ExportNote> => (await loadExportNote(server.database.db, noteNo, server.config.filesDir))!;
const count = (haystack: string, needle: string) => haystack.split(needle).length - 1;
/** The pages whose header names this note (its number is printed on each of its pages). */
const pagesOfNote = (pages: string[], labNoteNumber: string) => pages.map((text, i) => [text, i] as const).filter(([text]) => text.includes(labNoteNumber) && !text.includes(PDF_MESSAGES.contents.ko));

beforeAll(async () => {
  await assertTools();
  server = await startTestServer();
  work = await mkdtemp(path.join(tmpdir(), 'eln-pdf-'));
  server.config.filesDir = path.join(work, 'files');
  printer = new PdfPrinter({ executablePath: server.config.chromiumPath });
  fixture = await buildPdfFixture(server, await server.listen());
  await tamperWithVersion(server, fixture.notes.tampered, 1, TEXT.tampered, TEXT.forged);
  project = (await loadExportProject(server.database.db, fixture.projectNo))!;
  const { multilingual, gel, tampered, draft } = fixture.notes;
  projectPdfPath = path.join(work, 'project.pdf');
  await writeProjectPdf(
    printer,
    server.database.db,
    fixture.projectNo,
    [multilingual, gel, tampered, draft],
    { ...optionsIn('ko', 'Asia/Seoul'), filesDir: server.config.filesDir },
    projectPdfPath,
    (done, total) => progress.push([done, total]),
  );
  projectPages = await pagesOf(projectPdfPath);
}, 120_000);

afterAll(async () => {
  await printer?.close();
  await server?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('a note as PDF', () => {
  it('holds its Korean, Japanese and English text as text, its number, version, page x / y and the export time with zone', async () => {
    const multilingual = await note(fixture.notes.multilingual);
    const file = await saved('note-ja.pdf', await renderNotePdf(printer, project, multilingual, optionsIn('ja', 'Asia/Tokyo')));
    const pages = await pagesOf(file);
    const all = pages.join('\n');
    for (const words of [TEXT.korean, TEXT.japanese, TEXT.english, TEXT.second, multilingual.title]) expect(all.replace(/\s+/g, ' ')).toContain(words);
    pages.forEach((page, i) => {
      expect(page).toContain(multilingual.labNoteNumber);
      expect(page).toContain('バージョン 2');
      expect(page).toContain(`ページ ${i + 1} / ${pages.length}`);
      expect(page).toContain('2026-03-04 10:05');
      expect(page).toContain('Asia/Tokyo');
    });
    // Japanese labels throughout, and the version history with both versions' hashes.
    expect(all).toContain(PDF_MESSAGES.history.ja);
    for (const entry of multilingual.history) expect(all).toContain(entry.blocksHash);
  });

  it('sets English and Korean text in a Latin font first, Japanese in its CJK font (a CJK first font prints 2-3x slower)', async () => {
    const multilingual = await note(fixture.notes.multilingual);
    const fontsIn = async (lang: PdfOptions['lang']) => {
      const file = await saved(`fonts-${lang}.pdf`, await renderNotePdf(printer, project, multilingual, optionsIn(lang, 'UTC')));
      return (await run('pdffonts', [file])).stdout;
    };
    for (const lang of ['en', 'ko'] as const) {
      const fonts = await fontsIn(lang);
      expect(fonts, lang).toMatch(/\+LiberationSans-/);
      // The note's Korean and Japanese still come from the CJK family, by fallback (chromium embeds it as Type 3).
      expect(fonts, lang).toContain('Type 3');
    }
    const japanese = await fontsIn('ja');
    expect(japanese).toContain('Type 3');
    expect(japanese).not.toMatch(/\+LiberationSans-/);
  });

  it('shows every signature as its manifestation: printed name, account, meaning, time with zone, version and hash', async () => {
    const multilingual = await note(fixture.notes.multilingual);
    const pages = await pagesOf(await saved('note-en.pdf', await renderNotePdf(printer, project, multilingual, optionsIn('en', 'UTC'))), { layout: true });
    const all = pages.join('\n');
    const [byReviewer, byParticipant] = multilingual.signatures;
    expect(byReviewer).toMatchObject({ status: 'T', type: 'reviewer', intact: true });
    expect(byParticipant).toMatchObject({ status: 'T', type: 'participant', intact: true });
    expect(all).toContain('박지민 (검토)');
    expect(all).toContain(`박지민 · ${fixture.reviewer.userId}`);
    expect(all).toContain('田中 陽子');
    expect(all).toMatch(/Meaning\s+Reviewer/);
    expect(all).toMatch(/Meaning\s+Participant/);
    // Each in the signer's own zone, naming it.
    expect(all).toMatch(/Signed at\s+\d{4}-\d{2}-\d{2} \d{2}:\d{2} GMT\+9 \(Asia\/Seoul\)/);
    expect(all).toMatch(/Signed at\s+\d{4}-\d{2}-\d{2} \d{2}:\d{2} GMT\+9 \(Asia\/Tokyo\)/);
    expect(all).toMatch(/Signed version\s+2/);
    expect(count(all, byReviewer!.blocksHash!)).toBeGreaterThanOrEqual(2);
    expect(all).toContain(multilingual.latest!.blocksHash);
    expect(byReviewer!.blocksHash).toBe(multilingual.latest!.blocksHash);
    expect(count(all, PDF_MESSAGES.intact.en)).toBe(2);
    expect(all).not.toContain(PDF_MESSAGES.broken.en);
    expect(all).not.toContain(PDF_MESSAGES.changedAfterSaving.en);
  });

  it('shows declined and still requested signatures as such', async () => {
    const gel = await note(fixture.notes.gel);
    const all = (await pagesOf(await saved('gel-en.pdf', await renderNotePdf(printer, project, gel, optionsIn('en', 'UTC'))))).join('\n');
    expect(all).toMatch(/Emma Wilson\s+Reviewer\s+Declined/);
    expect(all).toMatch(/Declined at\s+\d{4}-\d{2}-\d{2} \d{2}:\d{2} EST \(America\/New_York\)/);
    expect(all).toContain(TEXT.gelComment);
    expect(all).toMatch(/Pending Park\s+Participant\s+Awaiting signature/);
    expect(all).not.toContain(PDF_MESSAGES.signedHash.en);
    expect(all).not.toContain(PDF_MESSAGES.broken.en);
  });

  it('marks a signature whose signed content was changed in the database as broken, in every language', async () => {
    const tampered = await note(fixture.notes.tampered);
    expect(tampered.signatures[0]).toMatchObject({ intact: false });
    // Korean is checked in the project's PDF below.
    for (const lang of ['en', 'ja'] as const) {
      const all = (await pagesOf(await saved(`tampered-${lang}.pdf`, await renderNotePdf(printer, project, tampered, optionsIn(lang, 'UTC'))))).join('\n');
      expect(count(all, PDF_MESSAGES.broken[lang])).toBe(1);
      expect(all.replace(/\s+/g, '')).toContain(PDF_MESSAGES.brokenExplained[lang].replace('{version}', '1').replace(/\s+/g, ''));
      // Both hashes: the one signed and the content's now.
      expect(all).toContain(tampered.signatures[0]!.blocksHash!);
      expect(all).toContain(tampered.signatures[0]!.currentHash!);
      expect(all).toContain(TEXT.forged);
      // The note's facts say the printed content is not what was saved, whatever its signatures.
      expect(all).toContain(PDF_MESSAGES.changedAfterSaving[lang]);
    }
  });

  it('draws a chart as a picture above its data table', async () => {
    const file = path.join(work, 'note-ja.pdf');
    const pages = await pagesOf(file);
    const chartPage = pages.findIndex((page) => page.includes(TEXT.chartName)) + 1;
    expect(chartPage).toBeGreaterThan(0);
    expect(pages[chartPage - 1]).toContain(TEXT.chartTableCell);
    expect(pages[chartPage - 1]).toContain('OD 600');
    const { stdout } = await run('pdfimages', ['-list', '-f', String(chartPage), '-l', String(chartPage), file]);
    // page num type width height ...: the chart, drawn at three pixels per CSS pixel (640 x 300).
    const images = stdout.split('\n').slice(2).filter(Boolean).map((line) => line.trim().split(/\s+/));
    expect(images.some((cols) => cols[2] === 'image' && Number(cols[3]) === 1920 && Number(cols[4]) === 900)).toBe(true);
  });

  it('prints a stored image from its file', async () => {
    const gel = await note(fixture.notes.gel);
    const file = path.join(work, 'gel-en.pdf');
    const { stdout } = await run('pdfimages', ['-list', file]);
    // demoGelPng is 360 x 200.
    expect(stdout).toMatch(/\bimage\s+360\s+200\b/);
    expect(gel.files).toHaveLength(1);
  });

  it('says so when a note was never saved', async () => {
    const draft = await note(fixture.notes.draft);
    const all = pagesOfNote(projectPages, draft.labNoteNumber).map(([text]) => text).join('\n');
    expect(all).toContain(PDF_MESSAGES.neverSaved.ko);
    expect(all).toContain(PDF_MESSAGES.headerNoVersion.ko);
    expect(all).toContain(PDF_MESSAGES.noHistory.ko);
  });
});

describe('a project as PDF', () => {
  it('starts with the cover: project, leader, participants, status, dates, note count, export time with zone and who exported', () => {
    const cover = projectPages[0]!;
    expect(cover).toContain(fixture.projectTitle);
    expect(cover).toContain(PDF_MESSAGES.coverKind.ko);
    expect(cover).toContain(`Leader Lee · ${fixture.leader.userId}`);
    for (const name of ['Writer Woo', '박지민', '田中 陽子', 'Emma Wilson', 'Pending Park']) expect(cover).toContain(name);
    expect(cover).toMatch(/상태\s+진행 중/);
    expect(cover).toMatch(/내보낸 노트 수\s+4/);
    expect(cover).toMatch(/내보낸 시각\s+2026-03-04 10:05 GMT\+9 \(Asia\/Seoul\)/);
    expect(cover).toContain('Inspector Im · inspector@lab.test');
    expect(cover).toContain('표지 1 / 1');
  });

  it('then each note in order, each page with its note number, version and page x / y of that note, and the contents say where', async () => {
    const notes = await Promise.all(Object.values(fixture.notes).map(note));
    const cover = projectPages[0]!;
    let expectedStart = 2;
    for (const n of notes) {
      const pages = pagesOfNote(projectPages, n.labNoteNumber);
      expect(pages.length).toBeGreaterThan(0);
      // Consecutive, in the order asked for, right after the previous note.
      expect(pages.map(([, i]) => i + 1)).toEqual(pages.map((_, k) => expectedStart + k));
      pages.forEach(([text], k) => {
        expect(text).toContain(`페이지 ${k + 1} / ${pages.length}`);
        expect(text).toContain(n.latest ? `버전 ${n.latest.version}` : PDF_MESSAGES.headerNoVersion.ko);
        expect(text).toContain('Asia/Seoul');
      });
      expect(cover).toMatch(new RegExp(`${n.labNoteNumber}[\\s\\S]*?${expectedStart}–${expectedStart + pages.length - 1}`));
      expectedStart += pages.length;
    }
    expect(expectedStart - 1).toBe(projectPages.length);
    const { stdout } = await run('pdfinfo', [projectPdfPath]);
    expect(stdout).toMatch(new RegExp(`Pages:\\s+${projectPages.length}\\b`));
    expect(stdout).toMatch(new RegExp(`Title:\\s+${fixture.projectTitle}\n`));
    // The merged file is well formed (cross-reference table, page tree, outline), with a bookmark per part.
    await run('qpdf', ['--check', projectPdfPath]);
    const { stdout: json } = await run('qpdf', ['--json', '--json-key=outlines', projectPdfPath]);
    const outlines = (JSON.parse(json) as { outlines: Array<{ title: string; destpageposfrom1: number }> }).outlines;
    expect(outlines.map((o) => o.title)).toEqual([fixture.projectTitle, ...notes.map((n) => `${n.labNoteNumber} · ${n.title}`)]);
    expect(outlines.map((o) => o.destpageposfrom1)).toEqual([1, ...notes.map((n) => pagesOfNote(projectPages, n.labNoteNumber)[0]![1] + 1)]);
    expect(progress.at(-1)).toEqual([5, 5]);
    expect(progress.map(([done]) => done)).toEqual([1, 2, 3, 4, 5]);
  });

  it('marks the tampered signature broken, and no other', async () => {
    const tampered = await note(fixture.notes.tampered);
    const broken = PDF_MESSAGES.broken.ko;
    expect(count(projectPages.join('\n'), broken)).toBe(1);
    const [[tamperedPage]] = pagesOfNote(projectPages, tampered.labNoteNumber).filter(([text]) => text.includes(broken)) as [[string, number]];
    expect(tamperedPage).toContain('박지민 (검토)');
    // The same reviewer's other signature (on the multilingual note) is intact.
    const multilingual = await note(fixture.notes.multilingual);
    const others = pagesOfNote(projectPages, multilingual.labNoteNumber).map(([text]) => text).join('\n');
    expect(others).toContain('박지민 (검토)');
    expect(count(others, PDF_MESSAGES.intact.ko)).toBe(2);
  });

  it('renders the cover, a note, its chart with a signature, and a broken signature as pictures to look at', async () => {
    await mkdir(SCREENSHOTS, { recursive: true });
    const multilingual = await note(fixture.notes.multilingual);
    const tampered = await note(fixture.notes.tampered);
    const pageOf = (n: ExportNote, has: string) => pagesOfNote(projectPages, n.labNoteNumber).find(([text]) => text.includes(has))![1] + 1;
    const shots = [
      ['pdf-cover', 1],
      ['pdf-note', pageOf(multilingual, TEXT.korean)],
      ['pdf-chart-signature', pageOf(multilingual, TEXT.chartName)],
      ['pdf-broken-signature', pageOf(tampered, PDF_MESSAGES.broken.ko)],
    ] as const;
    for (const [shot, page] of shots) {
      // Named per database: this file runs once on each, and the two runs can overlap (two test files at a time).
      const name = `${shot}-${server.database.engine}`;
      await run('pdftoppm', ['-png', '-r', '60', '-f', String(page), '-l', String(page), '-singlefile', projectPdfPath, path.join(SCREENSHOTS, name)]);
      const png = await readFile(path.join(SCREENSHOTS, `${name}.png`));
      expect(png.subarray(1, 4).toString()).toBe('PNG');
      // A4 at 60 dpi: 210 mm is 496 px, give or take chromium's rounding of the page size.
      expect(Math.abs(png.readUInt32BE(16) - 496)).toBeLessThanOrEqual(1);
    }
  });
});

describe('PDF/A-2b', () => {
  it('is made through Ghostscript when asked: identified in XMP, with an sRGB output intent, text still extractable', async () => {
    const support = await pdfASupport();
    expect(support).not.toBeNull();
    const file = path.join(work, 'project-a.pdf');
    const result = await writeProjectPdf(
      printer,
      server.database.db,
      fixture.projectNo,
      [fixture.notes.multilingual],
      { ...optionsIn('ja', 'Asia/Tokyo'), filesDir: server.config.filesDir, pdfA: support },
      file,
    );
    expect(result).toMatchObject({ notes: 1, pdfA: true });
    const { stdout: meta } = await run('pdfinfo', ['-meta', file]);
    expect(meta).toMatch(/pdfaid:part=['"]2['"]/);
    expect(meta).toMatch(/pdfaid:conformance=['"]B['"]/);
    const { stdout: info } = await run('pdfinfo', [file]);
    expect(info).toMatch(new RegExp(`Pages:\\s+${result.pages}\\b`));
    const bytes = await readFile(file);
    expect(bytes.includes('/OutputIntents')).toBe(true);
    expect(bytes.includes('/GTS_PDFA1')).toBe(true);
    await run('qpdf', ['--check', file]);
    // Ghostscript splits lines into runs (pdftotext then reads numbers apart from their words), and
    // writes some kanji that are also Kangxi radicals (田, 子, 行) as the radical: the phrases are checked.
    const all = (await pagesOf(file)).join('\n').replace(/\s+/g, ' ');
    for (const words of ['반복 측정에서도 같은 값을 얻었다', 'の吸光度は', '再測定でも同じ値が得られた。', TEXT.english, fixture.projectTitle]) expect(all).toContain(words);
    // Nothing is left beside it.
    expect((await readdir(work)).filter((name) => name.includes('partial'))).toEqual([]);
  });
});

describe('the printer', () => {
  it('fails clearly when chromium is missing', async () => {
    const missing = new PdfPrinter({ executablePath: '/nonexistent/chromium' });
    const multilingual = await note(fixture.notes.multilingual);
    const attempt = renderNotePdf(missing, project, multilingual, optionsIn('en', 'UTC'));
    await expect(attempt).rejects.toBeInstanceOf(ChromiumMissingError);
    await expect(attempt).rejects.toThrow('chromium was not found at /nonexistent/chromium');
    await missing.close();
  });

  it('starts the browser again when it died, and refuses to print once closed', async () => {
    const own = new PdfPrinter({ executablePath: server.config.chromiumPath });
    const draft = await note(fixture.notes.draft);
    expect((await renderNotePdf(own, project, draft, optionsIn('en', 'UTC'))).subarray(0, 5).toString()).toBe('%PDF-');
    const running = await (own as unknown as { browser: Promise<{ close(): Promise<void> }> }).browser;
    await running.close();
    expect((await renderNotePdf(own, project, draft, optionsIn('en', 'UTC'))).subarray(0, 5).toString()).toBe('%PDF-');
    await own.close();
    await expect(renderNotePdf(own, project, draft, optionsIn('en', 'UTC'))).rejects.toThrow('closed');
  });
});
