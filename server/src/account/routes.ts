import { api } from '@eln/shared';
import { bindCalls } from '../http/route.js';
import type { Services } from '../services.js';
import { updateAccountSettings } from './commands/updateSettings.js';
import { accountSettingsOf } from './queries.js';

/** My account: a person's own settings. */
export function accountRoutes(services: Services) {
  return bindCalls(api.account, {
    settings: ({ user }) => accountSettingsOf(services.db, user, services.config.timeZone),
    updateSettings: ({ body, actor }) => updateAccountSettings(services, actor, body),
  });
}
