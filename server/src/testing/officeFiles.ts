import { PDFDocument, PDFString, StandardFonts } from 'pdf-lib';
import yazl from 'yazl';

/**
 * Small real documents of each format text is extracted from, made with a ZIP writer (yazl) and a PDF
 * writer (pdf-lib) rather than by the code under test: the smallest parts each format's specification
 * asks for, as Word, Excel, PowerPoint and LibreOffice read them.
 */

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL = 'http://schemas.openxmlformats.org/package/2006/relationships';

/** A ZIP of these text entries (the first stored uncompressed when `storeFirst`). */
export async function zipOf(entries: Array<[string, string]>, options: { storeFirst?: boolean } = {}): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  entries.forEach(([name, text], index) => {
    zip.addBuffer(Buffer.from(text, 'utf8'), name, { compress: !(options.storeFirst && index === 0) });
  });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const contentTypes = (overrides: Array<[string, string]>) =>
  `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
  '<Default Extension="xml" ContentType="application/xml"/>' +
  overrides.map(([part, type]) => `<Override PartName="${part}" ContentType="${type}"/>`).join('') +
  '</Types>';

const rels = (targets: Array<[string, string]>) =>
  `${XML}<Relationships xmlns="${PKG_REL}">` +
  targets.map(([type, target], i) => `<Relationship Id="rId${i + 1}" Type="${type}" Target="${target}"/>`).join('') +
  '</Relationships>';

/** A Word document of these paragraphs. */
export function docx(paragraphs: string[]): Promise<Buffer> {
  const body = paragraphs.map((p) => `<w:p><w:r><w:t xml:space="preserve">${escapeXml(p)}</w:t></w:r></w:p>`).join('');
  return zipOf([
    [
      '[Content_Types].xml',
      contentTypes([['/word/document.xml', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml']]),
    ],
    ['_rels/.rels', rels([[`${REL}/officeDocument`, 'word/document.xml']])],
    [
      'word/document.xml',
      `${XML}<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}<w:sectPr/></w:body></w:document>`,
    ],
  ]);
}

/** An Excel workbook of one sheet: each row's cells, strings shared as Excel writes them, numbers as numbers. */
export function xlsx(rows: Array<Array<string | number>>): Promise<Buffer> {
  const strings: string[] = [];
  const column = (i: number) => String.fromCharCode(65 + i);
  const sheetRows = rows
    .map((cells, r) => {
      const xml = cells.map((cell, c) => {
        const ref = `${column(c)}${r + 1}`;
        if (typeof cell === 'number') return `<c r="${ref}"><v>${cell}</v></c>`;
        strings.push(cell);
        return `<c r="${ref}" t="s"><v>${strings.length - 1}</v></c>`;
      });
      return `<row r="${r + 1}">${xml.join('')}</row>`;
    })
    .join('');
  const ns = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
  return zipOf([
    [
      '[Content_Types].xml',
      contentTypes([
        ['/xl/workbook.xml', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml'],
        ['/xl/worksheets/sheet1.xml', 'application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml'],
        ['/xl/sharedStrings.xml', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml'],
      ]),
    ],
    ['_rels/.rels', rels([[`${REL}/officeDocument`, 'xl/workbook.xml']])],
    [
      'xl/workbook.xml',
      `${XML}<workbook xmlns="${ns}" xmlns:r="${REL}"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ],
    [
      'xl/_rels/workbook.xml.rels',
      rels([
        [`${REL}/worksheet`, 'worksheets/sheet1.xml'],
        [`${REL}/sharedStrings`, 'sharedStrings.xml'],
      ]),
    ],
    ['xl/worksheets/sheet1.xml', `${XML}<worksheet xmlns="${ns}"><sheetData>${sheetRows}</sheetData></worksheet>`],
    [
      'xl/sharedStrings.xml',
      `${XML}<sst xmlns="${ns}" count="${strings.length}" uniqueCount="${strings.length}">${strings.map((s) => `<si><t>${escapeXml(s)}</t></si>`).join('')}</sst>`,
    ],
  ]);
}

