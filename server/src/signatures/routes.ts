import { api } from '@eln/shared';
import { bindCalls } from '../http/route.js';
import type { Services } from '../services.js';
import { remindSigner } from './commands/remindSigner.js';
import { removeSignature } from './commands/removeSignature.js';
import { requestSignatures } from './commands/requestSignatures.js';
import { respondToRequest } from './commands/respondToRequest.js';
import { updateSigners } from './commands/updateSigners.js';
import { noteSignatureOverview, projectSignatureOverview } from './overview.js';

/** Signatures: requests by the writer or leader, signing with the password, removal by the leader. */
export function signatureRoutes(services: Services) {
  return bindCalls(api.signatures, {
    request: ({ body, actor }) => requestSignatures(services, actor, body),
    updateSigners: ({ body, actor }) => updateSigners(services, actor, body),
    respond: ({ body, actor }) => respondToRequest(services, actor, body),
    remove: ({ body, actor }) => removeSignature(services, actor, body),
  });
}

/** The signature overview of a note and of a project, and reminders to signers who have not answered. */
export function signatureOverviewRoutes(services: Services) {
  return bindCalls(api.signatureOverview, {
    noteOverview: ({ body, user }) => noteSignatureOverview(services.db, user, body),
    projectOverview: ({ body, user }) => projectSignatureOverview(services.db, user, body),
    remind: ({ body, actor }) => remindSigner(services, actor, body),
  });
}
