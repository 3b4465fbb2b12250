import { createHash, randomUUID } from 'node:crypto';
import { readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MIGRATIONS_DIR, openDatabase, type Database } from '../db/client.js';

/**
 * A PGlite database in memory, migrated, for a test server: started from a dump of an empty one with every
 * migration applied (the image). Creating PGlite's cluster (initdb inside WebAssembly) and migrating it took 3.4 s a test server on an
 * idle 2-core machine and 6.5-8.5 s beside the rest of the suite; loading this dump and finding nothing
 * to migrate took 0.75 s. A test file that finds none builds it and leaves it in the temporary
 * folder for the others (vitest gives every file fresh modules and runs several at once; files starting
 * together may each build one, and the last written stays). Its name hashes what it is made of (below):
 * a changed migration, PGlite, drizzle or this recipe never starts from an older image.
 */
export async function openMigratedPglite(folder = os.tmpdir()): Promise<Database> {
  const file = path.join(folder, `eln-pglite-image-${await imageKey()}.tar`);
  const stored = await readFile(file).catch(() => null);
  if (stored?.length) {
    try {
      return await openDatabase({ kind: 'pglite', dataDir: null, startFrom: new Blob([stored]) });
    } catch (error) {
      // Cut short or damaged (a disk that filled up, a copy from elsewhere): built again, not failing every test.
      console.warn(`The migrated PGlite image ${file} did not open (${String(error)}): building it again.`);
      await rm(file, { force: true });
    }
  }
  const image = await buildImage();
  await keep(file, image);
  return openDatabase({ kind: 'pglite', dataDir: null, startFrom: image });
}

/** The image's recipe: the key changes with it. */
const IMAGE_RECIPE = 'PGlite(), drizzle migrate, dumpDataDir("none")';

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

/**
 * Leaves the image for the test files after this one: written under a name of its own, then renamed, so
 * a file starting meanwhile reads a whole image or none. A folder that cannot take it (full, not ours)
 * costs the next files the time it saves, not their tests.
 */
async function keep(file: string, image: Blob): Promise<void> {
  const partial = `${file}.${randomUUID()}.partial`;
  try {
    await writeFile(partial, Buffer.from(await image.arrayBuffer()));
    await rename(partial, file);
  } catch (error) {
    await rm(partial, { force: true }).catch(() => undefined);
    console.warn(
      `The migrated PGlite image could not be kept in ${file} (${String(error)}): the next test servers migrate an empty PGlite.`,
    );
  }
}

/** What the image is made of: PGlite, drizzle (it records the migrations applied), the recipe, every migration. */
const imageKey = () => migratedKey(['@electric-sql/pglite', 'drizzle-orm'], IMAGE_RECIPE);

/**
 * A key for a database migrated by a recipe: it hashes the packages that build it, the recipe and every
 * migration, so that a changed one never starts from an older copy.
 */
export async function migratedKey(packages: readonly string[], recipe: string): Promise<string> {
  const hash = createHash('sha256');
  for (const name of packages) hash.update(await readFile(await packageJsonOf(name))).update('\0');
  hash.update(recipe).update('\0');
  const sql = (await readdir(MIGRATIONS_DIR)).filter((name) => name.endsWith('.sql')).sort();
  for (const name of [...sql, path.join('meta', '_journal.json')]) {
    hash
      .update(name)
      .update('\0')
      .update(await readFile(path.join(MIGRATIONS_DIR, name)))
      .update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

/** A package's package.json, found upwards from its entry point (packages' exports need not name it). */
async function packageJsonOf(packageName: string): Promise<string> {
  let dir = path.dirname(fileURLToPath(import.meta.resolve(packageName)));
  for (;;) {
    const candidate = path.join(dir, 'package.json');
    const text = await readFile(candidate, 'utf8').catch(() => null);
    if (text && (JSON.parse(text) as { name?: string }).name === packageName) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`the package.json of ${packageName} was not found`);
    dir = parent;
  }
}
