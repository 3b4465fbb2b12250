import type { noteSignatures } from '../db/schema.js';

type Signature = typeof noteSignatures.$inferSelect;

/*
 * What is stamped for each kind of record: the facts that make the record, as canonical JSON (queue.ts
 * subjectBytes). An inspector reads them beside the token and checks them against the record itself.
 */

/** A signature: who signed which version of which note, as what, when, and the SHA-256 of the signed content. */
export function signatureSubject(signature: Signature, labNoteNo: number, signer: { userId: string; name: string }) {
  return {
    kind: 'signature',
    signatureId: signature.signatureId,
    labNoteNo,
    version: signature.signedVersion,
    blocksHash: signature.blocksHash,
    signer: signer.userId,
    signerName: signer.name,
    meaning: signature.type,
    printedName: signature.signatureName,
    signedAt: signature.signedAt?.toISOString() ?? null,
    timeZone: signature.timeZone,
  };
}

/** A signature's removal: which signature, by whom, when and why. */
export function signatureRemovalSubject(signature: Signature, labNoteNo: number, people: { signer: string; removedBy: string }) {
  return {
    kind: 'signatureRemoval',
    signatureId: signature.signatureId,
    labNoteNo,
    signer: people.signer,
    meaning: signature.type,
    signedVersion: signature.signedVersion,
    blocksHash: signature.blocksHash,
    removedBy: people.removedBy,
    removedAt: signature.removedAt?.toISOString() ?? null,
    reason: signature.removedReason,
  };
}
