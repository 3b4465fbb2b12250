import { api, ERR, TIMING, type Block } from '@eln/shared';
import { call, isApiError } from '../../api';
import type { NoteSessionState, SaveOutcome } from './sessionState';

/** What the saves need of their session. */
export interface SaveHost {
  readonly noteNo: number;
  writable(): boolean;
  destroyed(): boolean;
  getState(): NoteSessionState;
  set(patch: Partial<NoteSessionState>): void;
  waitDurable(timeoutMs: number): Promise<boolean>;
  blockList(): Block[];
  load(): Promise<void>;
}

/**
 * A note's saves: temporary saves (drafts) that follow local edits once they are stored, and the final
 * save that makes a version. The server derives both from its own copy, so each waits for the edits.
 */
export class SessionSaves {
  private tempTimer: ReturnType<typeof setTimeout> | null = null;
  /** A temporary save is owed: its edits were not stored yet, or the call failed. */
  private tempPending = false;

  constructor(private readonly host: SaveHost) {}

  /** A temporary save is owed and none is scheduled (run it once the edits are stored or the network is back). */
  get owed(): boolean {
    return this.tempPending && !this.tempTimer;
  }

  scheduleTempSave(): void {
    this.cancelTempSave();
    this.tempTimer = setTimeout(() => {
      this.tempTimer = null;
      void this.tempSave();
    }, TIMING.tempSaveDebounceMs);
  }

  cancelTempSave(): void {
    if (this.tempTimer) clearTimeout(this.tempTimer);
    this.tempTimer = null;
  }

  /** A temporary save (`/note/temp`) once the edits are stored (the server derives the draft from its own copy). */
  private async tempSave(): Promise<void> {
    const host = this.host;
    if (!host.writable() || host.getState().phase !== 'ready') return;
    // Offline, the save is owed and runs once the edits are confirmed stored (the connection state
    // already says why).
    this.tempPending = false;
    if (!(await host.waitDurable(5000))) {
      this.tempPending = true;
      return;
    }
    if (host.destroyed() || !host.writable()) return;
    try {
      await call(api.notes.saveDraft, { labNoteNo: host.noteNo, blockList: host.blockList() });
      host.set({ draft: 'saved' });
    } catch {
      this.tempPending = true;
      host.set({ draft: 'failed' });
    }
  }

  /** Makes a version: waits for the edits to be stored, saves, then reloads the note. */
  async save(): Promise<SaveOutcome> {
    const host = this.host;
    if (!host.writable()) return 'readOnly';
    host.set({ saving: true });
    try {
      if (!(await host.waitDurable(10_000))) return 'notStored';
      this.cancelTempSave();
      await call(api.notes.saveVersion, {
        labNoteNo: host.noteNo,
        version: host.getState().version,
        blockList: host.blockList(),
      });
      await host.load();
      host.set({ draft: 'idle' });
      return 'saved';
    } catch (error) {
      if (isApiError(error) && (error.status === ERR.conflict || error.httpStatus === 409)) {
        await host.load();
        return 'stale';
      }
      throw error;
    } finally {
      host.set({ saving: false });
    }
  }
}

/** Tells the server this user's hold ends (`/clear`), once the edits are stored or a while has passed. */
export async function clearHoldAfterEdits(noteNo: number, waitDurable: (timeoutMs: number) => Promise<boolean>): Promise<void> {
  await waitDurable(5000);
  // Closing the connection ends the hold anyway.
  await call(api.notes.releaseHold, { labNoteNo: noteNo }).catch(() => undefined);
}
