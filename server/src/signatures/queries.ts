import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import { NOTE_STATUS, SIGNATURE_STATUS, type NoteStatus, type SavedBlock, type SignatureEntry } from '@eln/shared';
import type { Queryable, Tx } from '../db/client.js';
import { labNotes, noteSignatures, noteVersions, users } from '../db/schema.js';
import { versionFingerprint } from '../notes/versionFingerprint.js';

/** The SHA-256 of a saved version's stored blocks, recomputed now: what an intact signature must match. */
export async function versionHash(q: Queryable, noteNo: number, version: number): Promise<string | null> {
  const [row] = await q
    .select({ blocks: noteVersions.blocks })
    .from(noteVersions)
    .where(and(eq(noteVersions.noteNo, noteNo), eq(noteVersions.version, version)));
  return row ? versionFingerprint(row.blocks as SavedBlock[]) : null;
}

/** The live (not removed) signatures of notes, each re-checked against its version's stored content. */
export async function signaturesOf(q: Queryable, noteNos: number[]): Promise<Map<number, SignatureEntry[]>> {
  const result = new Map<number, SignatureEntry[]>();
  if (!noteNos.length) return result;
  const rows = await q
    .select({ signature: noteSignatures, userId: users.userId, name: users.name })
    .from(noteSignatures)
    .innerJoin(users, eq(users.userNo, noteSignatures.userNo))
    .where(and(inArray(noteSignatures.noteNo, noteNos), isNull(noteSignatures.removedAt)))
    .orderBy(asc(noteSignatures.signatureId));
  const hashes = new Map<string, string | null>();
  for (const { signature, userId, name } of rows) {
    let intact: boolean | null = null;
    if (signature.status === 'T' && signature.signedVersion !== null) {
      const key = `${signature.noteNo}:${signature.signedVersion}`;
      if (!hashes.has(key)) hashes.set(key, await versionHash(q, signature.noteNo, signature.signedVersion));
      intact = hashes.get(key) === signature.blocksHash;
    }
    const entry: SignatureEntry = {
      signatureId: signature.signatureId,
      userId,
      name,
      type: signature.type,
      status: signature.status,
      signatureName: signature.signatureName,
      description: signature.description,
      signedAt: signature.signedAt?.toISOString() ?? null,
      timeZone: signature.timeZone,
      signedVersion: signature.signedVersion,
      intact,
    };
    result.set(signature.noteNo, [...(result.get(signature.noteNo) ?? []), entry]);
  }
  return result;
}

/** A note's status follows its live signatures: any signed locks it, any pending means requested. */
export async function settleNoteStatus(tx: Tx, noteNo: number): Promise<NoteStatus> {
  const live = await tx
    .select({ status: noteSignatures.status })
    .from(noteSignatures)
    .where(and(eq(noteSignatures.noteNo, noteNo), isNull(noteSignatures.removedAt)));
  const has = (status: string) => live.some((s) => s.status === status);
  const status: NoteStatus = has(SIGNATURE_STATUS.signed)
    ? NOTE_STATUS.signed
    : has(SIGNATURE_STATUS.pending)
      ? NOTE_STATUS.requested
      : NOTE_STATUS.writing;
  await tx
    .update(labNotes)
    .set({ status, updatedAt: new Date() })
    .where(and(eq(labNotes.noteNo, noteNo), isNull(labNotes.deletedAt)));
  return status;
}
