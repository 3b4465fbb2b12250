import { canonicalJson, type SavedBlock } from '@eln/shared';

export type BlockChangeKind = 'added' | 'removed' | 'changed' | 'unchanged';

export interface BlockChange {
  kind: BlockChangeKind;
  before: SavedBlock | null;
  after: SavedBlock | null;
}

const sameContent = (a: SavedBlock, b: SavedBlock) =>
  a.content === b.content && canonicalJson(a.blockTable) === canonicalJson(b.blockTable);

/**
 * What changed between two versions, block by block: blocks are matched by their blockUid (kept across
 * edits and copies), in the newer version's order, each removed block shown where it stood before.
 */
export function diffBlocks(before: readonly SavedBlock[], after: readonly SavedBlock[]): BlockChange[] {
  const ordered = (blocks: readonly SavedBlock[]) => [...blocks].sort((a, b) => a.blockOdr - b.blockOdr);
  const older = ordered(before);
  const kept = new Set(after.map((b) => b.blockUid));
  const olderIndex = new Map(older.map((b, index) => [b.blockUid, index]));
  const changes: BlockChange[] = [];
  let next = 0;
  const removedUpTo = (end: number) => {
    for (; next < end; next++) {
      const block = older[next]!;
      if (!kept.has(block.blockUid)) changes.push({ kind: 'removed', before: block, after: null });
    }
  };
  for (const block of ordered(after)) {
    const index = olderIndex.get(block.blockUid);
    if (index === undefined) {
      changes.push({ kind: 'added', before: null, after: block });
      continue;
    }
    if (index >= next) {
      removedUpTo(index);
      next = index + 1;
    }
    const prior = older[index]!;
    changes.push({ kind: sameContent(prior, block) ? 'unchanged' : 'changed', before: prior, after: block });
  }
  removedUpTo(older.length);
  return changes;
}
