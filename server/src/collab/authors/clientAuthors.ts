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

/**
 * Every client whose items make up this part of the document, the part's own creator included. `since`
 * (a state vector) keeps only items written after it, deleted ones too: what someone typed and then
 * removed again is still their edit.
 */
function collectClients(type: Y.AbstractType<unknown>, into: Set<number>, since?: Map<number, number>): void {
  // An item may hold text typed on both sides of `since` (Yjs merges a client's consecutive items).
  const isNew = (item: Y.Item) => since === undefined || item.id.clock + item.length > (since.get(item.id.client) ?? 0);
  if (type._item && isNew(type._item)) into.add(type._item.id.client);
  for (let item = type._start; item; item = item.right) {
    if (item.deleted && since === undefined) continue;
    if (isNew(item)) into.add(item.id.client);
    if (item.content instanceof Y.ContentType) collectClients(item.content.type, into, since);
  }
}

/** The top-level blocks of a document (or of a document state), by blockUid. */
function blocksOf(source: Uint8Array | Y.Doc): Map<string, Y.XmlElement> {
  const doc = source instanceof Y.Doc ? source : new Y.Doc();
  if (!(source instanceof Y.Doc)) Y.applyUpdate(doc, source);
  const blocks = new Map<string, Y.XmlElement>();
  for (const child of doc.getXmlFragment(CONTENT_FIELD).toArray()) {
    const blockUid = child instanceof Y.XmlElement ? child.getAttribute('blockUid') : undefined;
    if (typeof blockUid === 'string') blocks.set(blockUid, child as Y.XmlElement);
  }
  return blocks;
}

/** A person as the history names one. */
export interface BlockPerson {
  userId: string;
  name: string;
}

/** A person with the account's number (what an export's people are keyed by). */
export interface BlockAccount extends BlockPerson {
  userNo: number;
}

const asPeople = (accounts: Record<string, BlockAccount[]>): Record<string, BlockPerson[]> =>
  Object.fromEntries(Object.entries(accounts).map(([blockUid, list]) => [blockUid, list.map(({ userId, name }) => ({ userId, name }))]));

/**
 * The users behind each block's clients (as recorded by ClientAuthors; clients never recorded, such as
 * the server's own when it copies or restores content, name nobody), sorted by name.
 */
async function peopleOfClients(
  q: Queryable,
  documentName: string,
  clientsByBlock: ReadonlyMap<string, ReadonlySet<number>>,
): Promise<Record<string, BlockAccount[]>> {
  const all = [...new Set([...clientsByBlock.values()].flatMap((clients) => [...clients]))];
  const rows = all.length
    ? await q
        .select({ clientId: documentClients.clientId, userNo: users.userNo, userId: users.userId, name: users.name })
        .from(documentClients)
        .innerJoin(users, eq(users.userNo, documentClients.userNo))
        .where(and(eq(documentClients.documentName, documentName), inArray(documentClients.clientId, all)))
    : [];
  const personOf = new Map(rows.map(({ clientId, ...account }) => [clientId, account]));
  const people: Record<string, BlockAccount[]> = {};
  for (const [blockUid, clients] of clientsByBlock) {
    const byUser = new Map(
      [...clients].flatMap((client) => {
        const person = personOf.get(client);
        return person ? [[person.userId, person] as const] : [];
      }),
    );
    people[blockUid] = [...byUser.values()].sort((a, b) => a.name.localeCompare(b.name) || a.userId.localeCompare(b.userId));
  }
  return people;
}

/** Who wrote each top-level block of a document state, by blockUid: the users of the clients whose items the block holds. */
export async function blockAuthors(q: Queryable, documentName: string, state: Uint8Array): Promise<Record<string, BlockPerson[]>> {
  return asPeople(await blockAuthorAccounts(q, documentName, state));
}

/** blockAuthors with each person's account number. */
export async function blockAuthorAccounts(q: Queryable, documentName: string, state: Uint8Array): Promise<Record<string, BlockAccount[]>> {
  const clientsByBlock = new Map<string, Set<number>>();
  for (const [blockUid, block] of blocksOf(state)) {
    const clients = new Set<number>();
    collectClients(block as Y.AbstractType<unknown>, clients);
    clientsByBlock.set(blockUid, clients);
  }
  return peopleOfClients(q, documentName, clientsByBlock);
}

/**
 * Who changed each of these blocks since an earlier state of the document (`since`, its state vector),
 * by blockUid: the users whose items in the block in `to` (a state, or the live document itself, read as
 * it is) are not in that earlier state (written after it, kept or deleted since). Yjs keeps who inserted,
 * not who deleted: a block whose only change is text removed names nobody.
 */
export async function blockEditors(
  q: Queryable,
  documentName: string,
  since: Map<number, number>,
  to: Uint8Array | Y.Doc,
  blockUids: readonly string[],
): Promise<Record<string, BlockPerson[]>> {
  if (!blockUids.length) return {};
  const blocks = blocksOf(to);
  const clientsByBlock = new Map<string, Set<number>>();
  for (const blockUid of blockUids) {
    const clients = new Set<number>();
    const block = blocks.get(blockUid);
    if (block) collectClients(block as Y.AbstractType<unknown>, clients, since);
    clientsByBlock.set(blockUid, clients);
  }
  return asPeople(await peopleOfClients(q, documentName, clientsByBlock));
}
