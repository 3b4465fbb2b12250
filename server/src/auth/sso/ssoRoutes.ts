import { api } from '@eln/shared';
import { bindCalls } from '../../http/route.js';
import type { Services } from '../../services.js';
import { finishSingleSignOn } from './commands/finishSingleSignOn.js';
import { startSingleSignOn } from './commands/startSingleSignOn.js';
import { requireSingleSignOn, singleSignOnOf } from './singleSignOn.js';

/**
 * Single sign-on (OpenID Connect, authorization code with PKCE). The configuration call tells the
 * sign-in page whether to offer SSO; start and finish work only when a provider is configured.
 */
export function ssoRoutes(services: Services) {
  const sso = singleSignOnOf(services.config.sso);
  return bindCalls(api.sso, {
    config: async () => ({ enabled: sso !== null }),
    start: ({ request, reply }) => startSingleSignOn(services, requireSingleSignOn(sso), { request, reply }),
    finish: ({ body, request, reply, clientAddress }) =>
      finishSingleSignOn(services, requireSingleSignOn(sso), { request, reply, clientAddress }, body),
  });
}
