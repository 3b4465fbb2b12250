import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { createTestDatabase } from '../testing/harness.js';
import type { Database, Queryable } from './client.js';
import { builtOnce } from './builtOnce.js';
import { settings } from './schema.js';

let database: Database;
let dispose: () => Promise<void>;

beforeAll(async () => {
  ({ database, dispose } = await createTestDatabase());
});
afterAll(async () => {
  await dispose?.();
});

/** A count of builds beside the query it builds: a lookup of one setting by key, bound at each run. */
function counted() {
  let builds = 0;
  const build = (q: Queryable) => {
    builds += 1;
    return q
      .select({ key: settings.key })
      .from(settings)
      .where(eq(settings.key, sql.placeholder('key')))
      .prepare('setting_by_key');
  };
  return { build, builds: () => builds };
}

describe('queries built once', () => {
  it('are built once per database and bound with each call’s own values', async () => {
    const { build, builds } = counted();
    await database.db.insert(settings).values([
      { key: 'built.one', value: '1' },
      { key: 'built.two', value: '2' },
    ]);
    const first = await builtOnce(database.db, 'settingByKey', build).execute({ key: 'built.one' });
    const second = await builtOnce(database.db, 'settingByKey', build).execute({ key: 'built.two' });
    expect(first).toEqual([{ key: 'built.one' }]);
    expect(second).toEqual([{ key: 'built.two' }]);
    expect(builds()).toBe(1);
  });

  it('are built afresh inside a transaction, and run in it (they see its uncommitted rows)', async () => {
    const { build, builds } = counted();
    builtOnce(database.db, 'settingByKeyAgain', build);
    const seen = await database.db.transaction(async (tx) => {
      await tx.insert(settings).values({ key: 'built.in-transaction', value: '3' });
      return builtOnce(tx, 'settingByKeyAgain', build).execute({ key: 'built.in-transaction' });
    });
    expect(seen).toEqual([{ key: 'built.in-transaction' }]);
    expect(builds()).toBe(2);
  });
});
