import { readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { printTable } from './database.js';

const dist = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../client/dist');

/**
 * What a browser downloads: the scripts index.html loads for the first route, and each lazily loaded
 * chunk (the editor must be one of them). Run `npm run build` first.
 */
export async function bundleSizes(): Promise<void> {
  const html = await readFile(path.join(dist, 'index.html'), 'utf8').catch(() => {
    throw new Error('client/dist is missing: run `npm run build` before `npm run bench`');
  });
  const initial = new Set([...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1] as string));
  const assets = (await readdir(path.join(dist, 'assets'))).filter((f) => f.endsWith('.js'));
  const rows: Array<Record<string, string | number>> = [];
  let initialRaw = 0;
  let initialGzip = 0;
  for (const file of assets) {
    const content = await readFile(path.join(dist, 'assets', file));
    const gz = gzipSync(content).length;
    const isInitial = initial.has(`assets/${file}`);
    if (isInitial) {
      initialRaw += content.length;
      initialGzip += gz;
    }
    rows.push({ chunk: file, loaded: isInitial ? 'first route' : 'lazy', 'kB': Number((content.length / 1024).toFixed(1)), 'gzip kB': Number((gz / 1024).toFixed(1)) });
  }
  rows.sort((a, b) => Number(b['kB']) - Number(a['kB']));
  // The note screen loads its editor lazily: the workspace chunk and the editor's libraries.
  const editorRows = rows.filter((r) => /^(NoteWorkspace|editor-vendor)-/.test(String(r.chunk)));
  if (!editorRows.length) throw new Error('no lazily loaded editor chunk found: the editor must not ship with the first route');
  const sum = (key: string, list: typeof rows) => Number(list.reduce((n, r) => n + Number(r[key]), 0).toFixed(1));
  rows.unshift(
    { chunk: 'FIRST ROUTE TOTAL', loaded: 'first route', kB: Number((initialRaw / 1024).toFixed(1)), 'gzip kB': Number((initialGzip / 1024).toFixed(1)) },
    { chunk: 'EDITOR TOTAL (note screen)', loaded: 'lazy', kB: sum('kB', editorRows), 'gzip kB': sum('gzip kB', editorRows) },
  );
  printTable('Client JavaScript (client/dist)', rows.slice(0, 15));
  await stat(dist);
}
