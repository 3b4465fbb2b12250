import type { LicenceInfoAnswer } from '@eln/shared';
import type { Queryable } from '../db/client.js';
import { licences } from '../db/schema.js';
import { activeUserCount, licenceInfo, licenceStatus } from './licence.js';
import type { VendorKey } from './vendorKeys.js';

/** The registered licence with its standing now (or none), and the active users it is compared with. */
export async function licenceInfoAnswer(q: Queryable, trusted: readonly VendorKey[]): Promise<LicenceInfoAnswer> {
  const [row] = await q.select().from(licences);
  const activeUsers = await activeUserCount(q);
  return { activeUsers, licence: row ? licenceInfo(row, licenceStatus(row, activeUsers, trusted, new Date())) : null };
}
