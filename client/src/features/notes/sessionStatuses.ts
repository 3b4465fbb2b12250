import {
  differsFromSaved,
  docToBlocks,
  docToSavedBlocks,
  type BlockStatus,
  type NoteType,
  type PmNode,
  type SavedBlock,
} from '@eln/shared';
import type { NoteSessionState } from './sessionState';

/** Block statuses against the saved version (ADD and EDIT only, by blockUid) and whether anything changed. */
export function blockStatusesOf(
  content: PmNode,
  noteType: NoteType,
  saved: SavedBlock[],
): { statuses: Map<string, BlockStatus>; hasChange: boolean } {
  const statuses = new Map<string, BlockStatus>();
  for (const block of docToBlocks(content, noteType, saved)) {
    if (block.blockStatus === 'ADD' || block.blockStatus === 'EDIT') statuses.set(block.blockUid, block.blockStatus);
  }
  return { statuses, hasChange: differsFromSaved(docToSavedBlocks(content, noteType), saved) };
}

const sameStatuses = (a: ReadonlyMap<string, BlockStatus>, b: ReadonlyMap<string, BlockStatus>) =>
  a.size === b.size && [...b].every(([uid, status]) => a.get(uid) === status);

/** What the block statuses need of their session. */
export interface StatusHost {
  readonly noteType: NoteType;
  getState(): NoteSessionState;
  set(patch: Partial<NoteSessionState>): void;
  content(): PmNode;
}

/** Keeps a session's block statuses and its "changed" flag current, computed a moment after edits settle. */
export class BlockStatusWatch {
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly host: StatusHost) {}

  schedule(delayMs: number): void {
    this.cancel();
    this.timer = setTimeout(() => {
      this.timer = null;
      this.compute();
    }, delayMs);
  }

  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private compute(): void {
    const { host } = this;
    const state = host.getState();
    if (state.phase !== 'ready' || !state.synced) return;
    const { statuses, hasChange } = blockStatusesOf(host.content(), host.noteType, state.savedBlocks);
    host.set({ hasChange, ...(sameStatuses(state.statuses, statuses) ? {} : { statuses }) });
  }
}
