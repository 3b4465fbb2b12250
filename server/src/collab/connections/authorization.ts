/**
 * connections/: who is behind each live connection, and what it may do.
 *
 * A socket first meets the socket limits (socketLimits.ts: sockets per address, bytes and time before
 * it authenticates). Each document it opens is then admitted here, by the access token and by the
 * document's kind (documents/), writing or read-only, and the connection carries its user from then on
 * (context.ts). When sessions, users or memberships change, commands/ has the users' open connections
 * checked again here; with several processes, an edit is applied only while this process is sure to
 * have applied every such change (see CollabAuthorization.beforeSync). endWriting.ts turns a connection
 * read-only and tells its client why; lost access, the guard's size limit and a refused store all end
 * writing through it.
 */
import type { beforeHandleMessagePayload, beforeSyncPayload, Connection, Extension } from '@hocuspocus/server';
import { messageYjsSyncStep1 } from 'y-protocols/sync';
import { COLLAB_REFUSALS, type CollabRefusalReason } from '@eln/shared';
import type { AuthUser } from '../../auth/authUser.js';
import type { TokenService } from '../../auth/tokens.js';
import type { CollabContext } from './context.js';
import { endWriting } from './endWriting.js';
import { parseDocumentName, type DocumentAccess, type DocumentKind } from '../documents/documentKinds.js';

/**
 * Hocuspocus sends an authentication error's `reason` to the provider's onAuthenticationFailed. A
 * refusal is an answer, not a fault: its message stays empty, which keeps Hocuspocus from logging it
 * as an error (it logs hook errors that have a message).
 */
export class CollabRefusal extends Error {
  constructor(readonly reason: CollabRefusalReason) {
    super('');
    this.name = `CollabRefusal(${reason})`;
  }
}

/** Close code for a connection whose later check failed (as HTTP 401). */
const CLOSE_UNAUTHORIZED = 4401;

/** Who is behind a connection and what they may do with its document. */
export interface Admission {
  user: AuthUser;
  access: DocumentAccess;
}

/**
 * Whether this process has applied every live command another process's change may be waiting for:
 * nothing when it has, else a read of the command log after which it has (LiveControlChannel.upToDate).
 */
export type CommandsApplied = () => Promise<void> | undefined;

/**
 * Who may open which live document, and whether they may write: the session must be live and its user
 * active, and the document's kind decides the rest, against the database as it is now.
 *
 * When sessions, users or memberships change, the users' open connections are checked again at once
 * (`recheck`, by LiveDocuments). A connection authenticated before the change but not yet open then is
 * missed by that; as an extension, this checks such a connection again before it handles anything.
 */
export class CollabAuthorization implements Extension {
  readonly extensionName = 'collab-authorization';
  /** Before any other extension sees a message, whose sender may no longer be allowed to send it. */
  readonly priority = 1000;
  private readonly kinds: Map<string, DocumentKind>;
  /** How many rechecks this process has begun; each connection's context keeps the count at its admission. */
  private rechecks = 0;
  /** The count at each user's latest recheck. */
  private readonly lastRecheckOf = new Map<number, number>();
  /** Checks of open connections under way. */
  private readonly rechecking = new WeakMap<Connection, Promise<unknown>>();

  constructor(
    private readonly tokens: TokenService,
    kinds: DocumentKind[],
    private readonly commandsApplied: CommandsApplied = () => undefined,
  ) {
    this.kinds = new Map(kinds.map((kind) => [kind.prefix, kind]));
  }

  /** A connection presenting an access token; refuses with the reason its client is told. */
  async byToken(token: string, documentName: string): Promise<Admission> {
    return this.admit(await this.tokens.authenticateOrNull(token), documentName);
  }

  /** An open connection checked again by its session, when the server learns that something changed. */
  async bySession(sessionId: string, documentName: string): Promise<Admission> {
    return this.admit(await this.tokens.userOfSession(sessionId), documentName);
  }

  /**
   * Every admission of these users until now needs a new check: the caller checks their open connections
   * (`recheck`); those still being established are checked before their first message.
   */
  beginRecheck(userNos: number[]): void {
    this.rechecks += 1;
    for (const userNo of userNos) this.lastRecheckOf.set(userNo, this.rechecks);
  }

