import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../db/client.js';
import { openMigratedPglite } from './pgliteImage.js';

const folder = await mkdtemp(path.join(os.tmpdir(), 'eln-pglite-image-test-'));
afterAll(() => rm(folder, { recursive: true, force: true }));

const images = async () => (await readdir(folder)).filter((name) => name.endsWith('.tar'));

async function migrationsApplied(): Promise<number> {
  const database = await openMigratedPglite(folder);
  try {
    const [row] = rowsOf<{ n: number }>(await database.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`));
    return row!.n;
  } finally {
    await database.close();
  }
}

describe('the migrated PGlite image of the test servers', () => {
  it('is built when missing, then started from; a damaged one is built again', async () => {
    const journal = (await import('../../../drizzle/meta/_journal.json', { with: { type: 'json' } })).default as { entries: unknown[] };
    expect(await migrationsApplied()).toBe(journal.entries.length);
    const [image] = await images();
    expect(image).toMatch(/^eln-pglite-image-[0-9a-f]{16}\.tar$/);
    const built = await stat(path.join(folder, image!));

    expect(await migrationsApplied()).toBe(journal.entries.length);
    expect((await stat(path.join(folder, image!))).mtimeMs, 'started from the image, not built again').toBe(built.mtimeMs);

    await writeFile(path.join(folder, image!), 'not a tar file');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(await migrationsApplied()).toBe(journal.entries.length);
    expect(warn.mock.calls.join(' ')).toContain('did not open');
    warn.mockRestore();
    expect((await stat(path.join(folder, image!))).size).toBe(built.size);
    expect(await readdir(folder), 'no partial file left').toEqual([image]);
  }, 60_000);
});
