import type { BlockChange } from '@eln/shared';

/** How a comparison is laid out: the two versions in two columns, or one column with both marked in it. */
export const DIFF_VIEWS = ['side', 'inline'] as const;
export type DiffView = (typeof DIFF_VIEWS)[number];

/** A row of the comparison as drawn: a block's change, or a run of unchanged blocks folded into one line. */
export type DiffRow = { kind: 'change'; change: BlockChange; index: number; key: string } | { kind: 'folded'; count: number; key: string };

/** A change's key: its block and kind (a removed block and the added one with its ID are two rows). */
export const changeKey = (change: BlockChange): string => `${change.kind}:${change.blockUid}`;

/**
 * The rows to draw. With `onlyChanges`, each run of unchanged blocks becomes one folded row, unless
 * the reader unfolded it (`unfolded` holds the key of its first block); every change keeps its index in `changes`.
 */
export function diffRows(changes: readonly BlockChange[], onlyChanges: boolean, unfolded: ReadonlySet<string> = new Set()): DiffRow[] {
  const rows: DiffRow[] = [];
  let run: { key: string; members: DiffRow[] } | null = null;
  const closeRun = () => {
    if (!run) return;
    if (unfolded.has(run.key)) rows.push(...run.members);
    else rows.push({ kind: 'folded', count: run.members.length, key: run.key });
    run = null;
  };
  changes.forEach((change, index) => {
    const row: DiffRow = { kind: 'change', change, index, key: changeKey(change) };
    if (!onlyChanges || change.kind !== 'unchanged') {
      closeRun();
      rows.push(row);
      return;
    }
    run ??= { key: row.key, members: [] };
    run.members.push(row);
  });
  closeRun();
  return rows;
}

/** The indexes of the changes a reader steps through: every block that is not unchanged. */
export function changeStops(changes: readonly BlockChange[]): number[] {
  return changes.flatMap((change, index) => (change.kind === 'unchanged' ? [] : [index]));
}

/**
 * The stop after (`step` 1) or before (-1) the current one; from no current stop, the first or the last.
 * Stays at either end rather than wrapping, so that holding a key stops at the last change.
 */
export function nextStop(stops: readonly number[], current: number | null, step: 1 | -1): number | null {
  if (stops.length === 0) return null;
  const at = current === null ? -1 : stops.indexOf(current);
  if (at === -1) return step === 1 ? stops[0]! : stops[stops.length - 1]!;
  return stops[Math.min(stops.length - 1, Math.max(0, at + step))]!;
}

/** The step a key asks for: j, n, ↓ the next change; k, p, ↑ the previous. */
export function keyStep(key: string): 1 | -1 | null {
  if (key === 'j' || key === 'n' || key === 'ArrowDown') return 1;
  if (key === 'k' || key === 'p' || key === 'ArrowUp') return -1;
  return null;
}
