import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { printTable } from './database.js';

const dist = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../client/dist');

/** Goals in kB of gzip (issue 10): what the first route downloads, and what opening a note adds. */
export const BUNDLE_GOALS = { firstRoute: 200, editor: 200 } as const;

interface ManifestChunk {
  file: string;
  imports?: string[];
  isEntry?: boolean;
}
type Manifest = Record<string, ManifestChunk>;

/** The chunk files a manifest entry loads: itself and its static imports, transitively (not its `import()`s). */
function chunksOf(manifest: Manifest, key: string, into = new Set<string>()): Set<string> {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`${key} is not in the client's build manifest: was it renamed or made static?`);
  if (into.has(chunk.file)) return into;
  into.add(chunk.file);
  for (const imported of chunk.imports ?? []) chunksOf(manifest, imported, into);
  return into;
}

const kB = (bytes: number) => Number((bytes / 1024).toFixed(1));

/** "ok" or a loud "OVER GOAL", so a regression cannot hide in a table of numbers. */
export function goalStatus(gzipKb: number, goalKb: number): string {
  return gzipKb <= goalKb ? `ok (${(goalKb - gzipKb).toFixed(1)} kB headroom)` : `OVER GOAL by ${(gzipKb - goalKb).toFixed(1)} kB`;
}

/**
 * What a browser downloads, from the build manifest (client/dist/.vite/manifest.json): the first route is
 * index.html's entry with its static imports; the note screen adds NoteRoute and NoteWorkspace with theirs,
 * less what the first route and the signed-in frame (Layout) already loaded. Run `npm run build` first.
 */
export async function bundleSizes(): Promise<void> {
  const manifest = JSON.parse(
    await readFile(path.join(dist, '.vite/manifest.json'), 'utf8').catch(() => {
      throw new Error('client/dist/.vite/manifest.json is missing: run `npm run build` before the bundle bench');
    }),
  ) as Manifest;
  const entry = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  if (!entry) throw new Error('the client build manifest has no entry');
  const firstRoute = chunksOf(manifest, entry);
  const frame = chunksOf(manifest, 'src/app/Layout.tsx');
  const note = chunksOf(manifest, 'src/features/notes/NoteWorkspace.tsx', chunksOf(manifest, 'src/features/notes/NoteRoute.tsx'));
  const editor = new Set([...note].filter((file) => !firstRoute.has(file) && !frame.has(file)));
  if (!editor.size) throw new Error('the note screen adds no chunk: the editor must not ship with the first route');

  const sizes = new Map<string, { raw: number; gzip: number }>();
  for (const file of new Set(
    Object.values(manifest)
      .map((chunk) => chunk.file)
      .filter((file) => file.endsWith('.js')),
  )) {
    const content = await readFile(path.join(dist, file));
    sizes.set(file, { raw: content.length, gzip: gzipSync(content).length });
  }
  const total = (files: Set<string>) =>
    [...files].reduce((sum, file) => ({ raw: sum.raw + (sizes.get(file)?.raw ?? 0), gzip: sum.gzip + (sizes.get(file)?.gzip ?? 0) }), {
      raw: 0,
      gzip: 0,
    });
  const first = total(firstRoute);
  const opened = total(editor);
  const where = (file: string) =>
    firstRoute.has(file) ? 'first route' : editor.has(file) ? 'note screen' : frame.has(file) ? 'signed-in frame' : 'lazy';
  const chunkRows = [...sizes]
    .sort((a, b) => b[1].gzip - a[1].gzip)
    .slice(0, 14)
    .map(([file, size]) => ({ chunk: path.basename(file), loaded: where(file), kB: kB(size.raw), 'gzip kB': kB(size.gzip), goal: '' }));
  printTable('Client JavaScript (client/dist; gzip of each chunk)', [
    {
      chunk: 'FIRST ROUTE (sign-in page)',
      loaded: `${firstRoute.size} chunks`,
      kB: kB(first.raw),
      'gzip kB': kB(first.gzip),
      goal: `≤ ${BUNDLE_GOALS.firstRoute}: ${goalStatus(kB(first.gzip), BUNDLE_GOALS.firstRoute)}`,
    },
    {
      chunk: 'NOTE SCREEN adds (editor)',
      loaded: `${editor.size} chunks`,
      kB: kB(opened.raw),
      'gzip kB': kB(opened.gzip),
      goal: `≤ ${BUNDLE_GOALS.editor}: ${goalStatus(kB(opened.gzip), BUNDLE_GOALS.editor)}`,
    },
    ...chunkRows,
  ]);
}
