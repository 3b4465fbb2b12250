import { asc, eq, inArray, sql } from 'drizzle-orm';
import * as Y from 'yjs';
import type { Database, Db, Queryable } from '../../db/client.js';
import { documentSnapshots, documentUpdates } from '../../db/schema.js';
import type { WriteCheck } from '../documents/documentKinds.js';
import { GroupCommit, type AppendOutcome } from './groupCommit.js';

/** Where live documents are kept: appended updates, compacted into one snapshot per document. */
export interface DocumentStore {
  /** The document's whole state (snapshot and later updates merged), or null if it has none. */
  load(documentName: string): Promise<Uint8Array | null>;
  /**
   * Appends updates in one commit if the document may still be written; resolves only once they are
   * durable ('stored'), or with 'refused' when nothing was stored because the document is locked.
   */
  append(documentName: string, updates: Uint8Array[]): Promise<AppendOutcome>;
  /** Folds appended updates into the snapshot; answers how many were folded. */
  compact(documentName: string): Promise<number>;
}

export type { AppendOutcome };

const COMPACTION_BATCH = 5000;

/**
 * The stored state of a document (snapshot and later updates merged), or null if it has none. Inside
 * a transaction that holds the document's lock, this is exactly what can ever be loaded.
 */
export async function loadDocumentState(q: Queryable, documentName: string): Promise<Uint8Array | null> {
  // Every update still stored is read, not only those above the snapshot's mark: with several
  // processes an append can commit after a compaction passed its id. Yjs merges repeats harmlessly.
  const updates = await q
    .select({ update: documentUpdates.update })
    .from(documentUpdates)
    .where(eq(documentUpdates.documentName, documentName))
    .orderBy(asc(documentUpdates.id));
  // The snapshot is read after the updates, never before: a compaction that commits between the two
  // reads folded only updates already read above into the snapshot read here. In the other order, the
  // load would get the old snapshot and miss the updates that compaction deleted.
  const [snapshot] = await q.select().from(documentSnapshots).where(eq(documentSnapshots.documentName, documentName));
  const parts = [...(snapshot ? [snapshot.state] : []), ...updates.map((u) => u.update)];
  return parts.length ? Y.mergeUpdates(parts.map((p) => new Uint8Array(p))) : null;
}

export class DatabaseDocumentStore implements DocumentStore {
  private readonly groupCommit: GroupCommit;

  private readonly db: Db;

  constructor(database: Database, mayWrite: WriteCheck = async (documentNames) => documentNames.map(() => true)) {
    this.db = database.db;
    this.groupCommit = new GroupCommit(database.db, database.pipelinedTransactions, mayWrite);
  }

  load(documentName: string): Promise<Uint8Array | null> {
    return loadDocumentState(this.db, documentName);
  }

  async append(documentName: string, updates: Uint8Array[]): Promise<AppendOutcome> {
    if (!updates.length) return 'stored';
    // The check and the insert share one transaction: the check's lock keeps a signature (or another
    // locking change) from committing in between, so nothing is stored after a lock. Appends arriving
    // together, across documents, share that transaction (group commit), each with its own check.
    return this.groupCommit.append(documentName, updates);
  }

  async compact(documentName: string): Promise<number> {
    return this.db.transaction(async (tx) => {
      // One compaction per document at a time, across processes.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`compact:${documentName}`}))`);
      const [snapshot] = await tx.select().from(documentSnapshots).where(eq(documentSnapshots.documentName, documentName));
      // A bounded batch per pass keeps the delete's parameter list small; the next pass takes the rest.
      const updates = await tx
        .select()
        .from(documentUpdates)
        .where(eq(documentUpdates.documentName, documentName))
        .orderBy(asc(documentUpdates.id))
        .limit(COMPACTION_BATCH);
      const last = updates.at(-1);
      if (!last) return 0;
      const state = Y.mergeUpdates([
        ...(snapshot ? [new Uint8Array(snapshot.state)] : []),
        ...updates.map((u) => new Uint8Array(u.update)),
      ]);
      await tx
        .insert(documentSnapshots)
        .values({ documentName, state, lastUpdateId: last.id })
        .onConflictDoUpdate({ target: documentSnapshots.documentName, set: { state, lastUpdateId: last.id, updatedAt: new Date() } });
      // Exactly the folded rows go; one that commits later stays and is read at the next load.
      await tx.delete(documentUpdates).where(
        inArray(
          documentUpdates.id,
          updates.map((u) => u.id),
        ),
      );
      return updates.length;
    });
  }
}
