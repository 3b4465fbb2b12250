import { ERR } from '@eln/shared';
import { AppError } from '../../http/errors.js';
import type { Services } from '../../services.js';
import { OidcClient, SsoFailure } from './oidcClient.js';
import type { SsoConfig } from './ssoConfig.js';

/** The configured provider: its settings, and the client that talks to it (one per server, which keeps its discovery). */
export interface SingleSignOn {
  settings: SsoConfig;
  provider: OidcClient;
}

export function singleSignOnOf(settings: SsoConfig | null): SingleSignOn | null {
  return settings ? { settings, provider: new OidcClient(settings) } : null;
}

/** Without a configured provider, the start and finish calls answer as calls this server does not have (9005). */
export function requireSingleSignOn(sso: SingleSignOn | null): SingleSignOn {
  if (!sso) throw new AppError(ERR.unknownCall);
  return sso;
}

/** How a sign-in proved who it is, as the audit records say it (`after`). */
export const ssoMethod = (settings: SsoConfig) => ({ method: 'sso', issuer: settings.issuer });

/** The provider is down (1022) or said no (1021): logged, not audited (no one was identified). */
export function refusalOfProvider(services: Services, error: SsoFailure): AppError {
  if (error.kind === 'providerRefused') {
    // Warn: besides a user's cancel, this is how a wrong client secret or an unassigned user shows.
    services.log.warn({ providerError: error.detail }, 'single sign-on refused by the provider');
    return new AppError(ERR.ssoProviderRefused, { params: { reason: error.detail } });
  }
  services.log.warn({ err: error }, 'single sign-on provider unreachable');
  return new AppError(ERR.ssoProviderDown);
}
