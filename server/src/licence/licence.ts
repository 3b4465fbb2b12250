import { count, eq, sql } from 'drizzle-orm';
import { LICENCE_PRODUCT, PRODUCT, type LicenceInfo, type LicencePayload, type LicenceStatus } from '@eln/shared';
import type { Queryable } from '../db/client.js';
import { licences, users } from '../db/schema.js';
import { readLicenceKey } from './licenceKey.js';
import type { VendorKey } from './vendorKeys.js';

type LicenceRow = typeof licences.$inferSelect;

/** How far the clock may seem to go back (NTP steps, a restored VM) before it counts as set back. */
export const CLOCK_TOLERANCE_MS = 60 * 60 * 1000;

/** The running product's major.minor, which a licence's maxVersion must cover. */
export const PRODUCT_MINOR_VERSION = PRODUCT.version.split('.').slice(0, 2).join('.');

function versionNumbers(version: string): [number, number] {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return [major, minor];
}

/** Whether a licence for `maxVersion` covers this product version (1.4 covers 1.4.x, 1.9 covers 1.4.3). */
export function coversProductVersion(maxVersion: string, productVersion = PRODUCT_MINOR_VERSION): boolean {
  const [maxMajor, maxMinor] = versionNumbers(maxVersion);
  const [major, minor] = versionNumbers(productVersion);
  return maxMajor > major || (maxMajor === major && maxMinor >= minor);
}

/** What a genuine key's own terms say about it now, seats aside. */
export function termsStatus(payload: LicencePayload, now: Date): LicenceStatus {
  if (payload.product !== LICENCE_PRODUCT || !coversProductVersion(payload.maxVersion)) return 'otherProduct';
  if (Date.parse(payload.starts ?? payload.issued) > now.getTime()) return 'notYetValid';
  if (Date.parse(payload.expires) <= now.getTime()) return 'expired';
  return 'valid';
}

/**
 * The registered licence's standing. The stored key is read again every time, so a licence edited in
 * the database (more seats, a later expiry) is not genuine: the columns are only a copy of the key.
 */
export function licenceStatus(row: LicenceRow, activeUsers: number, trusted: readonly VendorKey[], now: Date): LicenceStatus {
  const reading = readLicenceKey(row.licenceKey, trusted);
  if (!reading.ok || !matchesColumns(reading.payload, row)) return 'notGenuine';
  if (row.lastSeenAt.getTime() - now.getTime() > CLOCK_TOLERANCE_MS) return 'clockSetBack';
  const terms = termsStatus(reading.payload, now);
  if (terms !== 'valid') return terms;
  return activeUsers > reading.payload.seats ? 'seatsExceeded' : 'valid';
}

function matchesColumns(payload: LicencePayload, row: LicenceRow): boolean {
  return (
    payload.seats === row.seats &&
    payload.company === row.companyName &&
    payload.serial === row.serialNumber &&
    Math.abs(Date.parse(payload.expires) - row.expiresAt.getTime()) <= 1
  );
}

/** The columns stored for a genuine key. */
export function licenceColumns(licenceKey: string, payload: LicencePayload, now: Date) {
  return {
    licenceKey,
    keyId: payload.keyId,
    product: payload.product,
    maxVersion: payload.maxVersion,
    companyName: payload.company,
    serialNumber: payload.serial,
    seats: payload.seats,
    issuedAt: new Date(payload.issued),
    startsAt: new Date(payload.starts ?? payload.issued),
    expiresAt: new Date(payload.expires),
    lastSeenAt: now,
    updatedAt: now,
  };
}

export async function activeUserCount(q: Queryable): Promise<number> {
  const [active] = await q.select({ n: count() }).from(users).where(eq(users.active, true));
  return Number(active?.n ?? 0);
}

/**
 * Whether members may sign in under the registered licence: null when they may, else why not. With no
 * licence registered the notebook runs in evaluation mode; administrators are never locked out, so that
 * they can register a new one. Each check moves the licence's last-seen time forward, which is what
 * reveals a clock set back later.
 */
export async function licenceProblem(
  q: Queryable,
  trusted: readonly VendorKey[],
  now = new Date(),
): Promise<Exclude<LicenceStatus, 'valid'> | null> {
  const [row] = await q.select().from(licences);
  if (!row) return null;
  const status = licenceStatus(row, await activeUserCount(q), trusted, now);
  if (status !== 'clockSetBack') {
    await q.update(licences).set({ lastSeenAt: sql`greatest(${licences.lastSeenAt}, ${now.toISOString()}::timestamptz)` });
  }
  return status === 'valid' ? null : status;
}

export function licenceInfo(row: LicenceRow, status: LicenceStatus): LicenceInfo {
  return {
    status,
    companyName: row.companyName,
    serialNumber: row.serialNumber,
    seats: row.seats,
    issuedAt: row.issuedAt.toISOString(),
    startsAt: row.startsAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    maxVersion: row.maxVersion,
    keyId: row.keyId,
    updatedAt: row.updatedAt.toISOString(),
  };
}
