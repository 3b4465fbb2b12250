import { isTransactionOrigin, type Extension, type afterUnloadDocumentPayload, type onChangePayload } from '@hocuspocus/server';
import type { FastifyBaseLogger } from 'fastify';
import type { CollabContext } from '../connections/context.js';
import { parseDocumentName, type DocumentKind } from '../documents/documentKinds.js';

/**
 * Tells a document's kind who writes in it: the first accepted update of each user in each loaded
 * document is reported once (kinds that keep authorship, like notes, record it). Reported as the update
 * is accepted, before it is stored, so authorship is never missed, at worst over-reported.
 */
export class WriterRecord implements Extension {
  private readonly reported = new Map<string, Set<number>>();
  private readonly byPrefix: Map<string, DocumentKind>;

  constructor(
    kinds: DocumentKind[],
    private readonly log: FastifyBaseLogger,
  ) {
    this.byPrefix = new Map(kinds.filter((kind) => kind.recordWriter).map((kind) => [kind.prefix, kind]));
  }

  async onChange({ documentName, transactionOrigin }: onChangePayload): Promise<void> {
    if (!isTransactionOrigin(transactionOrigin) || transactionOrigin.source !== 'connection') return;
    const user = (transactionOrigin.connection.context as Partial<CollabContext> | undefined)?.user;
    const parsed = parseDocumentName(documentName);
    const kind = parsed ? this.byPrefix.get(parsed.prefix) : undefined;
    if (!user || !parsed || !kind?.recordWriter) return;
    const users = this.reported.get(documentName) ?? new Set<number>();
    if (users.has(user.userNo)) return;
    users.add(user.userNo);
    this.reported.set(documentName, users);
    kind.recordWriter(user, parsed.id).catch((error: unknown) => {
      users.delete(user.userNo);
      this.log.error({ err: error, documentName, userNo: user.userNo }, 'could not record a writer of a live document');
    });
  }

  async afterUnloadDocument({ documentName }: afterUnloadDocumentPayload): Promise<void> {
    this.reported.delete(documentName);
  }
}
