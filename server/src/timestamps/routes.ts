import { api } from '@eln/shared';
import { bindCalls } from '../http/route.js';
import type { Services } from '../services.js';
import {
  createAuthority,
  deleteAuthority,
  listAuthorities,
  moveAuthority,
  probeAuthority,
  retryFailed,
  updateAuthority,
} from './authorities.js';
import { verifyTimestamp } from './verify.js';

/** Trusted time-stamps: re-verification for readers, the authorities for administrators. */
export function timestampRoutes({ db, timestamps }: Services) {
  return bindCalls(api.timestamps, {
    verify: ({ body, user }) => verifyTimestamp(db, user, body),
    authorities: () => listAuthorities(db),
    create: async ({ body, actor }) => {
      const created = await createAuthority(db, actor, body);
      timestamps.kick();
      return created;
    },
    update: async ({ body, actor }) => {
      await updateAuthority(db, actor, body);
      timestamps.kick();
      return null;
    },
    move: ({ body, actor }) => moveAuthority(db, actor, body),
    delete: ({ body, actor }) => deleteAuthority(db, actor, body),
    probe: ({ body }) => probeAuthority(body),
    retry: async ({ actor }) => {
      const answer = await retryFailed(db, actor);
      timestamps.kick();
      return answer;
    },
  });
}
