import { HocuspocusProvider, WebSocketStatus } from '@hocuspocus/provider';
import { yXmlFragmentToProsemirrorJSON } from '@tiptap/y-tiptap';
import * as Y from 'yjs';
import {
  COLLAB_PATH,
  COLLAB_REFUSALS,
  CONTENT_FIELD,
  differsFromSaved,
  DOCUMENT_TOO_LARGE,
  DurableTracker,
  docToBlocks,
  docToSavedBlocks,
  ERR,
  HOLD_ENDED_MESSAGE,
  noteDocumentName,
  TIMING,
  type Block,
  type BlockListAnswer,
  type BlockStatus,
  type NoteSummary,
  type NoteType,
  type PmNode,
  type SavedBlock,
  type SaveAnswer,
  type TempAnswer,
  type ViewerAnswer,
} from '@eln/shared';
import { call, isApiError, refreshSession } from '../../api';
import { freshAccessToken } from '../editor/token';
import { colorFor, connectionState, otherWriters, type ConnectionState, type PresenceUser } from './presence';

/** Reasons with which the server refuses or later closes a note's connection. */
const REFUSALS: ReadonlySet<string> = new Set(Object.values(COLLAB_REFUSALS));

export type ReadOnlyReason = 'signed' | 'finished' | 'notWritable' | 'holdEnded' | 'tooLarge';

export interface NoteSessionState {
  phase: 'loading' | 'ready' | 'missing' | 'error';
  error: unknown;
  note: NoteSummary | null;
  version: number;
  savedAt: string | null;
  savedBy: string | null;
  savedBlocks: SavedBlock[];
  connection: ConnectionState;
  /** The first sync with the server is done: the document shows the note. */
  synced: boolean;
  /** Every edit this client made is confirmed stored by the server. */
  durable: boolean;
  readOnly: ReadOnlyReason | null;
  /** The server accepted this connection for writing and nothing has ended it. */
  writable: boolean;
  writers: PresenceUser[];
  /** Block statuses against the saved version, by blockUid (ADD and EDIT only). */
  statuses: ReadonlyMap<string, BlockStatus>;
  /** The note differs from its saved version. */
  hasChange: boolean;
  draft: 'idle' | 'saved' | 'failed';
  saving: boolean;
}

export interface SessionUser {
  userId: string;
  name: string;
}

export type SaveOutcome = 'saved' | 'stale' | 'notStored' | 'failed' | 'readOnly';

function collabUrl(): string {
  const { protocol, host } = window.location;
  return `${protocol === 'https:' ? 'wss' : 'ws'}://${host}${COLLAB_PATH}`;
}

/**
 * One open note: its Y.Doc on a Hocuspocus provider, what the server says about it (summary, saved
 * version, blocks), and what the header shows (connection, durability, presence, read-only, changes).
 * Temporary saves follow local edits; the final save makes a version. The editor attaches to `doc`.
 */
export class NoteSession {
  readonly doc = new Y.Doc();
  readonly provider: HocuspocusProvider;
  readonly color: string;
  private state: NoteSessionState;
  private readonly listeners = new Set<() => void>();
  /**
   * What the server confirmed stored, merged across messages (with several server processes each
   * confirms what it stored); it also marks changes that only delete, so they too wait for their append.
   */
  private readonly durableTracker = new DurableTracker(this.doc);
  private everLive = false;
  private downSince: number | null = null;
  private holdEnded = false;
  /** Why the server ended write access: 'signed', 'finished', 'cleared', 'access', DOCUMENT_TOO_LARGE. */
  private holdEndedReason = '';
  /** Summary reads started so far, the last one applied, and how many had started when the hold ended. */
  private summaryReads = 0;
  private appliedRead = 0;
  private holdEndedAtRead = 0;
  /** This client asked the server to end its hold (leaving without saving): no need to tell the user. */
  private releasing = false;
  private authRetried = false;
  private destroyed = false;
  private tempTimer: ReturnType<typeof setTimeout> | null = null;
  /** A temporary save is owed: its edits were not stored yet, or the call failed. */
  private tempPending = false;
  private statusTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly ticker: ReturnType<typeof setInterval>;
  private readonly durableWaiters = new Set<() => void>();
  /** Called when the server ends write access while the note is open (hold cleared, note locked). */
  onHoldEnded: ((reason: string) => void) | null = null;

