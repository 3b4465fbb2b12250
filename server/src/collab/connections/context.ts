import type { AuthUser } from '../../auth/authUser.js';

/** What each live connection carries from its admission on. */
export interface CollabContext {
  /** The connection's user and the session it stands on (live commands find connections by these). */
  user: AuthUser;
  /** When it was admitted, in CollabAuthorization's count of rechecks. */
  admittedAt: number;
}
