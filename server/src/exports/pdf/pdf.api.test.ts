import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { access, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findVersionBlocks, loadExportNote, loadExportProject, type ExportNote, type ExportProject } from '../projectContent.js';
import { startTestServer, type TestServer } from '../../testing/harness.js';
import { fillIn, SHARED_MESSAGES } from '@eln/shared/i18n';
import { PDF_MESSAGES } from './messages.js';
import type { Browser } from 'playwright-core';
import { PRINT_STYLE } from '../../rendering/printStyle.js';
import { ChromiumMissingError, PdfPrinter, pdfASupport, renderNotePdf, writeProjectPdf, type PdfOptions } from './index.js';
import type { PrintJob } from './printer.js';
import { buildPdfFixture, tamperWithVersion, TEXT, type PdfFixture } from './pdfFixture.js';

const run = promisify(execFile);
const SCREENSHOTS = path.resolve(import.meta.dirname, '../../../../tests/e2e/screenshots');
/** The fonts the export sets its pages in, which the order pdftotext reads them in depends on; missing ones fail the file, saying which. */
const FONTS = {
  'Liberation Sans': 'fonts-liberation',
  NanumGothic: 'fonts-nanum',
  NanumGothicCoding: 'fonts-nanum',
  IPAexGothic: 'fonts-ipaexfont-gothic',
} as const;
/** The tools the checks read PDFs with (poppler-utils, qpdf); missing ones fail the file, saying which. */
const TOOLS = {
  pdftotext: 'poppler-utils',
  pdffonts: 'poppler-utils',
  pdftoppm: 'poppler-utils',
  pdfimages: 'poppler-utils',
  pdfinfo: 'poppler-utils',
  qpdf: 'qpdf',
  gs: 'ghostscript',
} as const;

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
const optionsIn = (lang: PdfOptions['lang'], timeZone: string): PdfOptions => ({
  lang,
  timeZone,
  exportedAt,
  exportedBy: { userId: 'inspector@lab.test', name: 'Inspector Im' },
});

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
  if (absent.length)
    throw new Error(
      `the PDF tests expect the fonts the export is set in: ${absent.map(([family, pkg]) => `${family} (Debian package ${pkg})`).join(', ')}`,
    );
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

/** The Noto CJK collections' fonts (text and monospace), as a PDF names them: the slow fallback. */
const NOTO_CJK = /^NotoSans(Mono)?CJK/;

/**
 * The fonts a PDF is set in, without their subset prefixes: every font's descriptor names it, Type 3
 * fonts' too (which pdffonts lists as "[none]": chromium's bold drawn from a regular font, and the Noto CJK
 * collections), read from an uncompressed copy.
 */
async function fontNamesOf(file: string): Promise<string[]> {
  const plain = `${file}.qdf`;
  await run('qpdf', ['--qdf', '--object-streams=disable', file, plain]);
  const names = [...(await readFile(plain, 'latin1')).matchAll(/\/FontName \/(?:[A-Z]{6}\+)?([^\s/<>[\]()]+)/g)].map((match) => match[1]!);
  return [...new Set(names)].sort();
}

async function saved(name: string, pdf: Buffer): Promise<string> {
  const file = path.join(work, name);
  await writeFile(file, pdf);
  return file;
}

