import { sql } from 'drizzle-orm';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { api, noteDocumentName, type CallInput, type CallSpec } from '@eln/shared';
import { buildApp } from '../../server/src/app.js';
import { loadConfig } from '../../server/src/config.js';
import { openDatabase } from '../../server/src/db/client.js';
import { documentUpdates } from '../../server/src/db/schema.js';
import { bootstrap } from '../../server/src/system/bootstrap.js';
import { injectCall } from './calls.js';
import { freshPostgres } from './database.js';
import { realisticBodyUpdate } from './realisticNote.js';

/**
 * The notebook of the capacity and soak benchmarks: users in one project and notes with a realistic body
 * (realisticNote.ts), on a fresh PostgreSQL
 * database. The server that carries the load runs in a process of its own (capacityServer.ts); this
 * builds the data with a server of its own, closed before that one starts.
 */

export const BENCH_ADMIN_PASSWORD = 'bench-admin-password';
export const BENCH_USER_PASSWORD = 'bench-editor-password';
const CREATE_AT_ONCE = 8;

/** The server's configuration for the benchmarks with many clients on loopback, past the per-address limit. */
export function capacityConfig(dataDir: string) {
  return loadConfig({
    LOG_LEVEL: 'silent',
    ELN_ADMIN_PASSWORD: BENCH_ADMIN_PASSWORD,
    CLIENT_DIST: '/nonexistent',
    COLLAB_SOCKETS_PER_ADDRESS: '100000',
    DATA_DIR: dataDir,
  });
}

export interface CapacityDataset {
  databaseUrl: string;
  projectNo: number;
  /** Live document names of the notes, and their numbers. */
  notes: Array<{ labNoteNo: number; name: string }>;
  /** The project's members (each may write every note). */
  userIds: string[];
  /** The server's DATA_DIR (files, exports), removed with the database. */
  dataDir: string;
  /** A small project of saved notes to export (soak.bench.ts), when asked for. */
  exportProjectNo: number | null;
  drop(): Promise<void>;
}

/**
 * `noteCount` notes with realistic bodies in one project of `userCount` members, on a fresh PostgreSQL
 * database; and, if `exportNotes`, a second project of that many saved notes.
 */
export async function capacityDataset(noteCount: number, userCount: number, exportNotes = 0): Promise<CapacityDataset> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'eln-capacity-'));
  const target = await freshPostgres();
  const database = await openDatabase({ kind: 'postgres', url: target.url });
  const config = capacityConfig(dataDir);
  const app = await buildApp(config, database);
  let built: Omit<CapacityDataset, 'databaseUrl' | 'dataDir' | 'drop'>;
  try {
    await bootstrap(database.db, config);
    const call = <C extends CallSpec>(spec: C, body: CallInput<C>, token?: string) => injectCall(app, spec, body, token);
    const admin = (await call(api.auth.signIn, { userId: config.admin.email, password: BENCH_ADMIN_PASSWORD })).accessToken;
    const userIds = Array.from({ length: userCount }, (_, i) => `editor${i}@bench.test`);
    for (const [i, userId] of userIds.entries())
      await call(
        api.users.create,
        { userId, name: `Editor ${i}`, password: BENCH_USER_PASSWORD, auth: { project: 'Y', schema: 'N', dropbox: 'N', template: 'N' } },
        admin,
      );
    const owner = (await call(api.auth.signIn, { userId: userIds[0]!, password: BENCH_USER_PASSWORD })).accessToken;
    const project = async (title: string, count: number) => {
      const signatureList = { department: '', user: userIds.join(',') };
      const { projectNo } = await call(api.projects.create, { title, signatureList }, owner);
      const notes: CapacityDataset['notes'] = [];
      // A few at a time: 10,000 notes one by one took minutes of the soak's quarter of an hour.
      for (let i = 0; i < count; i += CREATE_AT_ONCE) {
        const made = await Promise.all(
          Array.from({ length: Math.min(CREATE_AT_ONCE, count - i) }, (_, k) =>
            call(api.notes.create, { projectNo, title: `${title} ${i + k}` }, owner),
          ),
        );
        notes.push(...made.map(({ labNoteNo }) => ({ labNoteNo, name: noteDocumentName(labNoteNo) })));
      }
      for (let i = 0; i < notes.length; i += 100)
        await database.db
          .insert(documentUpdates)
          .values(notes.slice(i, i + 100).map(({ labNoteNo, name }) => ({ documentName: name, update: realisticBodyUpdate(labNoteNo) })));
      return { projectNo, notes };
    };
    const { projectNo, notes } = await project('Capacity', noteCount);
    let exportProjectNo: number | null = null;
    if (exportNotes) {
      const exported = await project('Export', exportNotes);
      for (const { labNoteNo } of exported.notes) await call(api.notes.saveVersion, { labNoteNo, version: 0, blockList: [] }, owner);
      exportProjectNo = exported.projectNo;
    }
    // Indexed now, as a notebook's notes are: the first server measured would otherwise index them all.
    await app.services.searchIndexer.indexAll(() => undefined);
    // Settled, as a notebook's database is: autovacuum and fresh statistics after the bulk inserts would
    // otherwise take PostgreSQL's CPU during the first steps measured (500 editors measured worse than 1,000).
    await database.db.execute(sql`vacuum analyze`);
    built = { projectNo, notes, userIds, exportProjectNo };
  } finally {
    await app.close();
    await database.close();
  }
  return {
    ...built,
    databaseUrl: target.url,
    dataDir,
    async drop() {
      await target.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
