import * as Y from 'yjs';
import type { Queryable } from '../db/client.js';
import { fixedStatement } from '../db/fixedStatement.js';
import { Turns } from './background.js';

/** What the cache keeps at most: documents, bytes of stored state applied, and time since a document was last read. */
export interface StoredStateLimits {
  documents: number;
  bytes: number;
  idleMs: number;
}

/**
 * A Y.Doc takes far more memory than its stored bytes (a note with a 30 × 30 table: 67 kB stored, 2 MB
 * in memory; a note of 20 blocks with a 10 × 10 table: 14 kB stored, ~0.4 MB), and the notes kept are
 * those being edited, dropped a minute after their editing stops. There must be room for every note being
 * edited at once: with fewer kept than that, each pass evicted the notes the next one read, and read every
 * note whole again (at 1,000 editors, a hundred typing, a pass blocked the event loop for most of a
 * second). 200 such notes are ~80 MB; the bytes bound keeps large notes to about 120.
 */
const DEFAULT_LIMITS: StoredStateLimits = { documents: 200, bytes: 8 * 1024 * 1024, idleMs: 60_000 };

interface Cached {
  doc: Y.Doc;
  /** The highest update id applied, and how many rows up to it are applied: every one stored when last read. */
  lastId: number;
  rows: number;
  /** The version (`xmin`) of the snapshot row applied, null when there was none. */
  snapshotVersion: string | null;
  /** Bytes of stored state applied (snapshot and rows), for the cache's bound. */
  bytes: number;
  usedAt: number;
}

type Id = string | number | bigint;

/**
 * For each document, the update rows above the id given (with their bytes), and in one row of its own
 * how many there are up to it. Read in one statement, so one snapshot of the table: a count that is not
 * the number applied means rows committed late below the id (an append can commit after one with a
 * higher id), or rows compacted away.
 */
const updatesSince = fixedStatement<{ document_name: string; id: Id | null; update: Uint8Array | null; up_to: Id | null }>(
  'search_updates_since',
  `select k.name as document_name, u.id, u.update, null::bigint as up_to
      from unnest($1::text[], $2::bigint[]) as k(name, after)
      cross join lateral (select id, update from document_updates where document_name = k.name and id > k.after) as u
    union all
    select k.name, null, null, (select count(*) from document_updates c where c.document_name = k.name and c.id <= k.after)
      from unnest($1::text[], $2::bigint[]) as k(name, after)`,
);

/** Every update row of the documents, as loadDocumentState reads them. */
const allUpdates = fixedStatement<{ document_name: string; id: Id; update: Uint8Array }>(
  'search_all_updates',
  'select document_name, id, update from document_updates where document_name = any($1::text[]) order by id',
);

/** The documents' snapshot rows, each with its state only when its version is not the one given (null: always). */
const snapshotsChanged = fixedStatement<{ document_name: string; version: string; state: Uint8Array | null }>(
  'search_snapshots_changed',
  `select s.document_name, s.xmin::text as version, case when k.version is distinct from s.xmin::text then s.state end as state
    from document_snapshots s left join unnest($1::text[], $2::text[]) as k(name, version) on k.name = s.document_name
    where s.document_name = any($1::text[])`,
);

interface Snapshot {
  version: string;
  state: Uint8Array | null;
}

/**
 * Stored states of live documents kept as Y.Docs between reads, so that reading a document again costs
 * what was stored since: the indexer reads a note being edited at every pass, and merging and applying
 * its whole state each time cost the server more than the edits themselves. A read fetches the rows
 * above the highest id applied; when the rows below it are no longer exactly those applied (a row that
 * committed late, or a compaction, which also rewrites the snapshot) the document's rows and snapshot are
 * read whole again, in loadDocumentState's order, and applied onto the same doc. That is sound because a
 * stored state only grows: only a compaction deletes rows, folding them into the snapshot, and applying
 * what a doc already holds changes nothing. Bounded by documents, bytes and idle time, least recently
 * read first out.
 */
export class StoredStates {
  private readonly cached = new Map<string, Cached>();
  private bytes = 0;

  constructor(private readonly limits: StoredStateLimits = DEFAULT_LIMITS) {}

  /**
   * Each document's stored state (null: nothing stored) as it is in the database now, read with `q`
   * (inside the caller's transaction if it is one). The docs answered are the cache's own: read them,
   * never change them.
   */
  async load(q: Queryable, documentNames: readonly string[]): Promise<Map<string, Y.Doc | null>> {
    const names = [...new Set(documentNames)];
    const states = new Map<string, Y.Doc | null>();
    if (!names.length) return states;
    try {
      const rereads = await this.readSince(q, names, states);
      if (rereads.length) await this.readWhole(q, rereads, states);
    } catch (error) {
      // A doc may hold part of what was read: read whole next time.
      for (const name of names) this.forget(name);
      throw error;
    }
    this.evict(new Set(names));
    return states;
  }

