import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { api, NOTE_STATUS, PROJECT_STATUS, type CallInput, type CallSpec } from '@eln/shared';
import type { AuthUser } from '../auth/authUser.js';
import { labNotes, noteWriters, projects } from '../db/schema.js';
import { startTestServer, type NewUser, type TestServer } from '../testing/harness.js';
import { labNoteDocumentKind } from './documentKind.js';

/** The live note kind's checks and records, asked for many notes at once (a group commit, a team's first edits). */

let server: TestServer;
let leader: NewUser & { userNo: number };
let token: string;

beforeAll(async () => {
  server = await startTestServer();
  leader = await server.createUser({ name: 'Leader Lim' });
  token = (await server.signIn(leader.userId, leader.password)).accessToken;
});
afterAll(async () => {
  await server?.stop();
});

const call = async <C extends CallSpec>(spec: C, body: CallInput<C>) => (await server.call(spec, body, { token })).body.data;

async function projectWithNotes(title: string, count: number): Promise<{ projectNo: number; noteNos: number[] }> {
  const { projectNo } = await call(api.projects.create, {
    title,
    signatureList: { department: '', user: leader.userId },
  });
  const noteNos: number[] = [];
  for (let i = 0; i < count; i += 1) noteNos.push((await call(api.notes.create, { projectNo, title: `${title} ${i}` })).labNoteNo);
  return { projectNo, noteNos };
}

describe('the live note kind, asked for a group of notes', () => {
  it('answers each note in the order asked: open notes of projects in progress only', async () => {
    const open = await projectWithNotes('Open project', 4);
    const completed = await projectWithNotes('Completed project', 1);
    const [writing, deleted, signed, requested] = open.noteNos as [number, number, number, number];
    const { db } = server.database;
    await db.update(labNotes).set({ deletedAt: new Date() }).where(eq(labNotes.noteNo, deleted));
    await db.update(labNotes).set({ status: NOTE_STATUS.signed }).where(eq(labNotes.noteNo, signed));
    await db.update(labNotes).set({ status: NOTE_STATUS.requested }).where(eq(labNotes.noteNo, requested));
    await db.update(projects).set({ status: PROJECT_STATUS.completed }).where(eq(projects.projectNo, completed.projectNo));
    const kind = labNoteDocumentKind(db);
    const ids = [writing, deleted, signed, completed.noteNos[0]!, 99_999_999, requested].map(String);
    const { answers, lockedBy, me } = await db.transaction(async (tx) => {
      const answers = await kind.writable!([...ids, `0${writing}`, 'x', String(writing)], tx);
      // A row locked `share` by one transaction alone carries its id as xmax: the asked notes are locked by this one.
      const rows = await tx
        .select({ noteNo: labNotes.noteNo, xmax: sql<string>`xmax::text`, me: sql<string>`pg_current_xact_id()::text` })
        .from(labNotes)
        .where(inArray(labNotes.noteNo, [...open.noteNos, ...completed.noteNos]));
      return { answers, lockedBy: new Map(rows.map((row) => [row.noteNo, row.xmax])), me: rows[0]?.me };
    });
    expect(answers).toEqual([true, false, false, false, false, true, false, false, true]);
    for (const noteNo of [...open.noteNos, ...completed.noteNos]) expect(lockedBy.get(noteNo)).toBe(me);
    // Only the names that can name a note are looked up; the others are answered no.
    expect(await db.transaction((tx) => kind.writable!(['01', 'x'], tx))).toEqual([false, false]);
  });

  it('records a burst of writers (each once, whatever the order) and resolves each record', async () => {
    const { noteNos } = await projectWithNotes('Team project', 2);
    const others = await Promise.all(['Writer Won', 'Writer Woo'].map((name) => server.createUser({ name })));
    const kind = labNoteDocumentKind(server.database.db);
    const people = [leader, ...others].map((user) => ({ userNo: user.userNo }) as AuthUser);
    await Promise.all(noteNos.flatMap((noteNo) => [...people, ...people].map((user) => kind.recordWriter!(user, String(noteNo)))));
    const rows = await server.database.db
      .select({ noteNo: noteWriters.noteNo, userNo: noteWriters.userNo })
      .from(noteWriters)
      .where(
        and(
          inArray(noteWriters.noteNo, noteNos),
          inArray(
            noteWriters.userNo,
            people.map((user) => user.userNo),
          ),
        ),
      );
    expect(rows.map((row) => `${row.noteNo}.${row.userNo}`).sort()).toEqual(
      noteNos.flatMap((noteNo) => people.map((user) => `${noteNo}.${user.userNo}`)).sort(),
    );
  });
});