  /** Checks an open connection again by its session, now. */
  async recheck(connection: Connection<CollabContext>): Promise<void> {
    connection.context.admittedAt = this.rechecks;
    const { sessionId } = connection.context.user;
    const check = recheckConnection(connection, () => this.bySession(sessionId, connection.document.name));
    this.rechecking.set(connection, check);
    try {
      await check;
    } catch (error) {
      // Not known to be allowed any more (the check itself failed): closed rather than left writing.
      // The client reconnects and authenticates afresh.
      endConnection(connection, COLLAB_REFUSALS.session);
      throw error;
    } finally {
      if (this.rechecking.get(connection) === check) this.rechecking.delete(connection);
    }
  }

  /** Runs before authentication: whatever is rechecked from here on applies to this connection too. */
  async onConnect(): Promise<Pick<CollabContext, 'admittedAt'>> {
    return { admittedAt: this.rechecks };
  }

  async beforeHandleMessage({ connection }: beforeHandleMessagePayload<CollabContext>): Promise<void> {
    await this.recheckIfDue(connection);
  }

  /**
   * Right before an edit is applied (after every other check of its message): with several processes,
   * a change that ends access waits until each has applied it, or until the lease of one that does not
   * answer has run out. Past its lease, this process reads the command log before it applies the edit,
   * so whatever ended meanwhile (a session, a user, a membership, a hold) ends before it; the connection
   * is then checked again if that concerned its user. Hocuspocus refuses the edit of a connection that
   * turned read-only or closed meanwhile.
   */
  async beforeSync({ connection, type }: beforeSyncPayload<CollabContext>): Promise<void> {
    // A first sync step only asks for the server's state; a read-only connection's edits are refused anyway.
    if (type === messageYjsSyncStep1 || connection.readOnly) return;
    const reading = this.commandsApplied();
    if (reading) await reading;
    await this.recheckIfDue(connection);
  }

  /**
   * Checks the connection again if its user's access was to be checked again since its admission, and
   * waits for a check under way: until it answers, the connection may no longer be allowed.
   */
  private async recheckIfDue(connection: Connection<CollabContext>): Promise<void> {
    // Its failure closed the connection, whose messages Hocuspocus then refuses.
    await this.rechecking.get(connection)?.catch(() => undefined);
    const { user, admittedAt } = connection.context;
    const lastRecheck = user ? this.lastRecheckOf.get(user.userNo) : undefined;
    // Written so that a connection without a count (admitted some other way) is checked too.
    if (lastRecheck !== undefined && !(admittedAt >= lastRecheck)) await this.recheck(connection);
  }

  private async admit(user: AuthUser | null, documentName: string): Promise<Admission> {
    if (!user) throw new CollabRefusal(COLLAB_REFUSALS.session);
    const parsed = parseDocumentName(documentName);
    const kind = parsed ? this.kinds.get(parsed.prefix) : undefined;
    if (!parsed || !kind) throw new CollabRefusal(COLLAB_REFUSALS.document);
    const access = await kind.authorize(user, parsed.id);
    if (!access) throw new CollabRefusal(COLLAB_REFUSALS.forbidden);
    return { user, access };
  }
}

/**
 * Applies a fresh check to an open connection. A refusal (or another user) closes it with the refusal's
 * reason, as Hocuspocus does for a thrown error, minus its error log; lost write access turns it
 * read-only and tells the client. Access is never widened here: a client that gained write access
 * reconnects for it. Answers the user the connection goes on with, or null once closed.
 */
export async function recheckConnection(connection: Connection<CollabContext>, check: () => Promise<Admission>): Promise<AuthUser | null> {
  let admission: Admission;
  try {
    admission = await check();
    if (admission.user.userNo !== connection.context.user?.userNo) throw new CollabRefusal(COLLAB_REFUSALS.session);
  } catch (error) {
    if (!(error instanceof CollabRefusal)) throw error;
    endConnection(connection, error.reason);
    return null;
  }
  const { user, access } = admission;
  if (access === 'read' && !connection.readOnly) endWriting(connection, 'access');
  // A fresh token may name another of the user's sessions: the connection now stands on that one, and
  // ending that session must find it.
  connection.context.user = user;
  return user;
}

/**
 * Closes a document connection for good. Read-only first: closing removes the connection from its
 * document, but messages it already queued are still handled, and would otherwise still be applied.
 */
export function endConnection(connection: Connection<CollabContext>, reason: CollabRefusalReason, code: number = CLOSE_UNAUTHORIZED): void {
  connection.readOnly = true;
  connection.close({ code, reason });
}
