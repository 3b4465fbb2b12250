// Reads the text of one stored file off the server's event loop (files/text/extract.ts starts one worker a
// file, and terminates it past its time limit: a hostile PDF cannot hang the server). Plain JavaScript, so
// it loads the same under tsx, vitest and a build. Input: { path, format: 'pdf' | 'office' | 'text',
// extension, maxChars }; answer: { ok: true, text } or { ok: false, message }.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';

const { path: filePath, format, extension, maxChars } = workerData;

/**
 * A PDF's text with pdf.js, page by page until maxChars. Its CMaps are given: a Korean or Japanese PDF set in a
 * font it does not embed names its characters through one of Adobe's predefined CMaps, and without them
 * pdf.js reads no text from it. Nothing is rendered and no font is loaded: text needs neither.
 */
async function pdfText(bytes) {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const root = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
  const document = await pdfjs.getDocument({
    data: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    cMapUrl: `${path.join(root, 'cmaps')}/`,
    cMapPacked: true,
    standardFontDataUrl: `${path.join(root, 'standard_fonts')}/`,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: 0,
  }).promise;
  const pages = [];
  let length = 0;
  for (let number = 1; number <= document.numPages && length < maxChars; number += 1) {
    const page = await document.getPage(number);
    const content = await page.getTextContent();
    const text = content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join('');
    pages.push(text);
    length += text.length;
    page.cleanup();
  }
  return pages.join('\n');
}

/** A Word, Excel, PowerPoint or OpenDocument file's text with officeparser: no OCR, no attachments, its zip limits. */
async function officeText(bytes) {
  const { OfficeParser } = await import('officeparser');
  const ast = await OfficeParser.parseOffice(bytes, {
    fileType: extension,
    ocr: false,
    extractAttachments: false,
    decompressionLimits: { maxUncompressedBytes: 256 * 1024 * 1024 },
  });
  return (await ast.to('text')).value;
}

/** A text file as the upload check accepted it: UTF-8 (a byte order mark dropped), else CP949 as Korean Excel writes CSV. */
function plainText(bytes) {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('euc-kr').decode(bytes);
  }
}

/**
 * The text as it is kept: no NUL (PostgreSQL text holds none), runs of spaces as one, blank lines as
 * one line break, at most maxChars characters, never cut inside a surrogate pair.
 */
function kept(text) {
  const clean = text
    .replace(/\0/g, '')
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ ?\n[\s]*/g, '\n')
    .trim();
  if (clean.length <= maxChars) return clean;
  const end = /[\uDC00-\uDFFF]/.test(clean[maxChars] ?? '') ? maxChars - 1 : maxChars;
  return clean.slice(0, end);
}

try {
  const bytes = await readFile(filePath);
  const read = format === 'pdf' ? pdfText : format === 'office' ? officeText : plainText;
  parentPort.postMessage({ ok: true, text: kept(await read(bytes)) });
} catch (error) {
  parentPort.postMessage({ ok: false, message: String(error instanceof Error ? error.message : error) });
}
