import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthFlags, SessionUser } from '@eln/shared';

/** The caller of an authenticated call or websocket connection. */
export interface AuthUser extends SessionUser {
  userNo: number;
  /** The session of a signed-in caller; for a personal access token's caller, `token:<tokenId>` (no session). */
  sessionId: string;
  auth: AuthFlags;
  /** Set when the caller acts with a personal access token (server/src/tokens): audit records name it. */
  tokenId?: string;
}

/** Who makes a change, and from which address: what a command needs of its caller, and what its audit record keeps. */
export interface Actor {
  user: AuthUser;
  clientAddress: string;
}

/**
 * Someone at the door, signed in or not: what the identity commands need of the call itself (the
 * cookies that carry refresh tokens and single sign-on flows are read from the request and set on the
 * reply).
 */
export interface Visitor {
  request: FastifyRequest;
  reply: FastifyReply;
  clientAddress: string;
}
