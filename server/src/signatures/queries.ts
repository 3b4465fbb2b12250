import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import { SIGNATURE_STATUS, type SavedBlock, type SignatureEntry } from '@eln/shared';
import type { Queryable } from '../db/client.js';
import { noteSignatures, noteVersions, users } from '../db/schema.js';
import { versionFingerprint } from '../notes/versionFingerprint.js';
import { timestampsOf } from '../timestamps/queue.js';
import { signatureEntryOf } from './presenters.js';

export type PendingRequest = typeof noteSignatures.$inferSelect;

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
  const stamps = await timestampsOf(
    q,
    'signature',
    rows.map((r) => r.signature.signatureId),
  );
  for (const { signature, userId, name } of rows) {
    let intact: boolean | null = null;
    if (signature.status === SIGNATURE_STATUS.signed && signature.signedVersion !== null) {
      const key = `${signature.noteNo}:${signature.signedVersion}`;
      if (!hashes.has(key)) hashes.set(key, await versionHash(q, signature.noteNo, signature.signedVersion));
      intact = hashes.get(key) === signature.blocksHash;
    }
    result.set(signature.noteNo, [
      ...(result.get(signature.noteNo) ?? []),
      signatureEntryOf(signature, { userId, name }, intact, stamps.get(String(signature.signatureId)) ?? null),
    ]);
  }
  return result;
}

/** The user's pending (unanswered, not removed) request to sign the note, if any. */
export async function pendingRequestOf(q: Queryable, noteNo: number, userNo: number): Promise<PendingRequest | undefined> {
  const [pending] = await q
    .select()
    .from(noteSignatures)
    .where(
      and(
        eq(noteSignatures.noteNo, noteNo),
        eq(noteSignatures.userNo, userNo),
        isNull(noteSignatures.removedAt),
        eq(noteSignatures.status, SIGNATURE_STATUS.pending),
      ),
    );
  return pending;
}
