import type { Db, Queryable } from '../../db/client.js';
import type { PipelinedTransactions } from '../../db/pipelinedTransactions.js';
import { Batches } from '../../db/batches.js';
import { base64, fixedStatement } from '../../db/fixedStatement.js';
import type { WriteCheck } from '../documents/documentKinds.js';

export type AppendOutcome = 'stored' | 'refused';

interface Request {
  documentName: string;
  updates: Uint8Array[];
  resolve: (outcome: AppendOutcome) => void;
  reject: (error: unknown) => void;
}

/**
 * Opens a group's transaction: marks it (a setting that ends with it), which the insert requires (see
 * appendUpdates), and sets how long it waits for a note's row lock before it gives up and each document
 * is appended alone. Every group does, even of one note: groups commit one at a time, so a note whose
 * row a signature or a save holds would otherwise keep every other note's edits unconfirmed for as long
 * as it is held. A group holds several notes' rows `share`; a finish updates all of a project's notes,
 * in its own order, so the two could deadlock: the group yields first (PostgreSQL's deadlock check
 * waits a second), and a signature that holds its note longer only sends that group the slow way.
 */
const openGroupWithLockTimeout = fixedStatement(
  'group_open_lock_timeout',
  `select set_config('eln.group_commit', 'on', true), set_config('lock_timeout', '200ms', true)`,
);
/** Opens a transaction of one document's appends alone, after its group gave up (no lock timeout): the mark only. */
const openGroup = fixedStatement('group_open', `select set_config('eln.group_commit', 'on', true)`);
/**
 * How long a group commit waits, once idle, for the appends arriving with the first: edits of several
 * people reach the server a millisecond or two apart, and each commit costs its round trips, socket
 * writes and durable messages however few documents it carries. On the live-editing bench (8,000
 * edits at 1 and 10 editors per note on 20 notes) it took 1,649 commits without a window, 1,424 when
 * waiting for the socket reads of the same event loop turn (setImmediate), 1,079 with 2 ms and 844
 * with 5 ms. Confirmations come this much later (p50 4 -> 7 ms at one editor a note; the goal is p99
 * 200 ms), and nothing is confirmed before it is stored. While a group commits, the appends arriving
 * gather for the next group as before.
 */
export const GROUP_COMMIT_GATHER_MS = 5;
/**
 * The least time from one group commit's start to the next one's. Without it, under a long burst the
 * groups follow each other at once, each carrying what arrived during the one before (a few notes'
 * edits): about 24 commits a round of the bench's 10 editors on 20 notes, each costing PostgreSQL about
 * 1 ms of CPU and this process its postgres.js work and durable messages, on the same cores as the
 * editing itself. 20 ms apart, a third as many commits at 10 editors (half at 50), about 40% less CPU
 * spent beyond bare Hocuspocus, and a lower propagation ratio; durable confirmations wait that much
 * longer under load (p50 26 -> 40 ms, p99 within its 200 ms goal). 40 ms saves little more CPU and
 * doubles the durable p50. A lone typist's keystrokes 20 ms or more apart never wait for it (closer ones
 * wait at most the difference).
 */
export const GROUP_COMMIT_SPACING_MS = 20;
/** Rows a statement carries: a burst's group is one statement, a huge backlog a few bounded ones. */
const INSERT_ROWS = 5000;

/**
 * Every row of a group in one statement of fixed text (see fixedStatement): the rows go as two arrays,
 * the updates as base64 (postgres.js cannot send `bytea[]`). `order by ord` keeps the ids in the order
 * the updates were made. It stores nothing outside a transaction its opener marked: a statement sent
 * behind a BEGIN that another connection ran (postgres.js runs what is queued on the next connection
 * when one closes) runs alone, and must not store updates no check held a lock for. It answers how many
 * rows it stored, which must be all of them.
 */
