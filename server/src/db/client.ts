import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { ExtractTablesWithRelations, SQL } from 'drizzle-orm';
import type { PgTransaction } from 'drizzle-orm/pg-core';
import * as schema from './schema.js';
import { driverTransactions, postgresTransactions, type PipelinedTransactions } from './pipelinedTransactions.js';

export type Schema = typeof schema;
/** The database, whichever engine runs it: PGlite embedded or PostgreSQL through postgres.js. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Something that runs queries: the database or an open transaction. */
export type Queryable = Db | Tx;

export interface Database {
  db: Db;
  /**
   * The same database for rows derived from what is stored durably elsewhere (a note's temp save is
   * derived from its live document, whose updates commit synchronously): its commits do not wait for
   * the disk, so a crash can cost the last of them (derived again at the next save), never a user's
   * content. On PostgreSQL its own two connections with `synchronous_commit = off`; PGlite: `db`.
   */
  derivedRows: Db;
  /** Transactions of the live store's group commit, their BEGIN sent with their first statements. */
  pipelinedTransactions: PipelinedTransactions<Queryable>;
  engine: 'pglite' | 'postgres';
  /**
   * Listens to a channel of `pg_notify`, which delivers a notification when the transaction that sent it
   * commits, to every process listening (PostgreSQL: on a connection of its own, listening again after a
   * cut, `onListening` called each time it starts; PGlite: in this process). Answers how to stop.
   */
  listen(channel: string, onPayload: (payload: string) => void, onListening?: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../drizzle');

const MIGRATION_LOCK_KEY = 7_411_000;

export type DatabaseTarget =
  | { kind: 'postgres'; url: string }
  /** `startFrom`: a dump of a data directory (PGlite's `dumpDataDir`) to begin with instead of an empty one. */
  | { kind: 'pglite'; dataDir: string | null; startFrom?: Blob };

/** Opens the database and brings its schema up to date with the migrations in `drizzle/`. */
export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  const database = target.kind === 'postgres' ? await openPostgres(target.url) : await openPglite(target.dataDir, target.startFrom);
  return database;
}

async function openPostgres(url: string): Promise<Database> {
  const { default: postgres } = await import('postgres');
  const { drizzle } = await import('drizzle-orm/postgres-js');
  const { migrate } = await import('drizzle-orm/postgres-js/migrator');
  // Several processes may start at once on an empty database: one migrates, the others wait for it.
  const migrator = postgres(url, { max: 1, onnotice: () => undefined });
  try {
    await migrator`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`;
    await migrate(drizzle(migrator, { schema }), { migrationsFolder: MIGRATIONS_DIR });
    await migrator`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`;
  } finally {
    await migrator.end({ timeout: 5 });
  }
  const client = postgres(url, { max: 10, onnotice: () => undefined });
  const db = drizzle(client, { schema });
  const relaxed = postgres(url, { max: 2, onnotice: () => undefined, connection: { synchronous_commit: 'off' } });
  const pipelinedTransactions = postgresTransactions<Queryable>((onclose) => {
    // No lifetime: a connection ended between a transaction's statements and its COMMIT fails that transaction.
    const own = postgres(url, { max: 1, max_lifetime: 0, onnotice: () => undefined, onclose });
    return { client: own, db: drizzle(own, { schema }) };
  });
  return {
    db: db as unknown as Db,
    derivedRows: drizzle(relaxed, { schema }) as unknown as Db,
    pipelinedTransactions,
    engine: 'postgres',
    listen: async (channel, onPayload, onListening) => {
      const { unlisten } = await client.listen(channel, onPayload, onListening);
      return unlisten;
    },
    close: async () => {
      await Promise.all([client.end({ timeout: 5 }), relaxed.end({ timeout: 5 }), pipelinedTransactions.close()]);
    },
  };
}

async function openPglite(dataDir: string | null, startFrom: Blob | undefined): Promise<Database> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  if (dataDir) await mkdir(dataDir, { recursive: true });
  const client = new PGlite({ ...(dataDir ? { dataDir } : {}), ...(startFrom ? { loadDataDir: startFrom } : {}) });
  const db = drizzle(client, { schema });
  await migrate(db, { migrationsFolder: MIGRATIONS_DIR });
  return {
    db: db as unknown as Db,
    derivedRows: db as unknown as Db,
    pipelinedTransactions: driverTransactions<Queryable>(db),
    engine: 'pglite',
    listen: async (channel, onPayload, onListening) => {
      const unlisten = await client.listen(channel, onPayload);
      onListening?.();
      return unlisten;
    },
    close: () => client.close(),
  };
}

/**
 * Rows of a raw SQL query. The two drivers shape results differently (postgres.js: an array; PGlite:
 * `{ rows }`), and raw SQL is needed only where the query builder has no word for it.
 */
export async function rawRows<T>(q: Queryable, query: SQL): Promise<T[]> {
  return rowsOf<T>(await q.execute(query));
}

/** The rows of a result not mapped by drizzle, whichever driver answered (see rawRows). */
export function rowsOf<T>(result: unknown): T[] {
  return Array.isArray(result) ? (result as T[]) : (result as { rows: T[] }).rows;
}
