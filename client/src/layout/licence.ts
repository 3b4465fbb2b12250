import { currentLanguage } from '../i18n';
import { LICENCE_STATUSES, type LicenceInfo, type LicenceStatus } from '@eln/shared';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function toCount(value: unknown): number | null {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
}

const textOf = (value: unknown) => (typeof value === 'string' ? value : '');

function statusOf(value: unknown): LicenceStatus {
  return (LICENCE_STATUSES as readonly unknown[]).includes(value) ? (value as LicenceStatus) : 'notGenuine';
}

/** Reads `/v1/licence/info`'s answer ({ licence, activeUsers }); anything unusable counts as no licence. */
export function parseLicenceAnswer(data: unknown): { licence: LicenceInfo | null; activeUsers: number | null } {
  if (!isRecord(data)) return { licence: null, activeUsers: null };
  const activeUsers = toCount(data.activeUsers);
  const licence = data.licence;
  if (!isRecord(licence) || typeof licence.companyName !== 'string' || typeof licence.serialNumber !== 'string') {
    return { licence: null, activeUsers };
  }
  return {
    licence: {
      status: statusOf(licence.status),
      companyName: licence.companyName,
      serialNumber: licence.serialNumber,
      seats: toCount(licence.seats) ?? 0,
      issuedAt: textOf(licence.issuedAt),
      startsAt: textOf(licence.startsAt),
      expiresAt: textOf(licence.expiresAt),
      maxVersion: textOf(licence.maxVersion),
      keyId: textOf(licence.keyId),
      updatedAt: textOf(licence.updatedAt),
    },
    activeUsers,
  };
}

/** A licence date in the reader's language (long form); text that is not a date is shown as it is. */
export function formatLicenceDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(currentLanguage(), { dateStyle: 'long' }).format(date);
}