  forget(documentName: string): void {
    const entry = this.cached.get(documentName);
    if (!entry) return;
    this.bytes -= entry.bytes;
    this.cached.delete(documentName);
  }

  /** How many documents and bytes of stored state are kept. */
  size(): { documents: number; bytes: number } {
    return { documents: this.cached.size, bytes: this.bytes };
  }

  /** Applies what was stored since each document's last read; answers the documents to read whole. */
  private async readSince(q: Queryable, names: string[], states: Map<string, Y.Doc | null>): Promise<string[]> {
    const rows = await updatesSince(q, [names, names.map((name) => this.cached.get(name)?.lastId ?? 0)]);
    const snapshots = await snapshotsChanged(q, [names, names.map((name) => this.cached.get(name)?.snapshotVersion ?? null)]);
    const newer = new Map<string, Array<{ id: number; update: Uint8Array }>>();
    const upTo = new Map<string, number>();
    for (const row of rows) {
      if (row.up_to !== null) upTo.set(row.document_name, Number(row.up_to));
      else if (row.id !== null && row.update) pushTo(newer, row.document_name, { id: Number(row.id), update: row.update });
    }
    const snapshotOf = new Map(snapshots.map(({ document_name: name, ...snapshot }) => [name, snapshot]));
    const rereads: string[] = [];
    const turns = new Turns();
    for (const name of names) {
      await turns.next();
      const entry = this.cached.get(name);
      const snapshot = snapshotOf.get(name);
      if (entry && (upTo.get(name) !== entry.rows || (snapshot?.version ?? null) !== entry.snapshotVersion)) rereads.push(name);
      else states.set(name, this.apply(name, entry, newer.get(name) ?? [], snapshot));
    }
    return rereads;
  }

  /** Reads the documents' rows, then their snapshots (the order loadDocumentState reads them in), and applies both. */
  private async readWhole(q: Queryable, names: string[], states: Map<string, Y.Doc | null>): Promise<void> {
    const rows = await allUpdates(q, [names]);
    const snapshots = await snapshotsChanged(q, [names, names.map(() => null)]);
    const rowsOf = new Map<string, Array<{ id: number; update: Uint8Array }>>();
    for (const row of rows) pushTo(rowsOf, row.document_name, { id: Number(row.id), update: row.update });
    const snapshotOf = new Map(snapshots.map(({ document_name: name, ...snapshot }) => [name, snapshot]));
    const turns = new Turns();
    for (const name of names) {
      await turns.next();
      const entry = this.cached.get(name);
      if (entry) {
        // Counted again from what is applied now.
        entry.rows = 0;
        entry.lastId = 0;
        entry.snapshotVersion = null;
        this.bytes -= entry.bytes;
        entry.bytes = 0;
      }
      states.set(name, this.apply(name, entry, rowsOf.get(name) ?? [], snapshotOf.get(name)));
    }
  }

  /** Applies rows above the entry's last id (in id order) and a snapshot it has not applied; null when nothing is stored. */
  private apply(
    name: string,
    cached: Cached | undefined,
    rows: Array<{ id: number; update: Uint8Array }>,
    snapshot: Snapshot | undefined,
  ): Y.Doc | null {
    if (!(cached?.rows ?? 0) && !rows.length && !snapshot) {
      this.forget(name);
      return null;
    }
    const entry: Cached = cached ?? { doc: new Y.Doc(), lastId: 0, rows: 0, snapshotVersion: null, bytes: 0, usedAt: 0 };
    let added = 0;
    // One transaction for all of them: each of its own would cost Yjs two state vectors and a cleanup.
    Y.transact(entry.doc, () => {
      if (snapshot && snapshot.version !== entry.snapshotVersion) {
        if (!snapshot.state) throw new Error(`search: the snapshot of ${name} changed but its state was not read`);
        Y.applyUpdate(entry.doc, snapshot.state);
        entry.snapshotVersion = snapshot.version;
        added += snapshot.state.byteLength;
      }
      for (const { id, update } of rows.sort((a, b) => a.id - b.id)) {
        Y.applyUpdate(entry.doc, update);
        entry.lastId = Math.max(entry.lastId, id);
        entry.rows += 1;
        added += update.byteLength;
      }
    });
    entry.bytes += added;
    this.bytes += added;
    entry.usedAt = Date.now();
    // A Map iterates in insertion order: re-inserted, the entry is the most recently read.
    this.cached.delete(name);
    this.cached.set(name, entry);
    return entry.doc;
  }

  /** Drops documents idle too long, then the least recently read until within the limits (never those just read). */
  private evict(keep: ReadonlySet<string>): void {
    const idleBefore = Date.now() - this.limits.idleMs;
    for (const [name, entry] of this.cached) {
      if (keep.has(name)) continue;
      const within = this.cached.size <= this.limits.documents && this.bytes <= this.limits.bytes;
      if (within && entry.usedAt >= idleBefore) continue;
      this.forget(name);
    }
  }
}

function pushTo<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
