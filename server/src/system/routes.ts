import type { FastifyInstance } from 'fastify';
import { emptyRequest, type SystemInfo } from '@eln/shared';
import { defineRoute } from '../http/route.js';
import type { Services } from '../services.js';

export function registerSystemRoutes(app: FastifyInstance, services: Services): void {
  defineRoute(app, services, {
    path: '/v1/system/info',
    access: 'public',
    body: emptyRequest,
    handler: async (): Promise<SystemInfo> => ({
      mainHosts: services.config.company.mainHosts,
      mainCompanyCode: services.config.company.code,
      otherCompanyCode: services.config.company.otherCode,
    }),
  });
}
