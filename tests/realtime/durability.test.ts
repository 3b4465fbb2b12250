import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { noteDocumentName, type SignInAnswer } from '@eln/shared';
import { appendParagraph, connectWriter, eventually, paragraphTexts, roundTrip, type LiveClient } from '../../server/src/testing/live.js';
import { ServerProcess } from './serverProcess.js';

/**
 * The durability promise, tested the hard way: writers type tagged edits while the server process is
 * killed with SIGKILL at random moments. After every restart, a fresh client must see every edit that
 * was confirmed durable, exactly once, and the writers' own copies must converge with it.
 */
const KILLS = Number(process.env.ELN_DURABILITY_KILLS ?? 30);

let server: ServerProcess;
let tokens: string[] = [];
let documentName: string;

async function call<T>(path: string, body: unknown, token?: string): Promise<T> {
  const response = await fetch(`${server.url}/server${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as { status: string; message: string; data: T };
  if (answer.status !== '0000') throw new Error(`${path}: ${answer.status} ${answer.message}`);
  return answer.data;
}

beforeAll(async () => {
  server = await ServerProcess.create();
  await server.start();
  const admin = await call<SignInAnswer>('/v1/user/signIn', { userId: 'admin@eln.local', password: ServerProcess.adminPassword });
  const userIds: string[] = [];
  for (let i = 0; i < 10; i += 1) {
    const userId = `typist${i}@durability.test`;
    await call('/v1/admin/user/create', { userId, name: `Typist ${i}`, password: 'typist-password-1', auth: { project: 'Y', schema: 'N', dropbox: 'N', template: 'N' } }, admin.accessToken);
    userIds.push(userId);
  }
  // Sessions outlive the restarts: tokens are checked against the database, which survives.
  tokens = [];
  for (const userId of userIds) tokens.push((await call<SignInAnswer>('/v1/user/signIn', { userId, password: 'typist-password-1' })).accessToken);
  const { projectNo } = await call<{ projectNo: number }>('/v1/project/create', { title: 'Durability', signatureList: { department: '', user: userIds.join(',') } }, tokens[0]);
  const { labNoteNo } = await call<{ labNoteNo: number }>('/v1/project/note/create', { projectNo, title: 'Crash test' }, tokens[0]);
  documentName = noteDocumentName(labNoteNo);
}, 120_000);

afterAll(async () => {
  await server?.dispose();
});

interface Typist {
  client: LiveClient;
  /** Each edit's tag and the client's clock right after it. */
  edits: Array<{ tag: string; clock: number }>;
}

function confirmedTags(typist: Typist): string[] {
  const durable = typist.client.durable();
  const stored = durable?.clocks[String(typist.client.doc.clientID)] ?? 0;
  return typist.edits.filter((edit) => edit.clock <= stored).map((edit) => edit.tag);
}

const random = (min: number, max: number) => min + Math.floor(Math.random() * (max - min + 1));

describe('durability under crashes', () => {
  it(`keeps every confirmed edit through ${KILLS} SIGKILLs while 2-10 writers type`, async () => {
    const confirmed = new Set<string>();
    let totalConfirmed = 0;
    for (let round = 0; round < KILLS; round += 1) {
      const count = random(2, 10);
      const typists: Typist[] = [];
      for (let i = 0; i < count; i += 1) typists.push({ client: await connectWriter(server.url, documentName, tokens[i]!), edits: [] });
      let typing = true;
      const loops = typists.map(async (typist, index) => {
        let seq = 0;
        while (typing) {
          const tag = `r${round}c${index}s${seq}`;
          appendParagraph(typist.client.doc, tag);
          typist.edits.push({ tag, clock: Y.getState(typist.client.doc.store, typist.client.doc.clientID) });
          seq += 1;
          await new Promise((resolve) => setTimeout(resolve, random(1, 15)));
        }
      });
      await new Promise((resolve) => setTimeout(resolve, random(50, 600)));
      await server.stop('SIGKILL');
      typing = false;
      await Promise.all(loops);
      for (const typist of typists) for (const tag of confirmedTags(typist)) confirmed.add(tag);
      totalConfirmed = confirmed.size;

      await server.start();
      const fresh = await connectWriter(server.url, documentName, tokens[0]!);
      const texts = paragraphTexts(fresh.doc);
      const present = new Set(texts);
      const lost = [...confirmed].filter((tag) => !present.has(tag));
      expect(lost, `round ${round}: confirmed edits missing after the crash`).toEqual([]);
      expect(texts.length, `round ${round}: duplicated edits`).toBe(present.size);

      // The writers reconnect by themselves and push what the crash kept from the server; all converge.
      await eventually(
        () => typists.every((t) => t.client.provider.isSynced) && typists.every((t) => paragraphTexts(t.client.doc).length === paragraphTexts(fresh.doc).length),
        `round ${round}: writers and a fresh client to converge`,
        30_000,
      );
      const reference = paragraphTexts(fresh.doc);
      for (const typist of typists) expect(paragraphTexts(typist.client.doc)).toEqual(reference);
      for (const typist of typists) typist.client.destroy();
      fresh.destroy();
    }
    expect(totalConfirmed).toBeGreaterThan(KILLS);
  }, 900_000);

  it('loses nothing at all on SIGTERM', async () => {
    const typists = await Promise.all([0, 1, 2].map(async (i) => ({ client: await connectWriter(server.url, documentName, tokens[i]!), tags: [] as string[] })));
    for (let n = 0; n < 40; n += 1) {
      for (const [index, typist] of typists.entries()) {
        const tag = `term-c${index}-s${n}`;
        appendParagraph(typist.client.doc, tag);
        typist.tags.push(tag);
      }
    }
    // Everything has reached the server (not necessarily stored) before the signal.
    for (const typist of typists) await roundTrip(typist.client, typists[0]!.client === typist.client ? typists[1]!.client : typists[0]!.client);
    await server.stop('SIGTERM');
    // The writers go away with their local copies, so only what the server stored can come back.
    for (const typist of typists) typist.client.destroy();
    await server.start();
    const fresh = await connectWriter(server.url, documentName, tokens[3]!);
    const present = new Set(paragraphTexts(fresh.doc));
    expect(typists.flatMap((t) => t.tags).filter((tag) => !present.has(tag))).toEqual([]);
    fresh.destroy();
  }, 120_000);
});
