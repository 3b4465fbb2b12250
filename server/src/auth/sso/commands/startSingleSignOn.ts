import type { SsoStartAnswer } from '@eln/shared';
import { languageOf } from '../../../http/envelope.js';
import type { Services } from '../../../services.js';
import type { Visitor } from '../../authUser.js';
import { SsoFailure } from '../oidcClient.js';
import { setFlowCookie } from '../ssoCookies.js';
import { refusalOfProvider, type SingleSignOn } from '../singleSignOn.js';

/** Starts an authorization code flow: its state, nonce and PKCE verifier go into the browser's flow cookie. */
export async function startSingleSignOn(
  services: Services,
  { provider }: SingleSignOn,
  { request, reply }: Pick<Visitor, 'request' | 'reply'>,
): Promise<SsoStartAnswer> {
  const { flow, authorizationUrl } = await provider.begin(languageOf(request)).catch((error: unknown) => {
    throw error instanceof SsoFailure ? refusalOfProvider(services, error) : error;
  });
  setFlowCookie(request.server.jwt, request, reply, flow);
  return { authorizationUrl };
}
