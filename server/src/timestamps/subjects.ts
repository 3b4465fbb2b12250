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

/** The id a version's stamp is kept under: the note's number and the version's. */
export const versionStampId = (noteNo: number, version: number) => `${noteNo}:${version}`;

/** A saved version of a signed note: which note, which version, its content's SHA-256, who saved it and when. */
export function versionSubject(version: {
  labNoteNo: number;
  labNoteNumber: string;
  version: number;
  blocksHash: string;
  savedBy: string;
  savedAt: Date;
}) {
  return {
    kind: 'version',
    labNoteNo: version.labNoteNo,
    labNoteNumber: version.labNoteNumber,
    version: version.version,
    blocksHash: version.blocksHash,
    savedBy: version.savedBy,
    savedAt: version.savedAt.toISOString(),
  };
}

/** An export's file: which job, its format and name, and the SHA-256 and size of exactly the file made. */
export function exportSubject(job: {
  jobId: string;
  format: string;
  projectNo: number | null;
  fileName: string;
  size: number;
  sha256: string;
  requestedBy: string;
}) {
  return {
    kind: 'export',
    jobId: job.jobId,
    format: job.format,
    projectNo: job.projectNo,
    fileName: job.fileName,
    size: job.size,
    sha256: job.sha256,
    requestedBy: job.requestedBy,
  };
}

/** The audit chain's head at a moment: its last record's number and hash (the hash covers every record before it). */
export function auditAnchorSubject(head: { seq: number; hash: string }, anchoredAt: Date) {
  return { kind: 'auditAnchor', seq: head.seq, hash: head.hash, anchoredAt: anchoredAt.toISOString() };
}
