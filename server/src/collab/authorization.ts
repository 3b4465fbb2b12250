import type { Connection } from '@hocuspocus/server';
import { COLLAB_REFUSALS, HOLD_ENDED_MESSAGE, type CollabRefusalReason } from '@eln/shared';
import type { AuthUser } from '../auth/authUser.js';
import type { TokenService } from '../auth/tokens.js';
import type { CollabContext } from './collab.js';
import { parseDocumentName, type DocumentAccess, type DocumentKind } from './documentKinds.js';

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
 * Who may open which live document, and whether they may write: the session must be live and its user
 * active, and the document's kind decides the rest, against the database as it is now.
 */
export class CollabAuthorization {
  private readonly kinds: Map<string, DocumentKind>;

  constructor(
    private readonly tokens: TokenService,
    kinds: DocumentKind[],
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
  if (access === 'read' && !connection.readOnly) {
    connection.readOnly = true;
    connection.sendStateless(JSON.stringify({ type: HOLD_ENDED_MESSAGE, reason: 'access' }));
  }
  // A fresh token may name another of the user's sessions: the connection now stands on that one, and
  // ending that session must find it.
  connection.context.user = user;
  return user;
}

/**
 * Closes a document connection for good. Read-only first: closing removes the connection from its
 * document, but messages it already queued are still handled, and would otherwise still be applied.
 */
export function endConnection(connection: Connection<CollabContext>, reason: CollabRefusalReason): void {
  connection.readOnly = true;
  connection.close({ code: CLOSE_UNAUTHORIZED, reason });
}
