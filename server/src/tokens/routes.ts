import { api } from '@eln/shared';
import { bindCalls } from '../http/route.js';
import type { Services } from '../services.js';
import { createToken } from './commands/createToken.js';
import { revokeToken } from './commands/revokeToken.js';
import { updateTokenSettings } from './commands/updateTokenSettings.js';
import { allTokens, ownTokens, tokenSettingsOf } from './queries.js';

/** Personal access tokens: a person's own, and every one for administrators. */
export function tokenRoutes(services: Services) {
  return bindCalls(api.tokens, {
    list: ({ user }) => ownTokens(services.db, user),
    create: ({ body, actor }) => createToken(services, actor, body),
    revoke: ({ body, actor }) => revokeToken(services, actor, body),
    adminList: ({ body }) => allTokens(services.db, body),
    settings: () => tokenSettingsOf(services.db),
    updateSettings: ({ body, actor }) => updateTokenSettings(services, actor, body),
  });
}
