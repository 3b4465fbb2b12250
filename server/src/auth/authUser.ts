import type { AuthFlags, SessionUser } from '@eln/shared';

/** The caller of an authenticated call or websocket connection. */
export interface AuthUser extends SessionUser {
  userNo: number;
  sessionId: string;
  auth: AuthFlags;
}

/** Who makes a change, and from which address: what a command needs of its caller, and what its audit record keeps. */
export interface Actor {
  user: AuthUser;
  clientAddress: string;
}
