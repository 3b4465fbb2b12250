import { api } from '@eln/shared';
import { bindCalls } from '../http/route.js';
import type { Services } from '../services.js';
import { removeSignature } from './commands/removeSignature.js';
import { requestSignatures } from './commands/requestSignatures.js';
import { respondToRequest } from './commands/respondToRequest.js';
import { updateSigners } from './commands/updateSigners.js';

/** Signatures: requests by the writer or leader, signing with the password, removal by the leader. */
export function signatureRoutes(services: Services) {
  return bindCalls(api.signatures, {
    request: ({ body, actor }) => requestSignatures(services, actor, body),
    updateSigners: ({ body, actor }) => updateSigners(services, actor, body),
    respond: ({ body, actor }) => respondToRequest(services, actor, body),
    remove: ({ body, actor }) => removeSignature(services, actor, body),
  });
}
