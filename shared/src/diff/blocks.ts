import { textOf } from '../blocks/convert.js';
import { NODE, type PmNode, type SavedBlock } from '../blocks/model.js';
import { diffFields, diffSchemaBlocks, hasFieldDiff } from './fields.js';
import type { BlockChange, BlockChangeKind, BlockDetail, BlockListDiff, ChangeSummary } from './model.js';
import { diffTables } from './table.js';
import { diffText } from './text.js';

/** The blocks a comparison reads: a saved block, or a live one (its status is ignored). */
type ComparedBlock = SavedBlock;

/** One place of the comparison before the blocks' insides are looked at. */
interface Placed {
  kind: BlockChangeKind;
  moved: boolean;
  before: ComparedBlock | null;
  after: ComparedBlock | null;
}

const inOrder = <B extends ComparedBlock>(blocks: readonly B[]) => [...blocks].sort((a, b) => a.blockOdr - b.blockOdr);

/**
 * Each block's key: its blockUid, and for a repeat of an ID already used above (which the editor renames,
 * but a stored list might hold) the occurrence, so that every block is matched at most once.
 */
function keysOf(blocks: readonly ComparedBlock[]): string[] {
  const seen = new Map<string, number>();
  return blocks.map((block) => {
    const n = seen.get(block.blockUid) ?? 0;
    seen.set(block.blockUid, n + 1);
    return n ? `${block.blockUid}\u0000${n}` : block.blockUid;
  });
}

/**
 * Which of `sequence`'s places hold a longest increasing subsequence of it (patience sorting, n log n):
 * the blocks kept in their relative order; every other kept block moved.
 */
function longestIncreasing(sequence: readonly number[]): Set<number> {
  const tails: number[] = [];
  const previous = new Array<number>(sequence.length).fill(-1);
  sequence.forEach((value, index) => {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (sequence[tails[mid]!]! < value) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) previous[index] = tails[lo - 1]!;
    tails[lo] = index;
  });
  const kept = new Set<number>();
  for (let index = tails[tails.length - 1] ?? -1; index !== -1; index = previous[index]!) kept.add(index);
  return kept;
}

const sameBlock = (a: ComparedBlock, b: ComparedBlock) => a.content === b.content && a.type === b.type;

/**
 * The two lists matched by blockUid, in the newer list's order, each removed block placed where it stood
 * in the older one (after the kept block it followed). Nothing inside the blocks is compared but whether
 * their content is the same.
 */
function placeBlocks(beforeList: readonly ComparedBlock[], afterList: readonly ComparedBlock[]): Placed[] {
  const older = inOrder(beforeList);
  const newer = inOrder(afterList);
  const olderKeys = keysOf(older);
  const olderIndex = new Map(olderKeys.map((key, index) => [key, index]));
  const newerKeys = keysOf(newer);
  const keptKeys = new Set(newerKeys.filter((key) => olderIndex.has(key)));
  // The kept blocks' former places, in the newer order: those on a longest increasing run stayed.
  const keptInNewer = newerKeys.flatMap((key) => (keptKeys.has(key) ? [olderIndex.get(key)!] : []));
  const stayed = new Set([...longestIncreasing(keptInNewer)].map((i) => keptInNewer[i]!));

  const placed: Placed[] = [];
  let next = 0;
  const removedUpTo = (end: number) => {
    for (; next < end; next += 1)
      if (!keptKeys.has(olderKeys[next]!)) placed.push({ kind: 'removed', moved: false, before: older[next]!, after: null });
  };
  newer.forEach((block, index) => {
    const formerIndex = olderIndex.get(newerKeys[index]!);
    if (formerIndex === undefined) {
      placed.push({ kind: 'added', moved: false, before: null, after: block });
      return;
    }
    const moved = !stayed.has(formerIndex);
    if (!moved) {
      removedUpTo(formerIndex);
      next = formerIndex + 1;
    }
    const former = older[formerIndex]!;
    const kind: BlockChangeKind = !sameBlock(former, block) ? 'changed' : moved ? 'moved' : 'unchanged';
    placed.push({ kind, moved, before: former, after: block });
  });
  removedUpTo(older.length);
  return placed;
}

function summaryOf(placed: readonly Pick<Placed, 'kind' | 'moved'>[]): ChangeSummary {
  const summary: ChangeSummary = { added: 0, changed: 0, removed: 0, moved: 0, unchanged: 0 };
  for (const { kind, moved } of placed) {
    if (kind !== 'moved') summary[kind] += 1;
    if (moved) summary.moved += 1;
  }
  return summary;
}

/**
 * How many blocks were added, changed, removed and moved from one list to the other: what a version list
 * shows beside each version (cheap: no block's inside is compared beyond its content text).
 */
export function summarizeChanges(before: readonly ComparedBlock[], after: readonly ComparedBlock[]): ChangeSummary {
  return summaryOf(placeBlocks(before, after));
}

/** What changed inside a block kept in both lists with other content. */
export function blockDetailOf(before: ComparedBlock, after: ComparedBlock): BlockDetail {
  if (before.type !== after.type) return { kind: 'replaced' };
  if (after.type === 'table' && before.blockTable && after.blockTable) return diffTables(before.blockTable, after.blockTable);
  const older = JSON.parse(before.content) as PmNode;
  const newer = JSON.parse(after.content) as PmNode;
  if (after.type === 'schema' && older.type === NODE.schemaBlock && newer.type === NODE.schemaBlock) return diffSchemaBlocks(older, newer);
  if (older.type === newer.type && hasFieldDiff(newer.type)) return diffFields(older, newer);
  if (after.type !== 'text') return { kind: 'replaced' };
  const olderText = textOf(older);
  const newerText = textOf(newer);
  const blockClass = before.blockClass === after.blockClass ? null : { before: before.blockClass, after: after.blockClass };
  return { kind: 'text', parts: diffText(olderText, newerText), blockClass, formatting: olderText === newerText && blockClass === null };
}

/**
 * Two block lists compared: every block added, removed, moved, changed or unchanged (matched by
 * blockUid), and inside each changed block what changed (words of text, cells of tables, fields of
 * charts, images, files, dates and schema blocks). `before` and `after` may come in any order; they are
 * read in blockOdr order.
 */
export function diffBlockLists(before: readonly ComparedBlock[], after: readonly ComparedBlock[]): BlockListDiff {
  const placed = placeBlocks(before, after);
  const changes: BlockChange[] = placed.map((place) => {
    const block = (place.after ?? place.before)!;
    return {
      kind: place.kind,
      moved: place.moved,
      blockUid: block.blockUid,
      type: block.type,
      before: place.before ? savedBlockOf(place.before) : null,
      after: place.after ? savedBlockOf(place.after) : null,
      detail: place.kind === 'changed' ? blockDetailOf(place.before!, place.after!) : null,
    };
  });
  return { changes, summary: summaryOf(placed) };
}

/** Only the saved block's fields (a live block's status is not part of what is compared). */
function savedBlockOf({ type, blockUid, noteType, blockClass, blockTable, content, blockOdr }: ComparedBlock): SavedBlock {
  return { type, blockUid, noteType, blockClass, blockTable, content, blockOdr };
}