  constructor(
    readonly noteNo: number,
    readonly user: SessionUser,
    readonly noteType: NoteType = 'LABNOTE',
  ) {
    this.color = colorFor(user.userId);
    this.state = {
      phase: 'loading',
      error: null,
      note: null,
      version: 0,
      savedAt: null,
      savedBy: null,
      savedBlocks: [],
      connection: 'connecting',
      synced: false,
      durable: true,
      readOnly: null,
      writable: false,
      writers: [],
      statuses: new Map(),
      hasChange: false,
      draft: 'idle',
      saving: false,
    };
    this.provider = new HocuspocusProvider({
      url: collabUrl(),
      name: noteDocumentName(noteNo),
      document: this.doc,
      token: freshAccessToken,
      onStatus: () => this.updateConnection(),
      onAuthenticated: () => {
        this.authRetried = false;
        this.updateConnection();
        this.updateReadOnly();
      },
      onAuthenticationFailed: ({ reason }) => void this.authenticationFailed(reason),
      // The server closes a note's connection when a later token check fails (a tab whose clock or
      // timers slept sent an expired token), when access is lost, or when the note is deleted: treated
      // like a refused authentication, so an expired token is refreshed and the same socket carries on.
      onClose: ({ event }) => {
        if (REFUSALS.has(event.reason)) void this.authenticationFailed(event.reason);
      },
      onSynced: () => {
        this.set({ synced: true });
        this.updateConnection();
        this.scheduleStatuses(0);
      },
      onDisconnect: () => this.updateConnection(),
      onStateless: ({ payload }) => this.stateless(payload),
      onAwarenessChange: () => this.updatePresence(),
      onUnsyncedChanges: () => this.updateDurable(),
    });
    this.provider.setAwarenessField('user', { userId: user.userId, name: user.name, color: this.color });
    this.provider.setAwarenessField('mode', 'read');
    this.doc.on('update', this.onDocUpdate);
    this.ticker = setInterval(() => this.updateConnection(), 1000);
    window.addEventListener('online', this.onNetwork);
    window.addEventListener('offline', this.onNetwork);
    void this.load();
  }

  // --- Store protocol (useSyncExternalStore) -------------------------------------------------------

  getState = (): NoteSessionState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private set(patch: Partial<NoteSessionState>): void {
    if (this.destroyed) return;
    const changed = (Object.keys(patch) as Array<keyof NoteSessionState>).some((key) => this.state[key] !== patch[key]);
    if (!changed) return;
    this.state = { ...this.state, ...patch };
    for (const listener of this.listeners) listener();
  }

  // --- Loading -----------------------------------------------------------------------------------------

  /** Loads the note's summary and its saved version (again after a save). */
  async load(): Promise<void> {
    const read = ++this.summaryReads;
    try {
      const [list, viewer] = await Promise.all([
        call<BlockListAnswer>('/v1/project/block/list', { labNoteNo: this.noteNo }),
        call<ViewerAnswer>('/v1/project/viewer', { labNoteNo: this.noteNo }),
      ]);
      this.appliedRead = Math.max(this.appliedRead, read);
      this.set({
        phase: 'ready',
        error: null,
        note: list.note,
        version: viewer.version,
        savedAt: viewer.savedAt,
        savedBy: viewer.savedBy,
        savedBlocks: viewer.blockList,
      });
      this.updateReadOnly();
      this.scheduleStatuses(0);
    } catch (error) {
      const missing = isApiError(error) && (error.status === ERR.noteMissing || error.status === ERR.noteDeleted || error.status === ERR.notFound);
      if (this.state.phase === 'ready' && !missing) return;
      this.set({ phase: missing ? 'missing' : 'error', error });
    }
  }

  /**
   * Reads the note's summary again (status, signatures, who is modifying it): other people's requests,
   * signatures and saves reach an open note this way. A newer saved version loads the note fully.
   */
  async refreshSummary(): Promise<void> {
    if (this.destroyed || this.state.phase !== 'ready') return;
    const read = ++this.summaryReads;
    try {
      const list = await call<BlockListAnswer>('/v1/project/block/list', { labNoteNo: this.noteNo });
      if (this.destroyed) return;
      if (list.note.version !== this.state.version) {
        await this.load();
        return;
      }
      this.appliedRead = Math.max(this.appliedRead, read);
      if (JSON.stringify(list.note) !== JSON.stringify(this.state.note)) this.set({ note: list.note });
      this.updateReadOnly();
    } catch {
      /* the next refresh tries again */
    }
  }

  // --- Connection and authentication -------------------------------------------------------------

  private onNetwork = () => {
    this.updateConnection();
    if (navigator.onLine && this.tempPending && !this.tempTimer) this.scheduleTempSave();
  };

  private updateConnection(): void {
    const live = this.provider.configuration.websocketProvider.status === WebSocketStatus.Connected && this.provider.isAuthenticated;
    if (live) {
      this.everLive = true;
      this.downSince = null;
    } else if (this.downSince === null) {
      this.downSince = Date.now();
    }
    const connection = connectionState({
      live,
      everLive: this.everLive,
      online: typeof navigator === 'undefined' ? true : navigator.onLine,
      downSince: this.downSince,
      now: Date.now(),
    });
    this.set({ connection });
    if (!live) this.updateDurable();
  }

