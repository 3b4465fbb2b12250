import type { Sql } from 'postgres';

/**
 * Transactions for a caller that commits often and little (the live store's group commit), run one at
 * a time on a connection of their own. On PostgreSQL the BEGIN goes out together with the work's first
 * statements instead of a round trip ahead of them (postgres.js's `begin` awaits its BEGIN before it
 * runs the work), so a commit whose statements are sent together costs two round trips: BEGIN and the
 * statements, then COMMIT. On these machines each write to PostgreSQL's socket costs the event loop
 * 50-100 µs, and so does reading each answer.
 *
 * `run` behaves like `db.transaction`: the work's statements commit together when it resolves and
 * roll back when it throws (the work must let every statement it sent settle first, as with any
 * transaction); a transaction whose connection closed before its COMMIT was answered rejects.
 */
export interface PipelinedTransactions<Q> {
  run<T>(work: (q: Q) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** What runs the work's statements: the database (its `Queryable`, named by client.ts, which imports this module). */
interface TransactionalDb<Q> {
  transaction<T>(work: (tx: Q) => Promise<T>): Promise<T>;
}

/**
 * The driver's own transactions (BEGIN answered before the work runs): for the embedded database, which
 * runs in this process, where a round trip costs nothing.
 */
export function driverTransactions<Q>(db: TransactionalDb<Q>): PipelinedTransactions<Q> {
  return { run: (work) => db.transaction(work), close: async () => undefined };
}

/**
 * On PostgreSQL: a client of one connection (`connectionOf(onclose)` makes it, with `onclose` as its
 * close callback) whose BEGIN, statements and COMMIT are plain queries, sent in order on that
 * connection. Its transactions queue for it, whoever asks.
 *
 * A connection that closes mid-transaction takes the transaction with it, and postgres.js then opens a
 * new one for the next query: a COMMIT sent there would answer (with a warning) although nothing was
 * committed. So every close is counted, and a transaction during which one happened rejects even when
 * its COMMIT answered: its outcome is unknown to the caller, who tries again (the group commit appends
 * each document alone; a repeated live update is harmless, Yjs applies it once).
 */
export function postgresTransactions<Q>(connectionOf: (onclose: () => void) => { client: Sql; db: Q }): PipelinedTransactions<Q> {
  let closes = 0;
  const { client, db } = connectionOf(() => (closes += 1));
  let queue: Promise<unknown> = Promise.resolve();

  async function runNow<T>(work: (q: Q) => Promise<T>): Promise<T> {
    const closesAtBegin = closes;
    // Executed before the work runs, so it reaches the connection ahead of the work's first statement;
    // its answer is awaited with theirs.
    const begun = client`begin`.execute();
    // Every statement settled before the transaction ends: one sent after a ROLLBACK would run alone.
    const [begin, done] = await Promise.allSettled([begun, work(db)]);
    if (begin.status === 'rejected' || done.status === 'rejected') {
      await client`rollback`.catch(() => undefined);
      throw done.status === 'rejected' ? done.reason : (begin as PromiseRejectedResult).reason;
    }
    if (closes !== closesAtBegin) throw connectionLost();
    await client`commit`;
    if (closes !== closesAtBegin) throw connectionLost();
    return done.value;
  }

  const connectionLost = () => new Error('the transaction’s connection to the database closed before its commit was confirmed');

  return {
    run<T>(work: (q: Q) => Promise<T>): Promise<T> {
      const result = queue.then(() => runNow(work));
      queue = result.catch(() => undefined);
      return result;
    },
    close: () => client.end({ timeout: 5 }),
  };
}
