import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { createTestDatabase } from '../testing/harness.js';
import { rawRows, type Database, type Queryable } from './client.js';
import { settings } from './schema.js';

let database: Database;
let dispose: () => Promise<void>;

beforeAll(async () => {
  ({ database, dispose } = await createTestDatabase());
});
afterAll(async () => {
  await dispose?.();
});

/** The transaction a statement runs in: outside one, each statement has its own. */
async function transactionOf(q: Queryable): Promise<string> {
  const [row] = await rawRows<{ id: string }>(q, sql`select txid_current()::text as id`);
  return row!.id;
}

const setting = async (key: string) => (await database.db.select().from(settings).where(eq(settings.key, key)))[0]?.value;

describe('pipelined transactions', () => {
  it('run the work’s statements in one transaction, begun before the first of them, and commit them', async () => {
    const seen = await database.pipelinedTransactions.run(async (q) => {
      const first = await transactionOf(q);
      await q.insert(settings).values({ key: 'pipelined.commit', value: 'stored' });
      return [first, await transactionOf(q)];
    });
    expect(seen[0]).toBe(seen[1]);
    expect(await setting('pipelined.commit')).toBe('stored');
  });

  it('roll back every statement when the work throws, and go on with the next transaction', async () => {
    await expect(
      database.pipelinedTransactions.run(async (q) => {
        await q.insert(settings).values({ key: 'pipelined.rollback', value: 'refused' });
        throw new Error('refused after the insert');
      }),
    ).rejects.toThrow('refused after the insert');
    expect(await setting('pipelined.rollback')).toBeUndefined();
    await database.pipelinedTransactions.run((q) => q.insert(settings).values({ key: 'pipelined.after', value: 'stored' }));
    expect(await setting('pipelined.after')).toBe('stored');
  });

  it('run one at a time, whoever asks: a transaction asked meanwhile neither joins nor undoes another', async () => {
    const slow = database.pipelinedTransactions.run(async (q) => {
      const first = await transactionOf(q);
      await q.insert(settings).values({ key: 'pipelined.slow', value: 'refused' });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await transactionOf(q)).toBe(first);
      throw new Error('the slow one fails');
    });
    const quick = database.pipelinedTransactions.run(async (q) => {
      await q.insert(settings).values({ key: 'pipelined.quick', value: 'stored' });
      return transactionOf(q);
    });
    const [slowResult, quickResult] = await Promise.allSettled([slow, quick]);
    expect(slowResult.status).toBe('rejected');
    expect(quickResult.status).toBe('fulfilled');
    expect(await setting('pipelined.slow')).toBeUndefined();
    expect(await setting('pipelined.quick')).toBe('stored');
  });
});
