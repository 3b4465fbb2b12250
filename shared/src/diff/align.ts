import { diffArrays } from 'diff';

/** One place of an alignment: an item of both sequences paired, or one only the older or the newer has. */
export interface Aligned {
  before: number | null;
  after: number | null;
}

/**
 * Pairs two sequences of items by their keys, in order: equal keys pair as jsdiff's longest common
 * subsequence finds them; within each stretch where the sequences differ, items pair as `similarity`
 * rates best (an edited row with its former self rather than with a new row beside it). Two items with
 * nothing in common still pair when nothing better is there for them (a one-column row whose cell was
 * rewritten is that row edited). What is left is added or removed.
 */
export function alignSequences(
  beforeKeys: readonly string[],
  afterKeys: readonly string[],
  similarity: (before: number, after: number) => number,
): Aligned[] {
  const aligned: Aligned[] = [];
  let b = 0;
  let a = 0;
  let removed: number[] = [];
  let added: number[] = [];
  const flush = () => {
    aligned.push(...pairStretch(removed, added, similarity));
    removed = [];
    added = [];
  };
  for (const change of diffArrays([...beforeKeys], [...afterKeys])) {
    const count = change.count;
    if (change.removed) for (let i = 0; i < count; i += 1) removed.push(b++);
    else if (change.added) for (let i = 0; i < count; i += 1) added.push(a++);
    else {
      flush();
      for (let i = 0; i < count; i += 1) aligned.push({ before: b++, after: a++ });
    }
  }
  flush();
  return aligned;
}

/**
 * The order-keeping pairing of a stretch's removed and added items worth the most, a pair being worth its
 * similarity and a half: one thing in common outweighs another pair of strangers (dynamic programming
 * over the two short lists: a table has at most 30 rows and columns).
 */
function pairStretch(removed: number[], added: number[], similarity: (before: number, after: number) => number): Aligned[] {
  if (!removed.length || !added.length) {
    return [...removed.map((before) => ({ before, after: null })), ...added.map((after) => ({ before: null, after }))];
  }
  const worth = new Float64Array(removed.length * added.length);
  removed.forEach((before, i) => added.forEach((after, j) => (worth[i * added.length + j] = similarity(before, after) + 0.5)));
  const pairWorth = (i: number, j: number) => worth[i * added.length + j]!;
  const rows = removed.length + 1;
  const cols = added.length + 1;
  const best = new Float64Array(rows * cols);
  for (let i = removed.length - 1; i >= 0; i -= 1) {
    for (let j = added.length - 1; j >= 0; j -= 1) {
      best[i * cols + j] = Math.max(best[(i + 1) * cols + j]!, best[i * cols + j + 1]!, pairWorth(i, j) + best[(i + 1) * cols + j + 1]!);
    }
  }
  const out: Aligned[] = [];
  let i = 0;
  let j = 0;
  while (i < removed.length && j < added.length) {
    const here = best[i * cols + j]!;
    if (here === pairWorth(i, j) + best[(i + 1) * cols + j + 1]!) {
      out.push({ before: removed[i++]!, after: added[j++]! });
    } else if (here === best[(i + 1) * cols + j]!) {
      out.push({ before: removed[i++]!, after: null });
    } else {
      out.push({ before: null, after: added[j++]! });
    }
  }
  while (i < removed.length) out.push({ before: removed[i++]!, after: null });
  while (j < added.length) out.push({ before: null, after: added[j++]! });
  return out;
}
