import { ERR, PRODUCT, type api, type CallRequest, type LicenceInfoAnswer, type LicencePayload } from '@eln/shared';
import { appendAudit, auditedActor } from '../../audit/audit.js';
import type { Actor } from '../../auth/authUser.js';
import { licences } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import { enforce } from '../../http/verdicts.js';
import type { Services } from '../../services.js';
import { licenceColumns, termsStatus } from '../licence.js';
import { readLicenceKey } from '../licenceKey.js';
import { canManageLicence, MANAGE_REFUSALS } from '../policy.js';
import { licenceInfoAnswer } from '../queries.js';
import type { VendorKey } from '../vendorKeys.js';

/**
 * Registers a licence key in place of the registered one (one licence at a time), audited with the
 * terms of both; answers the licence as the info call does.
 */
export async function registerLicence(
  { db, config }: Services,
  actor: Actor,
  input: CallRequest<typeof api.licence.register>,
): Promise<LicenceInfoAnswer> {
  enforce(canManageLicence(actor.user), MANAGE_REFUSALS);
  const trusted = config.trustedLicenceKeys;
  const now = new Date();
  const payload = acceptedPayload(input.licenceKey, trusted, now);
  return db.transaction(async (tx) => {
    // One licence at a time: the new one replaces the old, and the record keeps both.
    const [previous] = await tx.delete(licences).returning();
    await tx.insert(licences).values(licenceColumns(input.licenceKey, payload, now));
    await appendAudit(tx, {
      ...auditedActor(actor),
      action: 'licence.registered',
      target: { type: 'licence', id: payload.serial },
      before: previous ? auditedTerms(previous) : null,
      after: auditedTerms({ ...licenceColumns(input.licenceKey, payload, now) }),
    });
    return licenceInfoAnswer(tx, trusted);
  });
}

/** A key is registered only when it is genuine and its terms hold today; each refusal says why. */
function acceptedPayload(licenceKey: string, trusted: readonly VendorKey[], now: Date): LicencePayload {
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
