import type { FastifyInstance } from 'fastify';
import { emptyRequest, ERR, licenceRegisterRequest, PRODUCT, type LicenceInfoAnswer, type LicencePayload } from '@eln/shared';
import { appendAudit } from '../audit/audit.js';
import type { Queryable } from '../db/client.js';
import { licences } from '../db/schema.js';
import { AppError } from '../http/errors.js';
import { defineRoute } from '../http/route.js';
import type { Services } from '../services.js';
import { activeUserCount, licenceColumns, licenceInfo, licenceStatus, termsStatus } from './licence.js';
import { readLicenceKey } from './licenceKey.js';

export function registerLicenceRoutes(app: FastifyInstance, services: Services): void {
  const trusted = services.config.trustedLicenceKeys;

  async function infoAnswer(q: Queryable): Promise<LicenceInfoAnswer> {
    const [row] = await q.select().from(licences);
    const activeUsers = await activeUserCount(q);
    return { activeUsers, licence: row ? licenceInfo(row, licenceStatus(row, activeUsers, trusted, new Date())) : null };
  }

  defineRoute(app, services, {
    path: '/v1/licence/info',
    access: 'admin',
    failure: ERR.licenceLookup,
    body: emptyRequest,
    handler: () => infoAnswer(services.db),
  });

  defineRoute(app, services, {
    path: '/v1/licence/register',
    access: 'admin',
    body: licenceRegisterRequest,
    async handler({ body, user: admin, clientAddress }): Promise<LicenceInfoAnswer> {
      const now = new Date();
      const payload = acceptedPayload(body.licenceKey, now);
      return services.db.transaction(async (tx) => {
        // One licence at a time: the new one replaces the old, and the record keeps both.
        const [previous] = await tx.delete(licences).returning();
        await tx.insert(licences).values(licenceColumns(body.licenceKey, payload, now));
        await appendAudit(tx, {
          actor: admin,
          action: 'licence.registered',
          target: { type: 'licence', id: payload.serial },
          before: previous ? auditedTerms(previous) : null,
          after: auditedTerms({ ...licenceColumns(body.licenceKey, payload, now) }),
          clientAddress,
        });
        return infoAnswer(tx);
      });
    },
  });

  /** A key is registered only when it is genuine and its terms hold today; each refusal says why. */
  function acceptedPayload(licenceKey: string, now: Date): LicencePayload {
    const reading = readLicenceKey(licenceKey, trusted);
    if (!reading.ok) throw new AppError(ERR.licenceNotGenuine);
    const { payload } = reading;
    switch (termsStatus(payload, now)) {
      case 'otherProduct':
        throw new AppError(ERR.licenceOtherProduct, { params: { version: PRODUCT.version } });
      case 'notYetValid':
        throw new AppError(ERR.licenceNotYetValid, { params: { date: (payload.starts ?? payload.issued).slice(0, 10) } });
      case 'expired':
        throw new AppError(ERR.licenceExpired, { params: { date: payload.expires.slice(0, 10) } });
      default:
        return payload;
    }
  }
}

function auditedTerms(row: {
  serialNumber: string;
  companyName: string;
  seats: number;
  keyId: string;
  maxVersion: string;
  startsAt: Date;
  expiresAt: Date;
}) {
  return {
    serial: row.serialNumber,
    company: row.companyName,
    seats: row.seats,
    keyId: row.keyId,
    maxVersion: row.maxVersion,
    starts: row.startsAt.toISOString(),
    expires: row.expiresAt.toISOString(),
  };
}
