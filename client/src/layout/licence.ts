import type { LicenceInfo } from '@eln/shared';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function toCount(value: unknown): number | null {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
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
      companyName: licence.companyName,
      serialNumber: licence.serialNumber,
      seats: toCount(licence.seats) ?? 0,
      expiresAt: typeof licence.expiresAt === 'string' ? licence.expiresAt : '',
      updatedAt: typeof licence.updatedAt === 'string' ? licence.updatedAt : '',
    },
    activeUsers,
  };
}
