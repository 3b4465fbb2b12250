import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfSupport } from './support.js';

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'eln-fonts-'));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('what PDF export finds on the server', () => {
  it('names chromium first when it is not at CHROMIUM_PATH, and no package when everything is there', async () => {
    const missing = await pdfSupport({ chromiumPath: path.join(folder, 'chromium'), fonts: [] });
    expect(missing).toMatchObject({ pdf: false });
    expect(missing.missingPackages[0]).toBe('chromium');
    const present = await pdfSupport({ chromiumPath: '/usr/bin/chromium', fonts: [] });
    expect(present).toEqual({ pdf: true, pdfA: true, missingPackages: [] });
  });

  it('names a font package whose file is neither at Debian’s path nor in a font folder, and finds one installed elsewhere', async () => {
    const fonts = [
      { pkg: 'fonts-gone', file: '/nonexistent/fonts/gone.ttf' },
      { pkg: 'fonts-moved', file: '/nonexistent/fonts/moved.ttf' },
    ];
    await mkdir(path.join(folder, 'local', 'moved'), { recursive: true });
    await writeFile(path.join(folder, 'local', 'moved', 'moved.ttf'), 'font');
    const support = await pdfSupport({ chromiumPath: '/usr/bin/chromium', fonts, fontFolders: [path.join(folder, 'local')] });
    expect(support).toMatchObject({ pdf: true, missingPackages: ['fonts-gone'] });
  });

  it('names ghostscript when PDF/A cannot be made', async () => {
    const support = await pdfSupport({ chromiumPath: '/usr/bin/chromium', fonts: [], ghostscript: path.join(folder, 'gs') });
    expect(support).toEqual({ pdf: true, pdfA: false, missingPackages: ['ghostscript'] });
  });
});
