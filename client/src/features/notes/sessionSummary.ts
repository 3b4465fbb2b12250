import { api, ERR } from '@eln/shared';
import { call, isApiError } from '../../api';
import type { NoteSessionState } from './sessionState';

/** What summary reads need of their session. */
export interface SummaryHost {
  readonly noteNo: number;
  destroyed(): boolean;
  getState(): NoteSessionState;
  set(patch: Partial<NoteSessionState>): void;
  /** A read was applied: the read-only state and the block statuses follow it. */
  applied(full: boolean): void;
}

/**
 * Reads of a note's summary and saved version. It counts them, so that the reason given with the end of
 * a hold stands until a read started after it has arrived.
 */
export class SummaryReads {
  private started = 0;
  private appliedRead = 0;
  private holdEndedAt = 0;

  constructor(private readonly host: SummaryHost) {}

  /** The hold just ended: until a read started from now on arrives, its reason is the current one. */
  markHoldEnded(): void {
    this.holdEndedAt = this.started;
  }

  /** No read started after the end of the hold has been applied yet. */
  get holdReasonCurrent(): boolean {
    return this.appliedRead <= this.holdEndedAt;
  }

  /** Loads the note's summary and its saved version (again after a save). */
  async load(): Promise<void> {
    const { host } = this;
    const read = ++this.started;
    try {
      const [list, viewer] = await Promise.all([
        call(api.notes.blockList, { labNoteNo: host.noteNo }),
        call(api.notes.viewer, { labNoteNo: host.noteNo }),
      ]);
      this.appliedRead = Math.max(this.appliedRead, read);
      host.set({
        phase: 'ready',
        error: null,
        note: list.note,
        version: viewer.version,
        savedAt: viewer.savedAt,
        savedBy: viewer.savedBy,
        savedBlocks: viewer.blockList,
      });
      host.applied(true);
    } catch (error) {
      const missing =
        isApiError(error) && (error.status === ERR.noteMissing || error.status === ERR.noteDeleted || error.status === ERR.notFound);
      if (host.getState().phase === 'ready' && !missing) return;
      host.set({ phase: missing ? 'missing' : 'error', error });
    }
  }

  /**
   * Reads the note's summary again (status, signatures, who is modifying it): other people's requests,
   * signatures and saves reach an open note this way. A newer saved version loads the note fully.
   */
  async refresh(): Promise<void> {
    const { host } = this;
    if (host.destroyed() || host.getState().phase !== 'ready') return;
    const read = ++this.started;
    try {
      const list = await call(api.notes.blockList, { labNoteNo: host.noteNo });
      if (host.destroyed()) return;
      if (list.note.version !== host.getState().version) {
        await this.load();
        return;
      }
      this.appliedRead = Math.max(this.appliedRead, read);
      if (JSON.stringify(list.note) !== JSON.stringify(host.getState().note)) host.set({ note: list.note });
      host.applied(false);
    } catch {
      /* the next refresh tries again */
    }
  }
}
