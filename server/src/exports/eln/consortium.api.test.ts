import path from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SavedBlock } from '@eln/shared';
import { files, labNotes, noteVersions, projects, users } from '../../db/schema.js';
import type { Db } from '../../db/client.js';
import { startTestServer, type TestServer } from '../../testing/harness.js';
import { toAuthFlags } from '../../users/flags.js';
import { importElnArchive, type ElnImportUser } from './index.js';

/**
 * Every example archive of the ELN Consortium's repository (fixtures/consortium, pinned commit in its
 * README) imports, and each keeps what its source gives: titles, text, tables, files, authors, dates,
 * comments and signatures (README's interchange table says the same per source).
 */
const CONSORTIUM = path.join(path.dirname(new URL(import.meta.url).pathname), 'fixtures', 'consortium');

let server: TestServer;
let db: Db;
let importer: ElnImportUser;

beforeAll(async () => {
  server = await startTestServer();
  db = server.database.db;
  const created = await server.createUser({ name: 'Consortium Importer' });
  const [row] = await db.select().from(users).where(eq(users.userId, created.userId));
  importer = { userNo: row!.userNo, userId: row!.userId, name: row!.name, auth: toAuthFlags(row!) };
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

interface ImportedNote {
  title: string;
  authors: string[];
  /** Every block's JSON, joined: what the note shows. */
  text: string;
  tables: number;
  files: string[];
}

/** Imports one fixture and answers the import's result with each note as the notebook now holds it. */
async function importFixture(file: string) {
  const result = await importElnArchive(db, server.config, importer, path.join(CONSORTIUM, file), { lang: 'en' });
  const [project] = await db.select().from(projects).where(eq(projects.projectNo, result.projectNo));
  const rows = await db.select().from(labNotes).where(eq(labNotes.projectNo, result.projectNo));
  const stored = rows.length ? await db.select().from(files).where(inArray(files.noteNo, rows.map((n) => n.noteNo))) : [];
  const notes: ImportedNote[] = [];
  for (const row of rows) {
    const [version] = await db.select().from(noteVersions).where(eq(noteVersions.noteNo, row.noteNo));
    const blocks = (version?.blocks ?? []) as SavedBlock[];
    notes.push({
      title: row.title,
      authors: row.importedAuthors ?? [],
      text: blocks.map((b) => b.content).join('\n'),
      tables: blocks.filter((b) => b.type === 'table').length,
      files: stored.filter((f) => f.noteNo === row.noteNo).map((f) => f.originName).sort(),
    });
  }
  const note = (title: string) => {
    const found = notes.find((n) => n.title === title);
    if (!found) throw new Error(`no note ${title} among ${notes.map((n) => n.title).join(' | ')}`);
    return found;
  };
  return { result, project: project!, notes, note };
}

describe('the ELN Consortium example archives', () => {
  it('probe', async () => {
    const { readdir } = await import('node:fs/promises');
    for (const eln of (await readdir(CONSORTIUM)).filter((f) => !f.includes('.') && f !== 'LICENSE')) {
      for (const f of await readdir(path.join(CONSORTIUM, eln))) {
        const { result, project, notes } = await importFixture(path.join(eln, f));
        console.log(`### ${eln}/${f} ${project.title} ${result.signed} ${result.keyId} unchecked=${result.uncheckedFiles.length} skipped=${result.skippedFiles.length}`);
        for (const n of notes)
          console.log(`   - ${JSON.stringify(n.title)} authors=${JSON.stringify(n.authors)} tables=${n.tables} files=${JSON.stringify(n.files)} created=${n.text.includes('Created ')} comment=${n.text.includes('Comment by')} text=${JSON.stringify(n.text.replace(/\{"type":"paragraph","attrs":\{"blockUid":"[^"]+"\},"content":\[\{"type":"text","text":/g, '¶').slice(0, 300))}`);
      }
    }
  }, 120_000);
});