const appendUpdates = fixedStatement<{ stored: number }>(
  'append_updates',
  `with stored as (
    insert into document_updates (document_name, update)
    select name, decode(upd, 'base64') from unnest($1::text[], $2::text[]) with ordinality as u(name, upd, ord)
    where current_setting('eln.group_commit', true) = 'on'
    order by ord
    returning 1)
  select count(*)::int as stored from stored`,
);

/**
 * Group commit of live updates across documents. The appends that arrive within GROUP_COMMIT_GATHER_MS
 * of the first one an idle store gets, or while a transaction commits and until GROUP_COMMIT_SPACING_MS
 * after it started, are collected; the next transaction takes all of them: the documents' write checks
 * (their row locks, see DocumentKind.writable; two statements for all the notes) with one insert of
 * every document's updates sent behind them, all sent with the transaction's BEGIN
 * (PipelinedTransactions), then one commit: two
 * round trips (when a check refused, a rollback and a second transaction; see store). Under a burst,
 * twenty notes cost one commit instead of twenty transactions queueing for the pool's connections. The
 * promise stays the same per document: its updates are stored, or none is because it is locked
 * ('refused'), and an append resolves only once its commit is durable. If the group's transaction
 * fails (a held row makes it give up after the lock timeout), each of its documents is appended alone,
 * beside the later groups: one document's failure or held row delays the others of its group by that
 * timeout and a second transaction, and no later group.
 */
export class GroupCommit {
  private readonly groups = new Batches<Request>((group) => this.commitGroup(group), {
    gatherMs: GROUP_COMMIT_GATHER_MS,
    spacingMs: GROUP_COMMIT_SPACING_MS,
  });
  /** The groups' transactions: one at a time, each BEGIN sent with the group's checks (see PipelinedTransactions). */
  private readonly pipelined: Transactions;
  /** The pool's transactions, for documents appended alone beside the groups after their group failed. */
  private readonly pooled: Transactions;

  constructor(
    db: Db,
    pipelinedTransactions: PipelinedTransactions<Queryable>,
    private readonly mayWrite: WriteCheck,
  ) {
    this.pipelined = (work) => pipelinedTransactions.run(work);
    this.pooled = (work) => db.transaction(work);
  }

  append(documentName: string, updates: Uint8Array[]): Promise<AppendOutcome> {
    return new Promise((resolve, reject) => this.groups.add({ documentName, updates, resolve, reject }));
  }

  private async commitGroup(group: Request[]): Promise<void> {
    const byDocument = new Map<string, Request[]>();
    for (const request of group) byDocument.set(request.documentName, [...(byDocument.get(request.documentName) ?? []), request]);
    let outcomes: Map<string, AppendOutcome>;
    try {
      outcomes = await this.store(byDocument, this.pipelined, true);
    } catch {
      // Not awaited: a note whose row another transaction holds (a signature, a save) waits alone, and
      // the groups after it go on. Each document has one append in flight at a time (its flush awaits
      // it), so no later append of the same document can overtake this one.
      for (const requests of byDocument.values()) void this.appendAlone(requests);
      return;
    }
    for (const request of group) request.resolve(outcomes.get(request.documentName)!);
  }

  /** One document's appends apart from any other document, on a pooled connection (the way a failed group is retried). */
  private async appendAlone(requests: Request[]): Promise<void> {
    const byDocument = new Map([[requests[0]!.documentName, requests]]);
    try {
      const outcomes = await this.store(byDocument, this.pooled, false);
      for (const request of requests) request.resolve(outcomes.get(request.documentName)!);
    } catch (error) {
      for (const request of requests) request.reject(error);
    }
  }

  /**
   * Stores the documents' updates with their checks in one transaction: first all of them, the insert
   * sent right behind the checks (one round trip fewer than waiting for their answer); when a check
   * refused, that transaction rolls back and another stores only what its checks allow. Refusals are
   * rare (a note signed or its project finished while someone types), the round trip is every commit's.
   */
  private async store(
    byDocument: Map<string, Request[]>,
    transactions: Transactions,
    lockTimeout: boolean,
  ): Promise<Map<string, AppendOutcome>> {
    const names = [...byDocument.keys()].sort();
    try {
      return await transactions(inGroupTransaction(lockTimeout, (q) => this.storeAllOrNone(q, names, byDocument)));
    } catch (error) {
      if (!(error instanceof CheckRefused)) throw error;
      return transactions(inGroupTransaction(lockTimeout, (q) => this.storeAllowed(q, names, byDocument)));
    }
  }

