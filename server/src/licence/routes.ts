import { count, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { emptyRequest, type LicenceInfoAnswer } from '@eln/shared';
import { licences, users } from '../db/schema.js';
import { defineRoute } from '../http/route.js';
import type { Services } from '../services.js';

export function registerLicenceRoutes(app: FastifyInstance, services: Services): void {
  defineRoute(app, services, {
    path: '/v1/licence/info',
    access: 'admin',
    body: emptyRequest,
    async handler(): Promise<LicenceInfoAnswer> {
      const [licence] = await services.db.select().from(licences);
      const [active] = await services.db.select({ n: count() }).from(users).where(eq(users.active, true));
      return {
        activeUsers: Number(active?.n ?? 0),
        licence: licence
          ? {
              companyName: licence.companyName,
              serialNumber: licence.serialNumber,
              seats: licence.seats,
              expiresAt: licence.expiresAt.toISOString(),
              updatedAt: licence.updatedAt.toISOString(),
            }
          : null,
      };
    },
  });
}