  private async authenticationFailed(reason: string): Promise<void> {
    if (reason === COLLAB_REFUSALS.session && !this.authRetried) {
      // The access token ran out while the tab slept: refresh once and authenticate again on the same socket.
      this.authRetried = true;
      const refreshed = await refreshSession().catch(() => false);
      if (refreshed && !this.destroyed) {
        await this.provider.sendToken();
        this.provider.startSync();
      }
      return;
    }
    if (reason === COLLAB_REFUSALS.session) {
      // Refreshing did not help: the app's session-ended flow takes over.
      await refreshSession().catch(() => false);
      return;
    }
    this.set({ phase: reason === COLLAB_REFUSALS.document ? 'missing' : 'error', error: new Error(reason) });
  }

  // --- Stateless messages: durability and the end of a hold --------------------------------------

  private stateless(payload: string): void {
    if (this.durableTracker.receive(payload)) {
      this.updateDurable();
      return;
    }
    try {
      const message = JSON.parse(payload) as { type?: unknown; reason?: unknown };
      if (message.type === HOLD_ENDED_MESSAGE) {
        const reason = typeof message.reason === 'string' ? message.reason : '';
        this.holdEnded = true;
        this.holdEndedReason = reason;
        this.holdEndedAtRead = this.summaryReads;
        this.updateReadOnly();
        // Signed or closed: the summary says so (status, signatures), and the banner gives that reason.
        if (reason === 'signed' || reason === 'finished') void this.refreshSummary();
        if (!this.releasing) this.onHoldEnded?.(reason);
      }
    } catch {
      /* not ours */
    }
  }

  /** Whether every edit this client made so far (insertions, deletions, formatting) is stored by the server. */
  isDurable(): boolean {
    return this.durableTracker.isDurable();
  }

  private updateDurable(): void {
    const durable = this.isDurable();
    this.set({ durable });
    if (durable) {
      for (const resolve of [...this.durableWaiters]) resolve();
      if (this.tempPending && !this.tempTimer) this.scheduleTempSave();
    }
  }