  /**
   * Every document's updates, or none: the insert goes out beside the checks (the checks lock rows in
   * one order, see DocumentKind.writable). Where it runs among them does not matter: the transaction
   * commits only if every check, holding its lock until the commit, allowed its document.
   */
  private async storeAllOrNone(tx: Queryable, names: string[], byDocument: Map<string, Request[]>): Promise<Map<string, AppendOutcome>> {
    // Both settled before the transaction ends: a kind's check sent after another's answer must not
    // reach the connection after the rollback a failed insert would otherwise start at once.
    const [checked, inserted] = await Promise.allSettled([this.mayWrite(names, tx), this.insert(tx, names, byDocument)]);
    if (checked.status === 'rejected') throw checked.reason;
    if (inserted.status === 'rejected') throw inserted.reason;
    if (!checked.value.every(Boolean)) throw new CheckRefused();
    return new Map(names.map((name) => [name, 'stored']));
  }

  /** The updates of the documents the checks allow, inserted after their answer. */
  private async storeAllowed(tx: Queryable, names: string[], byDocument: Map<string, Request[]>): Promise<Map<string, AppendOutcome>> {
    const allowed = await this.mayWrite(names, tx);
    await this.insert(
      tx,
      names.filter((_, i) => allowed[i]),
      byDocument,
    );
    return new Map(names.map((name, i) => [name, allowed[i] ? 'stored' : 'refused']));
  }

  private insert(tx: Queryable, names: string[], byDocument: Map<string, Request[]>): Promise<void> {
    return insertUpdates(
      tx,
      names.flatMap((documentName) =>
        byDocument.get(documentName)!.flatMap((request) => request.updates.map((update) => ({ documentName, update }))),
      ),
    );
  }
}

/** Inserts the rows inside a group's transaction (see openGroup); throws when any statement stored fewer than it carried. */
export async function insertUpdates(tx: Queryable, rows: Array<{ documentName: string; update: Uint8Array }>): Promise<void> {
  const statements: Array<Promise<void>> = [];
  for (let start = 0; start < rows.length; start += INSERT_ROWS) {
    const slice = rows.slice(start, start + INSERT_ROWS);
    const inserted = appendUpdates(tx, [slice.map((row) => row.documentName), slice.map((row) => base64(row.update))]);
    statements.push(
      inserted.then(([answer]) => {
        if (answer?.stored !== slice.length)
          throw new Error('live updates were sent outside their group commit’s transaction; none of them was stored');
      }),
    );
  }
  await Promise.all(statements);
}

type Transactions = <T>(work: (q: Queryable) => Promise<T>) => Promise<T>;

/**
 * The work in a group's transaction: its opener (the mark the insert requires, and the lock timeout when
 * asked) is sent ahead of the work's statements, not awaited first (one connection runs its statements
 * in the order sent; were the mark to come late, the insert would store nothing and the group fail).
 */
function inGroupTransaction<T>(lockTimeout: boolean, work: (q: Queryable) => Promise<T>): (q: Queryable) => Promise<T> {
  return async (q) => {
    // Both settled before the transaction ends (see storeAllOrNone).
    const [opened, done] = await Promise.allSettled([(lockTimeout ? openGroupWithLockTimeout : openGroup)(q, []), work(q)]);
    if (opened.status === 'rejected') throw opened.reason;
    if (done.status === 'rejected') throw done.reason;
    return done.value;
  };
}

/** A check refused a document of a transaction that stores all or none: it rolls back (see GroupCommit.store). */
class CheckRefused extends Error {}
