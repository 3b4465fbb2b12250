import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { executable, pdfASupport, readable } from './pdfA.js';

/**
 * What the PDF export needs on the server, found the way the export looks for it: chromium at
 * CHROMIUM_PATH (without it no PDF is printed, and a .eln archive is made without its PDF copies), the
 * fonts the print style names (without them Korean and Japanese text prints as empty boxes), and
 * Ghostscript with its sRGB profile (PDF/A copies). Missing pieces are named as the Debian packages that
 * bring them, for `apt-get install`.
 */

export interface PdfSupport {
  /** chromium is installed: PDFs can be printed. */
  pdf: boolean;
  /** Ghostscript and its sRGB profile are installed: PDF/A-2b copies can be made. */
  pdfA: boolean;
  /** The Debian packages the server lacks for these, in install order. */
  missingPackages: string[];
}

/** Each font package by one file it installs (Debian's path), as the print style (rendering/printStyle.ts) names them. */
export const PDF_FONT_PACKAGES: ReadonlyArray<{ pkg: string; file: string }> = [
  { pkg: 'fonts-liberation', file: '/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf' },
  { pkg: 'fonts-nanum', file: '/usr/share/fonts/truetype/nanum/NanumGothic.ttf' },
  { pkg: 'fonts-ipaexfont-gothic', file: '/usr/share/fonts/opentype/ipaexfont-gothic/ipaexg.ttf' },
  { pkg: 'fonts-noto-cjk', file: '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc' },
];

/** Other folders fontconfig reads by default, where a font installed by hand is looked for by its file name. */
const FONT_FOLDERS = ['/usr/share/fonts', '/usr/local/share/fonts'];

async function fontFileNames(folders: readonly string[]): Promise<Set<string>> {
  const names = new Set<string>();
  for (const folder of folders) {
    const found = await readdir(folder, { recursive: true }).catch(() => [] as string[]);
    for (const entry of found) names.add(path.basename(entry));
  }
  return names;
}

export interface PdfSupportProbe {
  chromiumPath: string;
  fonts?: ReadonlyArray<{ pkg: string; file: string }>;
  fontFolders?: readonly string[];
  ghostscript?: string;
}

/** Whether chromium is where the printer starts it from (CHROMIUM_PATH), as the printer itself checks. */
export const chromiumInstalled = (chromiumPath: string): Promise<boolean> => executable(chromiumPath);

/** Whether chromium, the fonts and Ghostscript are where the export looks for them. */
export async function pdfSupport({
  chromiumPath,
  fonts = PDF_FONT_PACKAGES,
  fontFolders = FONT_FOLDERS,
  ghostscript,
}: PdfSupportProbe): Promise<PdfSupport> {
  const pdf = await chromiumInstalled(chromiumPath);
  const pdfA = (await pdfASupport(ghostscript)) !== null;
  const notAtDebiansPath: Array<{ pkg: string; file: string }> = [];
  for (const font of fonts) if (!(await readable(font.file))) notAtDebiansPath.push(font);
  const elsewhere = notAtDebiansPath.length ? await fontFileNames(fontFolders) : new Set<string>();
  const missingFonts = notAtDebiansPath.filter((font) => !elsewhere.has(path.basename(font.file))).map((font) => font.pkg);
  return {
    pdf,
    pdfA,
    missingPackages: [...(pdf ? [] : ['chromium']), ...missingFonts, ...(pdfA ? [] : ['ghostscript'])],
  };
}
