import { api } from '@eln/shared';
import { bindCalls } from '../http/route.js';
import type { Services } from '../services.js';
import { systemInfo } from './presenters.js';

/** Public facts about this installation. */
export function systemRoutes(services: Services) {
  return bindCalls(api.system, {
    info: async () => systemInfo(services.config),
  });
}
