import { is } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import type { Queryable } from './client.js';

/** Per database, the queries built so far, by name. */
const built = new WeakMap<Queryable, Map<string, unknown>>();

/**
 * A query that every request runs (the session check, the note lookup), built once per database and
 * afterwards only bound: drizzle's builder costs about half a millisecond a query, more than
 * PostgreSQL takes to answer a lookup by key. `build` makes a drizzle prepared query whose values are
 * placeholders (`sql.placeholder`). Inside a transaction it is built afresh: a query prepared on the
 * database runs on the pool, outside the transaction.
 */
export function builtOnce<T>(q: Queryable, name: string, build: (q: Queryable) => T): T {
  if (is(q, PgTransaction)) return build(q);
  let queries = built.get(q);
  if (!queries) built.set(q, (queries = new Map<string, unknown>()));
  let query = queries.get(name) as T | undefined;
  if (query === undefined) queries.set(name, (query = build(q)));
  return query;
}
