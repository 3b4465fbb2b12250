import { createHash } from 'node:crypto';
import { readdir, readFile, rename, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MIGRATIONS_DIR } from '../db/client.js';

/**
 * A dump of an empty PGlite database with every migration applied, for the test servers to start from.
 * Creating PGlite's cluster (initdb inside WebAssembly) and migrating it took 3.4 s a test server on an
 * idle 2-core machine and 6.5-8.5 s beside the rest of the suite; loading this dump and finding nothing
 * to migrate took 0.75 s (2026-11-28). The first test file that needs it builds it and leaves it in the
 * temporary folder for the others (vitest gives every file fresh modules and runs several at once), named
 * by PGlite's version and the migrations' text: a changed migration or PGlite never starts from an old one.
 */
export async function migratedPgliteImage(): Promise<Blob> {
  const file = path.join(os.tmpdir(), `eln-pglite-image-${await imageKey()}.tar`);
  const stored = await readFile(file).catch(() => null);
  if (stored) return new Blob([stored]);
  const image = await buildImage();
  // Written under a name of its own, then renamed: a file starting meanwhile reads a whole image or none.
  const partial = `${file}.${process.pid}.${Date.now()}.partial`;
  await writeFile(partial, Buffer.from(await image.arrayBuffer()));
  await rename(partial, file);
  return image;
}

async function buildImage(): Promise<Blob> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  const client = new PGlite();
  try {
    await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_DIR });
    // Uncompressed (42 MB): gzip saved the disk but took 0.45 s more to load each time.
    return await client.dumpDataDir('none');
  } finally {
    await client.close();
  }
}

/** What the image depends on: PGlite's version, and every migration with the journal that orders them. */
async function imageKey(): Promise<string> {
  const hash = createHash('sha256');
  hash.update(await readFile(await pglitePackageJson()));
  const sql = (await readdir(MIGRATIONS_DIR)).filter((name) => name.endsWith('.sql')).sort();
  for (const name of [...sql, path.join('meta', '_journal.json')]) {
    hash.update(name).update('\0').update(await readFile(path.join(MIGRATIONS_DIR, name))).update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

/** PGlite's package.json, found upwards from its entry point (its exports do not name the file). */
async function pglitePackageJson(): Promise<string> {
  let dir = path.dirname(fileURLToPath(import.meta.resolve('@electric-sql/pglite')));
  for (;;) {
    const candidate = path.join(dir, 'package.json');
    const text = await readFile(candidate, 'utf8').catch(() => null);
    if (text && (JSON.parse(text) as { name?: string }).name === '@electric-sql/pglite') return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('the @electric-sql/pglite package.json was not found');
    dir = parent;
  }
}
