/**
 * authors/: who writes in live documents.
 *
 * ClientAuthors (this file) records which user each Yjs client belongs to, so that a saved state tells
 * who wrote each block (blockAuthors). WriterRecord (writers.ts) tells a document's kind who writes in
 * its documents (notes keep their writers).
 */
import { isTransactionOrigin, type Connection, type Extension, type onChangePayload } from '@hocuspocus/server';
import type { FastifyBaseLogger } from 'fastify';
import * as Y from 'yjs';
import { and, eq, inArray } from 'drizzle-orm';
import { CONTENT_FIELD } from '@eln/shared';
import { InsertBatches } from '../../db/batches.js';
import type { Db, Queryable } from '../../db/client.js';
import { fixedStatement } from '../../db/fixedStatement.js';
import { documentClients, users } from '../../db/schema.js';
import type { CollabContext } from '../connections/context.js';

/** Of fixed text (see fixedStatement): a batch of a thousand clients, built by drizzle, held the event loop amid the first edits. */
const insertDocumentClients = fixedStatement(
  'insert_document_clients',
  `insert into document_clients (document_name, client_id, user_no) select * from unnest($1::text[], $2::bigint[], $3::int[]) on conflict do nothing`,
);

/**
 * Records which user each Yjs client of a document belongs to, from the first accepted update of each
 * connection that carries exactly one client's items (an editor's own). Later, the items of a saved state
 * tell who wrote each block (blockAuthors). An update carrying several clients' items (an editor passing
 * on what it received while the server lacked it) is not taken as authorship.
 */
export class ClientAuthors implements Extension {
  private readonly recorded = new WeakSet<Connection>();
  /** A team opening a note starts writing together: their clients are recorded in a few statements, not one each. */
  private readonly records: InsertBatches<typeof documentClients.$inferInsert>;

  constructor(
    db: Db,
    private readonly log: FastifyBaseLogger,
  ) {
    this.records = new InsertBatches(
      (rows) =>
        insertDocumentClients(db, [rows.map((row) => row.documentName), rows.map((row) => row.clientId), rows.map((row) => row.userNo)]),
      (row) => `${row.documentName}\u0000${row.clientId}`,
    );
  }

  async onChange({ documentName, update, transactionOrigin }: onChangePayload): Promise<void> {
    if (!isTransactionOrigin(transactionOrigin) || transactionOrigin.source !== 'connection') return;
    const connection = transactionOrigin.connection as Connection<CollabContext>;
    const user = connection.context?.user;
    if (!user || this.recorded.has(connection)) return;
    const clients = [...Y.parseUpdateMeta(update).to.keys()];
    if (clients.length !== 1) return;
    this.recorded.add(connection);
    // Not awaited: authorship never delays an edit; a failed record is tried again at the next update.
    this.records.add({ documentName, clientId: clients[0] as number, userNo: user.userNo }).catch((error: unknown) => {
      this.recorded.delete(connection);
      this.log.error({ err: error, documentName }, 'could not record the author of a live document client');
    });
  }
}

/** Every client whose items make up this part of the document, the part's own creator included. */
function collectClients(type: Y.AbstractType<unknown>, into: Set<number>): void {
  if (type._item) into.add(type._item.id.client);
  for (let item = type._start; item; item = item.right) {
    if (item.deleted) continue;
    into.add(item.id.client);
    if (item.content instanceof Y.ContentType) collectClients(item.content.type, into);
  }
}

/**
 * Who wrote each top-level block of a document state, by blockUid: the users of the clients whose items
 * the block holds (as recorded by ClientAuthors; clients never recorded, such as the server's own when it
 * copies content, name nobody).
 */
export async function blockAuthors(q: Queryable, documentName: string, state: Uint8Array): Promise<Record<string, string[]>> {
  const doc = new Y.Doc();
  Y.applyUpdate(doc, state);
  const clientsByBlock = new Map<string, Set<number>>();
  for (const child of doc.getXmlFragment(CONTENT_FIELD).toArray()) {
    const blockUid = child instanceof Y.XmlElement ? child.getAttribute('blockUid') : undefined;
    if (typeof blockUid !== 'string') continue;
    const clients = new Set<number>();
    collectClients(child as Y.AbstractType<unknown>, clients);
    clientsByBlock.set(blockUid, clients);
  }
  const all = [...new Set([...clientsByBlock.values()].flatMap((clients) => [...clients]))];
  if (!all.length) return {};
  const rows = await q
    .select({ clientId: documentClients.clientId, name: users.name })
    .from(documentClients)
    .innerJoin(users, eq(users.userNo, documentClients.userNo))
    .where(and(eq(documentClients.documentName, documentName), inArray(documentClients.clientId, all)));
  const nameOf = new Map(rows.map((row) => [row.clientId, row.name]));
  const authors: Record<string, string[]> = {};
  for (const [blockUid, clients] of clientsByBlock) {
    authors[blockUid] = [...new Set([...clients].flatMap((client) => nameOf.get(client) ?? []))].sort();
  }
  return authors;
}
