import { afterEach, describe, expect, it } from 'vitest';
import { asc, eq, sql } from 'drizzle-orm';
import * as Y from 'yjs';
import { rawRows } from '../../db/client.js';
import { documentUpdates } from '../../db/schema.js';
import { createTestDatabase } from '../../testing/harness.js';
import { DatabaseDocumentStore, loadDocumentState } from './documentStore.js';
import { GROUP_COMMIT_GATHER_MS, insertUpdates } from './groupCommit.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

function updateOf(entry: string): Uint8Array {
  const doc = new Y.Doc();
  doc.getArray<string>('a').push([entry]);
  return Y.encodeStateAsUpdate(doc);
}

async function entries(db: Parameters<typeof loadDocumentState>[0], name: string): Promise<string[]> {
  const state = await loadDocumentState(db, name);
  const doc = new Y.Doc();
  if (state) Y.applyUpdate(doc, state);
  return doc.getArray<string>('a').toArray().sort();
}

describe('group commit of live updates', () => {
  it('stores appends that arrive together in one transaction, each document by its own write check', async () => {
    const { database, dispose } = await createTestDatabase();
    cleanups.push(dispose);
    // Each document's check by the transaction it ran in.
    const checkedIn = new Map<string, string>();
    const store = new DatabaseDocumentStore(database, async (names, tx) => {
      const [{ transaction }] = (await rawRows<{ transaction: string }>(tx, sql`select txid_current()::text as transaction`)) as [
        { transaction: string },
      ];
      for (const name of names) checkedIn.set(name, transaction);
      return names.map((name) => name !== 'scratch.locked');
    });
    // Appends sent together share a transaction; one sent while it commits goes with the next group.
    const first = store.append('scratch.first', [updateOf('first')]);
    const together = [
      store.append('scratch.b', [updateOf('b1'), updateOf('b2')]),
      store.append('scratch.locked', [updateOf('refused')]),
      store.append('scratch.c', [updateOf('c1')]),
    ];
    await new Promise((resolve) => setTimeout(resolve, GROUP_COMMIT_GATHER_MS + 1));
    const later = store.append('scratch.later', [updateOf('later')]);
    const outcomes = await Promise.all([first, ...together, later]);
    expect(outcomes).toEqual(['stored', 'stored', 'refused', 'stored', 'stored']);
    expect(checkedIn.get('scratch.b')).toBe(checkedIn.get('scratch.c'));
    expect(checkedIn.get('scratch.b')).toBe(checkedIn.get('scratch.locked'));
    expect(checkedIn.get('scratch.first')).toBe(checkedIn.get('scratch.b'));
    expect(checkedIn.get('scratch.later')).not.toBe(checkedIn.get('scratch.b'));
    expect(await entries(database.db, 'scratch.b')).toEqual(['b1', 'b2']);
    expect(await entries(database.db, 'scratch.c')).toEqual(['c1']);
    expect(await entries(database.db, 'scratch.later')).toEqual(['later']);
    // The group's first transaction (every document or none) rolled back at the refusal; the one after
    // it stored each allowed update once.
    const rows = await database.db.select({ name: documentUpdates.documentName }).from(documentUpdates);
    expect(rows.map((row) => row.name).sort()).toEqual(['scratch.b', 'scratch.b', 'scratch.c', 'scratch.first', 'scratch.later']);
    // Nothing of a refused document is stored, whatever else its group stored.
    expect(await database.db.select().from(documentUpdates).where(eq(documentUpdates.documentName, 'scratch.locked'))).toEqual([]);
  });

  it('appends each document alone when the group fails, so one failing document delays only itself', async () => {
    const { database, dispose } = await createTestDatabase();
    cleanups.push(dispose);
    const store = new DatabaseDocumentStore(database, async (names) => {
      if (names.includes('scratch.broken')) throw new Error('write check failed');
      return names.map(() => true);
    });
    const results = await Promise.allSettled([
      store.append('scratch.first', [updateOf('first')]),
      store.append('scratch.a', [updateOf('a1')]),
      store.append('scratch.broken', [updateOf('lost')]),
      store.append('scratch.z', [updateOf('z1')]),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    const stored = await database.db.select({ name: documentUpdates.documentName }).from(documentUpdates).orderBy(asc(documentUpdates.id));
    expect(stored.map((row) => row.name).sort()).toEqual(['scratch.a', 'scratch.first', 'scratch.z']);
    expect(await entries(database.db, 'scratch.a')).toEqual(['a1']);
    expect(await entries(database.db, 'scratch.z')).toEqual(['z1']);
  });

  it('stores no update sent outside a group commit’s transaction, and says so', async () => {
    // As a statement sent behind a BEGIN that a lost connection took with it would run: alone.
    const { database, dispose } = await createTestDatabase();
    cleanups.push(dispose);
    await expect(insertUpdates(database.db, [{ documentName: 'scratch.alone', update: updateOf('alone') }])).rejects.toThrow(
      /outside their group commit/,
    );
    await expect(
      database.db.transaction((tx) => insertUpdates(tx, [{ documentName: 'scratch.unmarked', update: updateOf('unmarked') }])),
    ).rejects.toThrow(/outside their group commit/);
    expect(await database.db.select().from(documentUpdates)).toEqual([]);
  });
});
