import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { createTestDatabase } from '../testing/harness.js';
import { rawRows, type Database, type Queryable } from './client.js';
import { settings } from './schema.js';

let database: Database;
let dispose: () => Promise<void>;

beforeAll(async () => {
  ({ database, dispose } = await createTestDatabase());
  if (database.engine !== 'postgres') throw new Error('this suite needs PostgreSQL (ELN_TEST_DB=postgres with TEST_DATABASE_URL)');
});
afterAll(async () => {
  await dispose?.();
});

const setting = async (key: string) => (await database.db.select().from(settings).where(eq(settings.key, key)))[0]?.value;

/** Ends the backend that runs `q`'s statements, from another connection, and waits for this process to see it closed. */
async function loseConnectionOf(q: Queryable): Promise<void> {
  const [own] = await rawRows<{ pid: number }>(q, sql`select pg_backend_pid() as pid`);
  await rawRows(database.db, sql`select pg_terminate_backend(${own!.pid})`);
  await new Promise((resolve) => setTimeout(resolve, 100));
}

describe('pipelined transactions on PostgreSQL', () => {
  it('keep the work’s statements from other connections until the commit', async () => {
    const seenOutside = await database.pipelinedTransactions.run(async (q) => {
      await q.insert(settings).values({ key: 'pipelined.unseen', value: 'stored' });
      return setting('pipelined.unseen');
    });
    expect(seenOutside).toBeUndefined();
    expect(await setting('pipelined.unseen')).toBe('stored');
  });

  it('reject a transaction whose connection closed under a statement, store none of it, and go on on a new connection', async () => {
    await expect(
      database.pipelinedTransactions.run(async (q) => {
        await q.insert(settings).values({ key: 'pipelined.lost', value: 'lost' });
        const [own] = await rawRows<{ pid: number }>(q, sql`select pg_backend_pid() as pid`);
        // Awaited together: the sleeping statement may fail (its connection gone) before the termination answers.
        await Promise.all([rawRows(q, sql`select pg_sleep(5)`), rawRows(database.db, sql`select pg_terminate_backend(${own!.pid})`)]);
      }),
    ).rejects.toThrow();
    expect(await setting('pipelined.lost')).toBeUndefined();
    await database.pipelinedTransactions.run((q) => q.insert(settings).values({ key: 'pipelined.next', value: 'stored' }));
    expect(await setting('pipelined.next')).toBe('stored');
  });

  it('reject a transaction whose connection closed after its statements answered, although its COMMIT then answers on a new connection', async () => {
    await expect(
      database.pipelinedTransactions.run(async (q) => {
        await q.insert(settings).values({ key: 'pipelined.answered', value: 'lost' });
        // The work has nothing in flight when the connection goes: the COMMIT is sent after its close.
        await loseConnectionOf(q);
      }),
    ).rejects.toThrow('closed before its commit was confirmed');
    expect(await setting('pipelined.answered')).toBeUndefined();
  });
});