const note = async (noteNo: number): Promise<ExportNote> => (await loadExportNote(server.database.db, noteNo, server.config.filesDir))!;
const count = (haystack: string, needle: string) => haystack.split(needle).length - 1;
/** The pages whose header names this note (its number is printed on each of its pages). */
const pagesOfNote = (pages: string[], labNoteNumber: string) =>
  pages.map((text, i) => [text, i] as const).filter(([text]) => text.includes(labNoteNumber) && !text.includes(PDF_MESSAGES.contents.ko));

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
    for (const words of [TEXT.korean, TEXT.japanese, TEXT.english, TEXT.second, multilingual.title])
      expect(all.replace(/\s+/g, ' ')).toContain(words);
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

  it('sets English and Korean text in a Latin font first, Japanese in its Japanese font, CJK glyphs in TrueType fonts (Noto CJK prints 2-3x slower)', async () => {
    const multilingual = await note(fixture.notes.multilingual);
    const fontsIn = async (lang: PdfOptions['lang']) =>
      fontNamesOf(await saved(`fonts-${lang}.pdf`, await renderNotePdf(printer, project, multilingual, optionsIn(lang, 'UTC'))));
    for (const lang of ['en', 'ko'] as const) {
      const fonts = await fontsIn(lang);
      expect(fonts, lang).toContain('LiberationSans');
      // The note's Hangul, kana and kanji come from NanumGothic by fallback (IPAexGothic, next, has the
      // kanji NanumGothic lacks: the code test below).
      expect(fonts, lang).toContain('NanumGothic');
      expect(
        fonts.filter((font) => NOTO_CJK.test(font)),
        lang,
      ).toEqual([]);
    }
    const japanese = await fontsIn('ja');
    expect(japanese).toContain('IPAexGothic');
    // Its Korean sentence comes from NanumGothic.
    expect(japanese).toContain('NanumGothic');
    expect(japanese).not.toContain('LiberationSans');
    expect(japanese.filter((font) => NOTO_CJK.test(font))).toEqual([]);
  });

  it('shows every signature as its manifestation: printed name, account, meaning, time with zone, version and hash', async () => {
    const multilingual = await note(fixture.notes.multilingual);
    const pages = await pagesOf(await saved('note-en.pdf', await renderNotePdf(printer, project, multilingual, optionsIn('en', 'UTC'))), {
      layout: true,
    });
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
    expect(all).not.toContain(SHARED_MESSAGES.en.signature.broken);
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
    expect(all).not.toContain(SHARED_MESSAGES.en.signature.broken);
  });

  it('shows a request the project’s close cancelled as such, with the time of the close, in every language', async () => {
    const gel = await note(fixture.notes.gel);
    const closedAt = new Date('2026-03-02T09:30:00Z');
    const cancelled = {
      ...gel,
      signatures: gel.signatures.map((s) => (s.status === 'R' ? { ...s, status: 'C' as const, signedAt: closedAt, timeZone: 'UTC' } : s)),
    };
    expect(cancelled.signatures.filter((s) => s.status === 'C')).toHaveLength(1);
    for (const lang of ['en', 'ko', 'ja'] as const) {
      const all = (
        await pagesOf(await saved(`cancelled-${lang}.pdf`, await renderNotePdf(printer, project, cancelled, optionsIn(lang, 'UTC'))))
      ).join('\n');
      const words = SHARED_MESSAGES[lang].signature;
      expect(all).not.toContain(words.awaiting);
      expect(all).toContain(words.status.C);
      expect(all.replace(/\s+/g, '')).toContain(`${PDF_MESSAGES.cancelledAt[lang]}2026-03-0209:30`.replace(/\s+/g, ''));
    }
  });

  it('marks a signature whose signed content was changed in the database as broken, in every language', async () => {
    const tampered = await note(fixture.notes.tampered);
    expect(tampered.signatures[0]).toMatchObject({ intact: false });
    // Korean is checked in the project's PDF below.
    for (const lang of ['en', 'ja'] as const) {
      const all = (
        await pagesOf(await saved(`tampered-${lang}.pdf`, await renderNotePdf(printer, project, tampered, optionsIn(lang, 'UTC'))))
      ).join('\n');
      const { broken, brokenExplained } = SHARED_MESSAGES[lang].signature;
      expect(count(all, broken)).toBe(1);
      expect(all.replace(/\s+/g, '')).toContain(fillIn(brokenExplained, { version: 1 }).replace(/\s+/g, ''));
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
    // Printed lines kept, spaces joined: the chart's Hangul name is in NanumGothic's bold, its Latin part in
    // IPAexGothic's drawn bold, which pdftotext's reading order otherwise takes apart.
    const pages = (await pagesOf(file, { layout: true })).map((page) => page.replace(/ +/g, ' '));
    const chartPage = pages.findIndex((page) => page.includes(TEXT.chartName)) + 1;
    expect(chartPage).toBeGreaterThan(0);
    expect(pages[chartPage - 1]).toContain(TEXT.chartTableCell);
    expect(pages[chartPage - 1]).toContain('OD 600');
    const { stdout } = await run('pdfimages', ['-list', '-f', String(chartPage), '-l', String(chartPage), file]);
    // page num type width height ...: the chart, drawn at three pixels per CSS pixel (640 x 300).
    const images = stdout
      .split('\n')
      .slice(2)
      .filter(Boolean)
      .map((line) => line.trim().split(/\s+/));
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

  it("adds the changes since the version before it when asked, in the reader's language, and not otherwise", async () => {
    const multilingual = await note(fixture.notes.multilingual);
    const previousBlocks: PdfOptions['previousBlocks'] = (noteNo, version) =>
      version > 1 ? findVersionBlocks(server.database.db, noteNo, version - 1) : Promise.resolve(null);
    for (const [lang, zone] of [
      ['ko', 'Asia/Seoul'],
      ['ja', 'Asia/Tokyo'],
      ['en', 'Europe/Berlin'],
    ] as const) {
      const options = { ...optionsIn(lang, zone), previousBlocks };
      const file = await saved(`changes-${lang}.pdf`, await renderNotePdf(printer, project, multilingual, options));
      const all = (await pagesOf(file)).join('\n').replace(/\s+/g, ' ');
      expect(all).toContain(fillIn(PDF_MESSAGES.changesSince[lang], { version: 1 }));
      // The one-line summary of the shared diff: version 2 added one paragraph, and nothing else changed.
      expect(all).toContain(fillIn(SHARED_MESSAGES[lang].history.changes.added, { count: 1 }));
      expect(all).not.toContain(fillIn(SHARED_MESSAGES[lang].history.changes.changed, { count: 1 }));
      const section = all.slice(all.indexOf(fillIn(PDF_MESSAGES.changesSince[lang], { version: 1 })));
      expect(section).toContain(`${PDF_MESSAGES.changeAdded[lang]} ${TEXT.second}`);
      expect(section).not.toContain(TEXT.korean);
    }
    const first = multilingual.history[0]!;
    const blocks = (await findVersionBlocks(server.database.db, multilingual.noteNo, 1))!;
    const firstFile = await saved(
      'changes-first.pdf',
      await renderNotePdf(printer, project, multilingual, { ...optionsIn('en', 'UTC'), previousBlocks }, { ...first, blocks }),
    );
    const firstText = (await pagesOf(firstFile)).join('\n');
    expect(firstText).toContain(PDF_MESSAGES.changesFirst.en);
    expect(firstText).toContain(fillIn(SHARED_MESSAGES.en.history.changes.added, { count: blocks.length }));
    // Without the option, no such section.
    const plain = (
      await pagesOf(await saved('no-changes.pdf', await renderNotePdf(printer, project, multilingual, optionsIn('en', 'UTC'))))
    ).join('\n');
    expect(plain).not.toContain(fillIn(PDF_MESSAGES.changesSince.en, { version: 1 }));
    expect(plain).not.toContain(PDF_MESSAGES.changeAdded.en);
  });

  it('says so when a note was never saved', async () => {
    const draft = await note(fixture.notes.draft);
    const all = pagesOfNote(projectPages, draft.labNoteNumber)
      .map(([text]) => text)
      .join('\n');
    expect(all).toContain(PDF_MESSAGES.neverSaved.ko);
    expect(all).toContain(SHARED_MESSAGES.ko.note.notSaved);
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
        expect(text).toContain(n.latest ? `버전 ${n.latest.version}` : SHARED_MESSAGES.ko.note.notSaved);
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
    expect(outlines.map((o) => o.destpageposfrom1)).toEqual([
      1,
      ...notes.map((n) => pagesOfNote(projectPages, n.labNoteNumber)[0]![1] + 1),
    ]);
    expect(progress.at(-1)).toEqual([5, 5]);
    expect(progress.map(([done]) => done)).toEqual([1, 2, 3, 4, 5]);
  });

  it('marks the tampered signature broken, and no other', async () => {
    const tampered = await note(fixture.notes.tampered);
    const broken = SHARED_MESSAGES.ko.signature.broken;
    expect(count(projectPages.join('\n'), broken)).toBe(1);
    const [[tamperedPage]] = pagesOfNote(projectPages, tampered.labNoteNumber).filter(([text]) => text.includes(broken)) as [
      [string, number],
    ];
    expect(tamperedPage).toContain('박지민 (검토)');
    // The same reviewer's other signature (on the multilingual note) is intact.
    const multilingual = await note(fixture.notes.multilingual);
    const others = pagesOfNote(projectPages, multilingual.labNoteNumber)
      .map(([text]) => text)
      .join('\n');
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
      ['pdf-broken-signature', pageOf(tampered, SHARED_MESSAGES.ko.signature.broken)],
    ] as const;
    for (const [shot, page] of shots) {
      // Named per database: this file runs once on each, and the two runs can overlap (two test files at a time).
      const name = `${shot}-${server.database.engine}`;
      await run('pdftoppm', [
        '-png',
        '-r',
        '60',
        '-f',
        String(page),
        '-l',
        String(page),
        '-singlefile',
        projectPdfPath,
        path.join(SCREENSHOTS, name),
      ]);
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
    for (const words of [
      '반복 측정에서도 같은 값을 얻었다',
      'の吸光度は',
      '再測定でも同じ値が得られた。',
      TEXT.english,
      fixture.projectTitle,
    ])
      expect(all).toContain(words);
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

  /** A bare page to print, in the notes' stylesheet. */
  const pageJob = (body: string, charts: PrintJob['charts'] = []): PrintJob => ({
    html: `<!doctype html><html><head><meta charset="utf-8"><style>${PRINT_STYLE}</style></head><body>${body}</body></html>`,
    files: new Map(),
    charts,
    headerTemplate: '<span></span>',
    footerTemplate: '<span></span>',
    tagged: false,
  });
  const textOf = async (name: string, pdf: Buffer) => (await pagesOf(await saved(name, pdf))).join('\n');

  it('sets code in NanumGothicCoding, whose Latin letters are half a Hangul syllable wide, not in Noto Sans Mono CJK', async () => {
    const fonts = await fontNamesOf(
      await saved('code.pdf', await printer.print(pageJob('<pre><code>const 시료 = measure(1); // 観察</code></pre>'))),
    );
    // 観 is a Japanese form NanumGothicCoding lacks: it comes from IPAexGothic, a full Hangul syllable wide.
    expect(fonts).toEqual(['IPAexGothic', 'NanumGothicCoding']);
    // µ, é and − are not in NanumGothicCoding either: Liberation Mono, not the Noto CJK collection.
    expect(
      await fontNamesOf(
        await saved('code-signs.pdf', await printer.print(pageJob('<pre><code>volume = 5 µL − 2 µL; // café</code></pre>'))),
      ),
    ).toEqual(['LiberationMono', 'NanumGothicCoding']);
  });

  it('sets µ in Japanese text in Liberation Sans (neither CJK font has it), not in Noto Sans CJK', async () => {
    const japanese = pageJob('<p>試料を 5 µL ずつ分注した。</p>');
    const fonts = await fontNamesOf(
      await saved('micro-ja.pdf', await printer.print({ ...japanese, html: japanese.html.replace('<html>', '<html lang="ja">') })),
    );
    expect(fonts).toEqual(['IPAexGothic', 'LiberationSans']);
  });

  it("prints a session's pages in one tab, each a fresh page load, one at a time; the session's context ends with it", async () => {
    const own = new PdfPrinter({ executablePath: server.config.chromiumPath });
    const leaves = pageJob(`<p>first page</p><script>window.leftover = 'kept';</script>`);
    const reads = pageJob(
      `<p id="seen">not read</p><script>document.getElementById('seen').textContent = 'leftover: ' + String(window.leftover);</script>`,
    );
    let browser: Browser | null = null;
    const { texts, tabs } = await own.session(async (session) => {
      const first = await session.print(leaves);
      browser = await (own as unknown as { browser: Promise<Browser> }).browser;
      const [context] = browser.contexts();
      const [tab] = context!.pages();
      // Asked for together: printed in turn, each with its own page.
      const [second, third] = await Promise.all([session.print(reads), session.print(pageJob('<p>third page</p>'))]);
      return {
        texts: [await textOf('session-1.pdf', first), await textOf('session-2.pdf', second), await textOf('session-3.pdf', third)],
        tabs: {
          contexts: browser.contexts().length,
          sameContext: browser.contexts()[0] === context,
          pages: context!.pages().length,
          sameTab: context!.pages()[0] === tab,
        },
      };
    });
    expect(texts[0]).toContain('first page');
    expect(texts[1]).toContain('leftover: undefined');
    expect(texts[2]).toContain('third page');
    expect(tabs).toEqual({ contexts: 1, sameContext: true, pages: 1, sameTab: true });
    expect(browser!.contexts()).toHaveLength(0);
    await own.close();
  });

  it('opens a new tab after a print of the session failed, and the session prints on', async () => {
    const own = new PdfPrinter({ executablePath: server.config.chromiumPath });
    // A chart type chart.js does not know: drawing it throws in the page (the type is wrong on purpose).
    const broken = pageJob('<figure class="eln-chart"><figcaption>broken</figcaption></figure>', [
      { label: 'broken', config: { type: 'no-such-chart', data: { datasets: [] } } as never },
    ]);
    const seen = await own.session(async (session) => {
      const browser = async () => (own as unknown as { browser: Promise<Browser> }).browser;
      await session.print(pageJob('<p>printed before the failure</p>'));
      const [before] = (await browser()).contexts();
      await expect(session.print(broken)).rejects.toThrow();
      const afterFailure = (await browser()).contexts().length;
      const printed = await session.print(pageJob('<p>printed after the failure</p>'));
      const contexts = (await browser()).contexts();
      return {
        text: await textOf('after-failure.pdf', printed),
        afterFailure,
        contexts: contexts.length,
        sameAsBefore: contexts[0] === before,
      };
    });
    expect(seen.text).toContain('printed after the failure');
    // The failed print's context was closed at once, and the next print opened another.
    expect(seen).toMatchObject({ afterFailure: 0, contexts: 1, sameAsBefore: false });
    await own.close();
  });
});
