import { api } from '@eln/shared';
import { bindCalls } from '../http/route.js';
import type { Services } from '../services.js';
import { registerLicence } from './commands/registerLicence.js';
import { licenceInfoAnswer } from './queries.js';

/** The licence: administrators read it and register a new one. */
export function licenceRoutes(services: Services) {
  return bindCalls(api.licence, {
    info: () => licenceInfoAnswer(services.db, services.config.trustedLicenceKeys),
    register: ({ body, actor }) => registerLicence(services, actor, body),
  });
}
