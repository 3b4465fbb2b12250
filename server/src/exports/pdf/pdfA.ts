import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { access, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * PDF/A-2b copies through Debian's Ghostscript, when it is installed: the printed PDF is rewritten by
 * Ghostscript's pdfwrite with an sRGB output intent and XMP metadata (PDF/A-2, conformance level B:
 * the look of every page is preserved, fonts embedded). It drops the tag structure, and Ghostscript 10.0
 * drops the document information when a title is not plain ASCII (the cover still names the project).
 * There is no PDF/A validator here (veraPDF is not packaged): the tests check the XMP identification,
 * the output intent, the text and `qpdf --check`.
 */

const run = promisify(execFile);
export const GHOSTSCRIPT_PATH = '/usr/bin/gs';
/** Where Debian's ghostscript puts its sRGB profile (a stable link, then the versioned folder). */
const PROFILE_LINK = '/usr/share/color/icc/ghostscript/srgb.icc';
const GHOSTSCRIPT_SHARE = '/usr/share/ghostscript';
const CONVERT_TIMEOUT_MS = 30 * 60_000;

export interface PdfASupport {
  ghostscript: string;
  /** The sRGB ICC profile of the output intent. */
  iccProfile: string;
}

export const executable = async (file: string) =>
  access(file, constants.X_OK).then(
    () => true,
    () => false,
  );
export const readable = async (file: string) =>
  access(file, constants.R_OK).then(
    () => true,
    () => false,
  );

/** Ghostscript and its sRGB profile when both are installed, else null (the export then offers plain PDF only). */
export async function pdfASupport(ghostscript = GHOSTSCRIPT_PATH): Promise<PdfASupport | null> {
  if (!(await executable(ghostscript))) return null;
  if (await readable(PROFILE_LINK)) return { ghostscript, iccProfile: PROFILE_LINK };
  const versions = await readdir(GHOSTSCRIPT_SHARE).catch(() => [] as string[]);
  for (const version of versions.sort().reverse()) {
    const profile = path.join(GHOSTSCRIPT_SHARE, version, 'iccprofiles', 'srgb.icc');
    if (await readable(profile)) return { ghostscript, iccProfile: profile };
  }
  return null;
}

/** A PostScript string literal (parentheses and backslashes escaped). */
const psString = (value: string) => `(${value.replace(/[\\()]/g, (c) => `\\${c}`)})`;

/** The output intent Ghostscript writes into the file: sRGB, three components. */
const prefix = (iccProfile: string) =>
  [
    '%!',
    `/ICCProfile ${psString(iccProfile)} def`,
    '[/_objdef {icc_PDFA} /type /stream /OBJ pdfmark',
    '[{icc_PDFA} << /N 3 >> /PUT pdfmark',
    '[{icc_PDFA} ICCProfile (r) file /PUT pdfmark',
    '[/_objdef {OutputIntent_PDFA} /type /dict /OBJ pdfmark',
    '[{OutputIntent_PDFA} << /Type /OutputIntent /S /GTS_PDFA1 /DestOutputProfile {icc_PDFA} /OutputConditionIdentifier (sRGB) /Info (sRGB IEC61966-2.1) >> /PUT pdfmark',
    '[{Catalog} << /OutputIntents [ {OutputIntent_PDFA} ] >> /PUT pdfmark',
    '',
  ].join('\n');

/** Writes a PDF/A-2b copy of `inPath` to `outPath`. */
export async function convertToPdfA(inPath: string, outPath: string, support: PdfASupport, signal?: AbortSignal): Promise<void> {
  const work = await mkdtemp(path.join(tmpdir(), 'eln-pdfa-'));
  try {
    const prefixFile = path.join(work, 'pdfa-prefix.ps');
    await writeFile(prefixFile, prefix(support.iccProfile));
    await run(
      support.ghostscript,
      [
        '-q',
        '-dBATCH',
        '-dNOPAUSE',
        // Ghostscript 10.0's new PDF reader loses the Unicode of some CJK glyphs of chromium's fonts (text
        // then extracts wrongly); its former reader keeps them. Later versions ignore the switch.
        '-dNEWPDF=false',
        '-dPDFA=2',
        '-dPDFACompatibilityPolicy=1',
        '-sColorConversionStrategy=RGB',
        '-sDEVICE=pdfwrite',
        `--permit-file-read=${support.iccProfile}`,
        // Ghostscript reads % in the output name as a page number format.
        `-sOutputFile=${outPath.replaceAll('%', '%%')}`,
        prefixFile,
        inPath,
      ],
      { timeout: CONVERT_TIMEOUT_MS, maxBuffer: 8 << 20, signal },
    );
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
