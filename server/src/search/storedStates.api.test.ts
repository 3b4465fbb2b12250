import { sql } from 'drizzle-orm';
import * as Y from 'yjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseDocumentStore, loadDocumentState } from '../collab/persistence/documentStore.js';
import { rawRows, type Database } from '../db/client.js';
import { documentUpdates } from '../db/schema.js';
import { createTestDatabase } from '../testing/harness.js';
import { StoredStates } from './storedStates.js';

let database: Database;
let dispose: () => Promise<void>;
beforeAll(async () => ({ database, dispose } = await createTestDatabase()));
afterAll(() => dispose());

let documents = 0;
const freshName = () => `labnote.${900_000 + (documents += 1)}`;

/** A writer of one document: each `push` is an update of its own, returned for storing. */
function writer(): { push: (entry: string) => Uint8Array } {
  const doc = new Y.Doc();
  return {
    push(entry) {
      const before = Y.encodeStateVector(doc);
      doc.getArray<string>('entries').push([entry]);
      return Y.encodeStateAsUpdate(doc, before);
    },
  };
}

async function store(name: string, update: Uint8Array, id?: number): Promise<void> {
  await database.db.insert(documentUpdates).values({ documentName: name, update, ...(id === undefined ? {} : { id }) });
}

/** An id taken from the table's sequence now, for a row stored later (an append that commits late). */
async function reserveId(): Promise<number> {
  const [row] = await rawRows<{ id: string }>(database.db, sql`select nextval('document_updates_id_seq')::text as id`);
  return Number(row!.id);
}

const entriesOf = (doc: Y.Doc | null | undefined) => (doc ? doc.getArray<string>('entries').toArray().sort() : null);

/** The entries loadDocumentState gives: what the cache must always answer. */
async function storedEntries(name: string): Promise<string[] | null> {
  const state = await loadDocumentState(database.db, name);
  if (!state) return null;
  const doc = new Y.Doc();
  Y.applyUpdate(doc, state);
  return entriesOf(doc);
}

async function loaded(states: StoredStates, name: string): Promise<string[] | null> {
  return entriesOf((await states.load(database.db, [name])).get(name));
}

describe('stored states kept between reads', () => {
  it('applies only what was stored since the last read', async () => {
    const name = freshName();
    const states = new StoredStates();
    const one = writer();
    const updates = [one.push('a'), one.push('b')];
    for (const update of updates) await store(name, update);
    expect(await loaded(states, name)).toEqual(['a', 'b']);
    const later = one.push('c');
    await store(name, later);
    expect(await loaded(states, name)).toEqual(['a', 'b', 'c']);
    // Each row applied once: the bytes kept are those of the three rows, not of rows read again.
    expect(states.size()).toEqual({ documents: 1, bytes: [...updates, later].reduce((sum, u) => sum + u.byteLength, 0) });
    expect(await loaded(states, name)).toEqual(await storedEntries(name));
  });

  it('finds a row that committed late under an id below one already read', async () => {
    const name = freshName();
    const states = new StoredStates();
    const one = writer();
    const reserved = await reserveId();
    await store(name, one.push('first'));
    expect(await loaded(states, name)).toEqual(['first']);
    // Inserted under the id taken before the row already read, as an append whose commit came later.
    await store(name, writer().push('late'), reserved);
    expect(await loaded(states, name)).toEqual(['first', 'late']);
    await store(name, one.push('after'));
    expect(await loaded(states, name)).toEqual(['after', 'first', 'late']);
  });

  it('follows a compaction, before and after the rows it folded were read', async () => {
    const name = freshName();
    const states = new StoredStates();
    const store_ = new DatabaseDocumentStore(database);
    const one = writer();
    for (const entry of ['a', 'b', 'c']) await store(name, one.push(entry));
    expect(await loaded(states, name)).toEqual(['a', 'b', 'c']);
    // Rows read, then folded; and a row never read, folded before being read.
    await store(name, one.push('d'));
    expect(await store_.compact(name)).toBe(4);
    expect(await loaded(states, name)).toEqual(['a', 'b', 'c', 'd']);
    await store(name, one.push('e'));
    expect(await loaded(states, name)).toEqual(['a', 'b', 'c', 'd', 'e']);
    await store(name, one.push('f'));
    await store_.compact(name);
    await store(name, one.push('g'));
    expect(await loaded(states, name)).toEqual(await storedEntries(name));
    expect(await loaded(states, name)).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g']);
    // A fresh cache reads the snapshot and the rows after it.
    expect(await loaded(new StoredStates(), name)).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g']);
  });

  it('answers null for a document with nothing stored, and reads several documents at once', async () => {
    const states = new StoredStates();
    const [empty, first, second] = [freshName(), freshName(), freshName()];
    await store(first, writer().push('one'));
    await store(second, writer().push('two'));
    const docs = await states.load(database.db, [empty, first, second, first]);
    expect([...docs.keys()].sort()).toEqual([empty, first, second].sort());
    expect(docs.get(empty)).toBeNull();
    expect(entriesOf(docs.get(first))).toEqual(['one']);
    expect(entriesOf(docs.get(second))).toEqual(['two']);
    expect(states.size().documents).toBe(2);
  });

  it('keeps no more documents or bytes than its limits, dropping the least recently read', async () => {
    const names = [freshName(), freshName(), freshName()];
    for (const name of names) await store(name, writer().push(name));
    const byCount = new StoredStates({ documents: 2, bytes: 1e9, idleMs: 60_000 });
    for (const name of names) await byCount.load(database.db, [name]);
    expect(byCount.size().documents).toBe(2);
    // The one dropped is read whole again, and still right.
    expect(await loaded(byCount, names[0]!)).toEqual([names[0]]);
    const byBytes = new StoredStates({ documents: 100, bytes: 1, idleMs: 60_000 });
    for (const name of names) await byBytes.load(database.db, [name]);
    // Those just read stay, whatever their size, so that they are answered.
    expect(byBytes.size().documents).toBe(1);
    const byIdle = new StoredStates({ documents: 100, bytes: 1e9, idleMs: 0 });
    await byIdle.load(database.db, [names[0]!]);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await byIdle.load(database.db, [names[1]!]);
    expect(byIdle.size().documents).toBe(1);
  });

  it('answers what loadDocumentState merges, through appends, late rows and compactions in any order', async () => {
    const name = freshName();
    const states = new StoredStates();
    const documentStore = new DatabaseDocumentStore(database);
    const [first, second, late] = [writer(), writer(), writer()];
    const reserved: number[] = [];
    // a: an append; k: an id taken for a late row; l: the late row stored under it; c: a compaction.
    // Fixed, so that a failure repeats.
    const steps = 'aakacalaakkaalcalaacakala';
    for (const [i, step] of [...steps].entries()) {
      if (step === 'a') await store(name, (i % 2 ? first : second).push(`a${i}`));
      if (step === 'k') reserved.push(await reserveId());
      if (step === 'l') await store(name, late.push(`l${i}`), reserved.shift());
      if (step === 'c') await documentStore.compact(name);
      expect(await loaded(states, name), `after step ${i} (${step})`).toEqual(await storedEntries(name));
    }
    expect(await loaded(states, name)).toHaveLength(18);
  });
});
