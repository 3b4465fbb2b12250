import {
  isTransactionOrigin,
  type Connection,
  type Extension,
  type afterUnloadDocumentPayload,
  type onChangePayload,
} from '@hocuspocus/server';
import type { FastifyBaseLogger } from 'fastify';
import type { AuthUser } from '../../auth/authUser.js';
import type { CollabContext } from '../connections/context.js';
import { parseDocumentName, type DocumentKind } from '../documents/documentKinds.js';

/** How long a failed record waits before it is tried again, at first and at most. */
const RETRY_MS = { first: 100, most: 5_000 };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Tells a document's kind who writes in it: the first accepted update of each user in each loaded
 * document is reported once (kinds that keep authorship, like notes, record it). Reported as the update
 * is accepted, before it is stored, so authorship is never missed, at worst over-reported. A kind whose
 * writers must all be known (`writerRecordedBeforeStoring`: templates, for their two-person rule) has
 * each connection's updates wait until its writer is recorded: extensions see an update in turn, so the
 * store after this one gets it only then.
 */
export class WriterRecord implements Extension {
  private readonly reported = new Map<string, Set<number>>();
  /** For kinds that record before storing: each connection's record, under way or done. */
  private readonly recordedBefore = new WeakMap<Connection, Promise<void> | 'done'>();
  private readonly byPrefix: Map<string, DocumentKind>;

  constructor(
    kinds: DocumentKind[],
    private readonly log: FastifyBaseLogger,
  ) {
    this.byPrefix = new Map(kinds.filter((kind) => kind.recordWriter).map((kind) => [kind.prefix, kind]));
  }

  async onChange({ documentName, transactionOrigin }: onChangePayload): Promise<void> {
    if (!isTransactionOrigin(transactionOrigin) || transactionOrigin.source !== 'connection') return;
    const { connection } = transactionOrigin;
    const user = (connection.context as Partial<CollabContext> | undefined)?.user;
    const parsed = parseDocumentName(documentName);
    const kind = parsed ? this.byPrefix.get(parsed.prefix) : undefined;
    if (!user || !parsed || !kind?.recordWriter) return;
    if (kind.writerRecordedBeforeStoring) return this.recordBeforeStoring(connection, () => this.recordUntilDone(kind, user, parsed.id));
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

  /** The connection's record, started at its first update; its later updates wait for the same one, in order. */
  private recordBeforeStoring(connection: Connection, record: () => Promise<void>): Promise<void> | undefined {
    const known = this.recordedBefore.get(connection);
    if (known === 'done') return undefined;
    if (known) return known;
    const recording = record().then(() => void this.recordedBefore.set(connection, 'done'));
    this.recordedBefore.set(connection, recording);
    return recording;
  }

  /** Tried until it is stored: the update waits meanwhile, as the store itself retries until its append is. */
  private async recordUntilDone(kind: DocumentKind, user: AuthUser, id: string): Promise<void> {
    for (let delay = RETRY_MS.first; ; delay = Math.min(delay * 2, RETRY_MS.most)) {
      try {
        await kind.recordWriter?.(user, id);
        return;
      } catch (error) {
        this.log.error(
          { err: error, documentName: `${kind.prefix}.${id}`, userNo: user.userNo },
          'could not record a writer of a live document; retrying',
        );
        await sleep(delay);
      }
    }
  }
}
