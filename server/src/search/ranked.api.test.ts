import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, LIMITS, type SearchHit } from '@eln/shared';
import { searchUnits } from '../db/schema.js';
import { startTestServer, type Caller, type TestServer } from '../testing/harness.js';
import { vectorLiteral } from './tokens.js';

/**
 * Search's cap (LIMITS.searchRanked) and its two ways to a caller's notes: a scope of their notes read
 * unit by unit, or the words' GIN index (search/queries.ts). The units are written here as the indexer
 * writes them (the server's indexer stopped, so that it does not take them back from the notes' empty
 * documents).
 */
let server: TestServer;
let leader: Caller;
let admin: Caller;
let outsider: Caller;
let projectNo: number;
let otherProjectNo: number;
let crowdedNoteNo: number;
let quietNoteNo: number;

async function writeUnits(noteNo: number, project: number, texts: string[]): Promise<void> {
  await server.database.db.insert(searchUnits).values(
    texts.map((text, i) => ({
      kind: 'note' as const,
      recordNo: noteNo,
      blockUid: `pranked${String(noteNo).padStart(4, '0')}${String(i).padStart(5, '0')}`,
      projectNo: project,
      blockOrder: i + 1,
      text,
      vector: vectorLiteral([{ text, weight: 'D' }]),
    })),
  );
}

async function search(who: Caller, q: string, extra: Record<string, unknown> = {}) {
  const answer = await who(api.search.search, { q, page: 1, pageSize: 50, ...extra });
  expect(answer.body.status, JSON.stringify(answer.body)).toBe('0000');
  return answer.body.data;
}

const keys = (list: SearchHit[]) => list.map((hit) => `${hit.kind}.${hit.no}.${hit.uid}`).sort();

beforeAll(async () => {
  server = await startTestServer();
  await server.services.searchIndexer.stop();
  const leaderUser = await server.createUser({ name: 'Ranked leader' });
  leader = await server.as(leaderUser);
  admin = await server.as(server.admin);
  outsider = await server.as(await server.createUser({ name: 'Ranked outsider' }));
  const signatureList = { department: '', user: leaderUser.userId };
  projectNo = (await leader(api.projects.create, { title: 'Ranked', description: '', signatureList })).body.data.projectNo;
  otherProjectNo = (await leader(api.projects.create, { title: 'Ranked other', description: '', signatureList })).body.data.projectNo;
  crowdedNoteNo = (await leader(api.notes.create, { projectNo, title: 'Crowded' })).body.data.labNoteNo;
  quietNoteNo = (await leader(api.notes.create, { projectNo: otherProjectNo, title: 'Quiet' })).body.data.labNoteNo;
  await writeUnits(
    crowdedNoteNo,
    projectNo,
    Array.from({ length: LIMITS.searchRanked + 5 }, (_, i) => `Titration step ${i}${i % 100 === 0 ? ' with xylenol orange' : ''}`),
  );
  await writeUnits(quietNoteNo, otherProjectNo, ['Titration against xylenol orange', 'Xylenol orange indicator made up']);
});

afterAll(() => server?.stop());

describe('search ranks at most LIMITS.searchRanked matches', () => {
  it('counts up to the cap and says there are more', async () => {
    const first = await search(leader, 'titration');
    expect(first.totalCount).toBe(LIMITS.searchRanked);
    expect(first.more).toBe(true);
    expect(first.list).toHaveLength(50);
  });

  it('pages through the ranked matches to the last page, and no further', async () => {
    const pageSize = 10;
    const lastPage = LIMITS.searchRanked / pageSize;
    const last = await search(leader, 'titration', { page: lastPage, pageSize });
    expect(last.list).toHaveLength(pageSize);
    expect(last).toMatchObject({ totalCount: LIMITS.searchRanked, more: true });
    const beyond = await search(leader, 'titration', { page: lastPage + 1, pageSize });
    expect(beyond).toEqual({ list: [], totalCount: LIMITS.searchRanked, more: true });
    // Every page's hits are different ones: the ranking is one order over all of them.
    const seen = new Set<string>();
    for (let page = 1; page <= lastPage; page += 20) {
      for (const hit of (await search(leader, 'titration', { page, pageSize })).list) seen.add(`${hit.no}.${hit.uid}`);
    }
    expect(seen.size).toBe(Math.ceil(lastPage / 20) * pageSize);
  });

  it('counts exactly below the cap, with no more', async () => {
    const answer = await search(leader, 'xylenol');
    // Every hundredth unit of the crowded note (11), and both of the quiet one.
    expect(answer).toMatchObject({ totalCount: 13, more: false });
    expect(answer.list).toHaveLength(13);
  });

  it('finds the same through a scope of notes as through the index', async () => {
    // The leader reads two projects (a scope of their notes); an administrator reads all (the index);
    // an administrator's project filter is a scope again.
    const byScope = await search(leader, 'xylenol orange');
    const byIndex = await search(admin, 'xylenol orange');
    expect(keys(byScope.list)).toEqual(keys(byIndex.list));
    expect(byScope.totalCount).toBe(13);
    const filtered = await search(admin, 'xylenol orange', { projectNo: otherProjectNo });
    expect(keys(filtered.list)).toEqual(keys(byIndex.list.filter((hit) => hit.projectNo === otherProjectNo)));
    expect(filtered.totalCount).toBe(2);
  });

  it('finds nothing for a caller whose scope is empty', async () => {
    expect(await search(outsider, 'titration')).toEqual({ list: [], totalCount: 0, more: false });
  });
});