  /** Resolves true once every local edit is stored, or false after `timeoutMs`. */
  waitDurable(timeoutMs: number): Promise<boolean> {
    if (this.isDurable()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (value: boolean) => {
        clearTimeout(timer);
        this.durableWaiters.delete(onDurable);
        resolve(value);
      };
      const onDurable = () => done(true);
      const timer = setTimeout(() => done(this.isDurable()), timeoutMs);
      this.durableWaiters.add(onDurable);
    });
  }

  // --- Read-only -------------------------------------------------------------------------------------

  private updateReadOnly(): void {
    const note = this.state.note;
    let readOnly: ReadOnlyReason | null = null;
    // A locked note says why (signed, finished) rather than only that editing ended; until a summary read
    // after the end of the hold arrives, the reason the server gave with it says so.
    const hint = this.holdEnded && this.appliedRead <= this.holdEndedAtRead ? this.holdEndedReason : '';
    if (note?.status === 'T' || hint === 'signed') readOnly = 'signed';
    else if (note?.status === 'F' || hint === 'finished') readOnly = 'finished';
    // The server refused an edit that would outgrow the note's size limit: that edit is not stored.
    else if (this.holdEnded && this.holdEndedReason === DOCUMENT_TOO_LARGE) readOnly = 'tooLarge';
    else if (this.holdEnded) readOnly = 'holdEnded';
    else if (note?.write === 'N' || this.provider.authorizedScope === 'readonly') readOnly = 'notWritable';
    const writable = readOnly === null && note !== null && this.provider.authorizedScope === 'read-write';
    this.set({ readOnly, writable });
    if (this.provider.awareness) this.provider.setAwarenessField('mode', writable ? 'write' : 'read');
  }

  /** Whether this client may edit now (the server agreed and nothing ended it). */
  get writable(): boolean {
    return this.state.writable;
  }

  // --- Presence ------------------------------------------------------------------------------------------

  private updatePresence(): void {
    const states = this.provider.awareness?.getStates() ?? new Map<number, unknown>();
    const writers = otherWriters(states.entries(), this.doc.clientID, this.user.userId);
    const before = this.state.writers;
    const same = before.length === writers.length && before.every((w, i) => w.userId === writers[i]?.userId && w.name === writers[i]?.name && w.color === writers[i]?.color);
    if (!same) this.set({ writers });
  }

  // --- Document changes: statuses and temporary saves -------------------------------------------

  private onDocUpdate = (_update: Uint8Array, origin: unknown): void => {
    this.updateDurable();
    this.scheduleStatuses(150);
    // Remote changes come through the provider; everything else is this client's own editing.
    if (origin !== this.provider && this.writable) this.scheduleTempSave();
  };

  /** The note as ProseMirror JSON, read from the Y.Doc exactly as the server reads its copy. */
  content(): PmNode {
    return yXmlFragmentToProsemirrorJSON(this.doc.getXmlFragment(CONTENT_FIELD)) as PmNode;
  }

  /** The block list the API takes: the document's blocks with their status against the saved version. */
  blockList(): Block[] {
    return docToBlocks(this.content(), this.noteType, this.state.savedBlocks);
  }

  private scheduleStatuses(delayMs: number): void {
    if (this.statusTimer) clearTimeout(this.statusTimer);
    this.statusTimer = setTimeout(() => {
      this.statusTimer = null;
      this.computeStatuses();
    }, delayMs);
  }

  private computeStatuses(): void {
    if (this.state.phase !== 'ready' || !this.state.synced) return;
    const content = this.content();
    const saved = this.state.savedBlocks;
    const statuses = new Map<string, BlockStatus>();
    for (const block of docToBlocks(content, this.noteType, saved)) {
      if (block.blockStatus === 'ADD' || block.blockStatus === 'EDIT') statuses.set(block.blockUid, block.blockStatus);
    }
    const before = this.state.statuses;
    const same = before.size === statuses.size && [...statuses].every(([uid, status]) => before.get(uid) === status);
    this.set({ hasChange: differsFromSaved(docToSavedBlocks(content, this.noteType), saved), ...(same ? {} : { statuses }) });
  }

  private scheduleTempSave(): void {
    if (this.tempTimer) clearTimeout(this.tempTimer);
    this.tempTimer = setTimeout(() => {
      this.tempTimer = null;
      void this.tempSave();
    }, TIMING.tempSaveDebounceMs);
  }

  /** POST /note/temp once the edits are stored (the server derives the draft from its own copy). */
  private async tempSave(): Promise<void> {
    if (!this.writable || this.state.phase !== 'ready') return;
    // The server derives the draft from its own copy, so it must hold the edits first. Offline, the
    // save is owed and runs once they are confirmed stored (the connection state already says why).
    this.tempPending = false;
    if (!(await this.waitDurable(5000))) {
      this.tempPending = true;
      return;
    }
    if (this.destroyed || !this.writable) return;
    try {
      await call<TempAnswer>('/v1/project/note/temp', { labNoteNo: this.noteNo, blockList: this.blockList() });
      this.set({ draft: 'saved' });
    } catch {
      this.tempPending = true;
      this.set({ draft: 'failed' });
    }
  }

  // --- Final save ------------------------------------------------------------------------------------

  /** Makes a version: waits for the edits to be stored, saves, then reloads the note. */
  async save(): Promise<SaveOutcome> {
    if (!this.writable) return 'readOnly';
    this.set({ saving: true });
    try {
      if (!(await this.waitDurable(10_000))) return 'notStored';
      if (this.tempTimer) {
        clearTimeout(this.tempTimer);
        this.tempTimer = null;
      }
      await call<SaveAnswer>('/v1/project/note/save', { labNoteNo: this.noteNo, version: this.state.version, blockList: this.blockList() });
      await this.load();
      this.set({ draft: 'idle' });
      return 'saved';
    } catch (error) {
      if (isApiError(error) && (error.status === ERR.conflict || error.httpStatus === 409)) {
        await this.load();
        return 'stale';
      }
      throw error;
    } finally {
      this.set({ saving: false });
    }
  }

  // --- Release ----------------------------------------------------------------------------------------

  /**
   * Ends this user's hold on the note: waits (a while) for the edits to be stored, tells the server
   * (`/clear`), and closes the connection.
   */
  async release(): Promise<void> {
    if (this.destroyed) return;
    const held = this.provider.authorizedScope === 'read-write' && !this.holdEnded;
    this.releasing = true;
    await this.waitDurable(5000);
    if (held) {
      try {
        await call('/v1/project/clear', { labNoteNo: this.noteNo });
      } catch {
        /* closing the connection ends the hold anyway */
      }
    }
    this.destroy();
  }

  /** Ends the hold but keeps the note open, read-only (the user chose not to save on leaving). */
  async clearHold(): Promise<void> {
    this.releasing = true;
    await this.waitDurable(5000);
    await call('/v1/project/clear', { labNoteNo: this.noteNo }).catch(() => undefined);
  }

  destroy(): void {
    if (this.destroyed) return;
    if (this.tempTimer) clearTimeout(this.tempTimer);
    if (this.statusTimer) clearTimeout(this.statusTimer);
    clearInterval(this.ticker);
    window.removeEventListener('online', this.onNetwork);
    window.removeEventListener('offline', this.onNetwork);
    this.doc.off('update', this.onDocUpdate);
    this.durableTracker.destroy();
    this.provider.destroy();
    this.destroyed = true;
    this.listeners.clear();
    this.doc.destroy();
  }

  get isDestroyed(): boolean {
    return this.destroyed;
  }
}