/** A PowerPoint presentation: one slide per entry, each line a paragraph of its one text box. */
export function pptx(slides: string[][]): Promise<Buffer> {
  const p = 'http://schemas.openxmlformats.org/presentationml/2006/main';
  const a = 'http://schemas.openxmlformats.org/drawingml/2006/main';
  const slideXml = (lines: string[]) =>
    `${XML}<p:sld xmlns:p="${p}" xmlns:a="${a}" xmlns:r="${REL}"><p:cSld><p:spTree>` +
    '<p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>' +
    '<p:sp><p:nvSpPr><p:cNvPr id="2" name="Text"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/>' +
    lines.map((line) => `<a:p><a:r><a:t>${escapeXml(line)}</a:t></a:r></a:p>`).join('') +
    '</p:txBody></p:sp></p:spTree></p:cSld></p:sld>';
  const slideType = 'application/vnd.openxmlformats-officedocument.presentationml.slide+xml';
  return zipOf([
    [
      '[Content_Types].xml',
      contentTypes([
        ['/ppt/presentation.xml', 'application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml'],
        ...slides.map((_, i): [string, string] => [`/ppt/slides/slide${i + 1}.xml`, slideType]),
      ]),
    ],
    ['_rels/.rels', rels([[`${REL}/officeDocument`, 'ppt/presentation.xml']])],
    [
      'ppt/presentation.xml',
      `${XML}<p:presentation xmlns:p="${p}" xmlns:r="${REL}"><p:sldIdLst>${slides.map((_, i) => `<p:sldId id="${256 + i}" r:id="rId${i + 1}"/>`).join('')}</p:sldIdLst><p:sldSz cx="9144000" cy="6858000"/><p:notesSz cx="6858000" cy="9144000"/></p:presentation>`,
    ],
    ['ppt/_rels/presentation.xml.rels', rels(slides.map((_, i): [string, string] => [`${REL}/slide`, `slides/slide${i + 1}.xml`]))],
    ...slides.map((lines, i): [string, string] => [`ppt/slides/slide${i + 1}.xml`, slideXml(lines)]),
  ]);
}

/** An OpenDocument text of these paragraphs (its `mimetype` first and stored, as the format asks). */
export function odt(paragraphs: string[]): Promise<Buffer> {
  const office = 'urn:oasis:names:tc:opendocument:xmlns:office:1.0';
  const text = 'urn:oasis:names:tc:opendocument:xmlns:text:1.0';
  return zipOf(
    [
      ['mimetype', 'application/vnd.oasis.opendocument.text'],
      [
        'META-INF/manifest.xml',
        `${XML}<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">` +
          '<manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/>' +
          '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>',
      ],
      [
        'content.xml',
        `${XML}<office:document-content xmlns:office="${office}" xmlns:text="${text}" office:version="1.2"><office:body><office:text>` +
          paragraphs.map((para) => `<text:p>${escapeXml(para)}</text:p>`).join('') +
          '</office:text></office:body></office:document-content>',
      ],
    ],
    { storeFirst: true },
  );
}

/** A PDF of these lines (Latin text: the standard fonts have no Hangul or Kana), a page per `perPage` lines. */
export async function pdf(lines: string[], perPage = 40): Promise<Buffer> {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  for (let at = 0; at < lines.length || at === 0; at += perPage) {
    const page = document.addPage([595, 842]);
    lines.slice(at, at + perPage).forEach((line, i) => page.drawText(line, { x: 40, y: 800 - i * 19, size: 11, font }));
  }
  return Buffer.from(await document.save());
}

/** The Adobe character collections a PDF names for a font it does not embed, with the UCS-2 encoding of each. */
const CJK_FONTS = {
  ko: { ordering: 'Korea1', encoding: 'UniKS-UCS2-H', name: 'HYSMyeongJo-Medium' },
  ja: { ordering: 'Japan1', encoding: 'UniJIS-UCS2-H', name: 'HeiseiMin-W3' },
} as const;

/**
 * A PDF of Korean or Japanese lines in a font it does not embed, as Acrobat's Asian font packs and older
 * Korean and Japanese word processors write them: the text's codes are UCS-2, read through one of Adobe's
 * predefined CMaps, which a reader must have at hand (pdf.js ships them) to know the characters.
 */
export async function cjkPdf(lines: string[], language: keyof typeof CJK_FONTS): Promise<Buffer> {
  const { ordering, encoding, name } = CJK_FONTS[language];
  const document = await PDFDocument.create();
  const { context } = document;
  const descriptor = context.obj({
    Type: 'FontDescriptor',
    FontName: name,
    Flags: 6,
    FontBBox: [0, -120, 1000, 880],
    ItalicAngle: 0,
    Ascent: 880,
    Descent: -120,
    CapHeight: 880,
    StemV: 93,
  });
  const descendant = context.obj({
    Type: 'Font',
    Subtype: 'CIDFontType0',
    BaseFont: name,
    CIDSystemInfo: { Registry: PDFString.of('Adobe'), Ordering: PDFString.of(ordering), Supplement: 2 },
    FontDescriptor: context.register(descriptor),
    DW: 1000,
  });
  const font = context.register(
    context.obj({ Type: 'Font', Subtype: 'Type0', BaseFont: name, Encoding: encoding, DescendantFonts: [context.register(descendant)] }),
  );
  const page = document.addPage([595, 842]);
  const fontName = page.node.newFontDictionary('CJK', font);
  const ucs2 = (text: string) =>
    Array.from(text)
      .map((ch) => ch.charCodeAt(0).toString(16).padStart(4, '0'))
      .join('');
  const operators = lines
    .map((line, i) => `BT /${fontName.asString().slice(1)} 12 Tf 40 ${800 - i * 20} Td <${ucs2(line)}> Tj ET`)
    .join('\n');
  page.node.addContentStream(context.register(context.flateStream(operators)));
  return Buffer.from(await document.save());
}
