import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cjkPdf, docx, odt, pdf, pptx, xlsx } from '../../testing/officeFiles.js';
import { extractText, textFormatOf, type Extraction, type TextFormat } from './extract.js';

/** Text extraction of each format in its worker thread, on real small files made by other writers (testing/officeFiles.ts). */

let dir: string;
const OPTIONS = { timeLimitMs: 30_000, maxChars: 100_000 };
/** Each extraction starts a worker that loads its parser (pdf.js, officeparser): seconds on a busy machine. */
const WORKERS_TIMEOUT_MS = 60_000;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'eln-extract-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function extracted(name: string, content: Buffer | string, options: Partial<typeof OPTIONS> = {}): Promise<Extraction> {
  const file = path.join(dir, name);
  await writeFile(file, content);
  const extension = path.extname(name).slice(1);
  const format = textFormatOf(extension, [{ extension: 'csv', mimeType: 'text/csv', check: 'text', signatures: [] }]);
  if (!format) throw new Error(`no format for ${name}`);
  return extractText(file, extension, format, { ...OPTIONS, ...options });
}

const textOf = (extraction: Extraction) => (extraction.ok ? extraction.text : `(unreadable: ${extraction.reason})`);

describe('text extraction', () => {
  it('reads Word, Excel, PowerPoint and OpenDocument files, Korean and Japanese included', { timeout: WORKERS_TIMEOUT_MS }, async () => {
    expect(textOf(await extracted('a.docx', await docx(['Column packing at 10 mM', '묽은염산 처리 緩衝液 조제'])))).toBe(
      'Column packing at 10 mM\n묽은염산 처리 緩衝液 조제',
    );
    const sheet = textOf(
      await extracted(
        'a.xlsx',
        await xlsx([
          ['lot', 'value'],
          ['24-117', 7.25],
        ]),
      ),
    );
    for (const cell of ['lot', 'value', '24-117', '7.25']) expect(sheet).toContain(cell);
    const slides = textOf(await extracted('a.pptx', await pptx([['Slide one 2-propanol'], ['두번째 슬라이드', 'バッファー']])));
    for (const line of ['Slide one 2-propanol', '두번째 슬라이드', 'バッファー']) expect(slides).toContain(line);
    expect(textOf(await extracted('a.odt', await odt(['OpenDocument 용액', '試薬の調製'])))).toBe('OpenDocument 용액\n試薬の調製');
  });

  it('reads PDFs, Korean and Japanese ones set in fonts they do not embed included', { timeout: WORKERS_TIMEOUT_MS }, async () => {
    expect(textOf(await extracted('a.pdf', await pdf(['pH drift in run 24-117', 'second line'])))).toBe(
      'pH drift in run 24-117\nsecond line',
    );
    expect(textOf(await extracted('ko.pdf', await cjkPdf(['묽은염산으로 세척', '완충액 조제'], 'ko')))).toBe(
      '묽은염산으로 세척\n완충액 조제',
    );
    expect(textOf(await extracted('ja.pdf', await cjkPdf(['緩衝液の調製', 'ピペット操作'], 'ja')))).toBe('緩衝液の調製\nピペット操作');
  });

  it('reads text files in UTF-8 and in CP949, as Korean Excel writes CSV', { timeout: WORKERS_TIMEOUT_MS }, async () => {
    expect(textOf(await extracted('a.txt', '\uFEFFrun 7\r\n\r\n\tbuffer  A\n'))).toBe('run 7\nbuffer A');
    // "시료,농도" in CP949.
    const cp949 = Buffer.from([0xbd, 0xc3, 0xb7, 0xe1, 0x2c, 0xb3, 0xf3, 0xb5, 0xb5]);
    expect(textOf(await extracted('a.csv', cp949))).toBe('시료,농도');
  });

  it('keeps at most maxChars characters, and no NUL', { timeout: WORKERS_TIMEOUT_MS }, async () => {
    expect(textOf(await extracted('long.txt', `a\0b ${'x'.repeat(50)}`, { maxChars: 10 }))).toBe('ab xxxxxxx');
  });

  it('answers why a damaged file could not be read', { timeout: WORKERS_TIMEOUT_MS }, async () => {
    const damagedPdf = await extracted('bad.pdf', Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >>\ngarbage'));
    expect(damagedPdf.ok).toBe(false);
    const docxBytes = await docx(['text']);
    const damagedDocx = await extracted('bad.docx', docxBytes.subarray(0, docxBytes.length / 2));
    expect(damagedDocx.ok).toBe(false);
  });

  it('terminates a worker past its time limit', { timeout: WORKERS_TIMEOUT_MS }, async () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => `Line ${i} of a long report measured at ${i % 97} mM`);
    const slow = await pdf(lines, 60);
    const started = performance.now();
    const answer = await extracted('slow.pdf', slow, { timeLimitMs: 100 });
    expect(answer).toEqual({ ok: false, reason: 'no answer within 100 ms' });
    // Answered at the limit, not when the worker would have finished (seconds for 330 pages).
    expect(performance.now() - started).toBeLessThan(3_000);
  });

  it('knows which formats text is read from', () => {
    const extra = [
      { extension: 'csv', mimeType: 'text/csv', check: 'text' as const, signatures: [] },
      { extension: 'tif', mimeType: 'image/tiff', check: 'signature' as const, signatures: ['49492a00'] },
    ];
    const formats: Record<string, TextFormat | null> = {};
    for (const extension of ['pdf', 'docx', 'xlsx', 'pptx', 'odt', 'txt', 'csv', 'tif', 'zip', 'xls', 'png'])
      formats[extension] = textFormatOf(extension, extra);
    expect(formats).toEqual({
      pdf: 'pdf',
      docx: 'office',
      xlsx: 'office',
      pptx: 'office',
      odt: 'office',
      txt: 'text',
      csv: 'text',
      tif: null,
      zip: null,
      xls: null,
      png: null,
    });
  });
});
