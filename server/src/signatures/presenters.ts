import type { SignatureEntry, TimestampInfo } from '@eln/shared';
import type { noteSignatures } from '../db/schema.js';

/** A signature as notes show it: the signer, the meaning, the answer and, once signed, whether its version is intact. */
export function signatureEntryOf(
  signature: typeof noteSignatures.$inferSelect,
  signer: { userId: string; name: string },
  intact: boolean | null,
  timestamp: TimestampInfo | null,
): SignatureEntry {
  return {
    signatureId: signature.signatureId,
    userId: signer.userId,
    name: signer.name,
    type: signature.type,
    status: signature.status,
    signatureName: signature.signatureName,
    description: signature.description,
    signedAt: signature.signedAt?.toISOString() ?? null,
    timeZone: signature.timeZone,
    signedVersion: signature.signedVersion,
    intact,
    timestamp,
  };
}
