import { canonicalBlockList, type SavedBlock } from '@eln/shared';
import { sha256Hex } from '../auth/secrets.js';

/**
 * A saved version's fingerprint: the SHA-256 of its canonical block list. Stored with the version when
 * it is saved, bound into each signature, and recomputed to tell an intact version from a changed one.
 */
export function versionFingerprint(blocks: readonly SavedBlock[]): string {
  return sha256Hex(canonicalBlockList(blocks));
}
