import { refreshSession } from '../../api';
import { needsRefresh } from '../../session/model';
import { getSession } from '../../session/store';

/**
 * The current access token, refreshed first when it is about to expire. The live connection asks for
 * it at every (re)connect and uploads at every request, so a long session never sends a dead token.
 */
export async function freshAccessToken(): Promise<string> {
  const session = getSession();
  if (!session) return '';
  if (needsRefresh(session, Date.now())) {
    try {
      await refreshSession();
    } catch {
      /* the server could not be reached: try with the token we have */
    }
  }
  return getSession()?.accessToken ?? '';
}
