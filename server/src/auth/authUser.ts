import type { AuthFlags, SessionUser } from '@eln/shared';

/** The caller of an authenticated call or websocket connection. */
export interface AuthUser extends SessionUser {
  userNo: number;
  sessionId: string;
  auth: AuthFlags;
}
