import { rowsOf, type Queryable } from './client.js';

/**
 * A statement whose text never changes, whatever its values (a list goes as one array parameter:
 * `= any($1::int[])`), for the statements run with every group commit or temp save. PostgreSQL
 * parses it once per connection (postgres.js keeps it prepared by its text), so afterwards it goes out
 * beside the statements sent with it instead of waiting for a describe round trip of its own (which
 * every unprepared statement with parameters costs), and drizzle builds nothing per call (its builder
 * cost more of the event loop than the query's answer). Rows come back as PostgreSQL names them.
 */
export function fixedStatement<Row>(name: string, text: string): (q: Queryable, params: unknown[]) => Promise<Row[]> {
  return async (q, params) => {
    return rowsOf<Row>(await q._.session.prepareQuery({ sql: text, params }, undefined, name, false).execute());
  };
}

/** Bytes as one element of a `text[]` parameter, for `decode(..., 'base64')`: postgres.js cannot send `bytea[]`. */
export function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}
