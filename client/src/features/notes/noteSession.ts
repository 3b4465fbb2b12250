import { HocuspocusProvider } from '@hocuspocus/provider';
import { yXmlFragmentToProsemirrorJSON } from '@tiptap/y-tiptap';
import * as Y from 'yjs';
import {
  COLLAB_REFUSALS,
  CONTENT_FIELD,
  docToBlocks,
  noteDocumentName,
  parseContentRefusedMessage,
  type Block,
  type ContentRefusedMessage,
  type NoteType,
  type PmNode,
} from '@eln/shared';
import { freshAccessToken } from '../editor/token';
import { colorFor, otherWriters, sameWriters } from './presence';
import {
  AuthenticationRecovery,
  connectLiveProvider,
  ConnectionWatch,
  destroyLiveProvider,
  holdEndedReason,
  liveProvider,
  REFUSALS,
} from './sessionConnection';
import { SessionDurability } from './sessionDurability';
import { clearHoldAfterEdits, SessionSaves } from './sessionSaves';
import { initialSessionState, readOnlyOf, type NoteSessionState, type SaveOutcome, type SessionUser } from './sessionState';
import { BlockStatusWatch } from './sessionStatuses';
import { SummaryReads } from './sessionSummary';

export type { NoteSessionState, SaveOutcome, SessionUser } from './sessionState';

/**
 * One open note: its Y.Doc on a Hocuspocus provider, what the server says about it (summary, saved
 * version, blocks), and what the header shows (connection, durability, presence, read-only, changes).
 * Temporary saves follow local edits; the final save makes a version. The editor attaches to `doc`.
 * The parts live beside it: state and read-only rules (sessionState), connection and authentication
 * (sessionConnection), durability, summary reads and saves.
 */
export class NoteSession {
  readonly doc = new Y.Doc();
  readonly provider: HocuspocusProvider;
  readonly color: string;
  private state: NoteSessionState = initialSessionState();
  private readonly listeners = new Set<() => void>();
  private readonly durability = new SessionDurability(this.doc);
  private readonly connectionWatch = new ConnectionWatch();
  private readonly recovery: AuthenticationRecovery;
  private readonly summary: SummaryReads;
  private readonly saves: SessionSaves;
  private holdEnded = false;
  /** Why the server ended write access: 'signed', 'finished', 'cleared', 'access', DOCUMENT_TOO_LARGE. */
  private holdEndedReason = '';
  /** This client asked the server to end its hold (leaving without saving): no need to tell the user. */
  private releasing = false;
  private destroyed = false;
  /** The rule the server said this client's refused edit broke (content-refused message), until it closes. */
  private contentRefusal: ContentRefusedMessage | null = null;
  private readonly statuses: BlockStatusWatch;
  private readonly ticker: ReturnType<typeof setInterval>;
  /** Called when the server ends write access while the note is open (hold cleared, note locked). */
  onHoldEnded: ((reason: string) => void) | null = null;
  /** Called when the server refused an edit (a content rule) and closed: the note must be opened afresh. */
  onContentRefused: ((refusal: ContentRefusedMessage | null) => void) | null = null;

  constructor(
    readonly noteNo: number,
    readonly user: SessionUser,
    readonly noteType: NoteType = 'LABNOTE',
  ) {
    this.color = colorFor(user.userId);
    const host = {
      noteNo,
      destroyed: () => this.destroyed,
      getState: () => this.state,
      set: (patch: Partial<NoteSessionState>) => this.set(patch),
    };
    this.summary = new SummaryReads({
      ...host,
      applied: (full) => {
        this.updateReadOnly();
        if (full) this.statuses.schedule(0);
      },
    });
    this.statuses = new BlockStatusWatch({ ...host, noteType, content: () => this.content() });
    this.saves = new SessionSaves({
      ...host,
      writable: () => this.writable,
      waitDurable: (ms) => this.waitDurable(ms),
      blockList: () => this.blockList(),
      load: () => this.load(),
    });
    this.provider = liveProvider({
      name: noteDocumentName(noteNo),
      document: this.doc,
      token: freshAccessToken,
      onStatus: () => this.updateConnection(),
      onAuthenticated: () => {
        this.recovery.authenticated();
        this.updateConnection();
        this.updateReadOnly();
      },
      onAuthenticationFailed: ({ reason }) => void this.authenticationFailed(reason),
      // The server closes a note's connection when a later token check fails (a tab whose clock or
      // timers slept sent an expired token), when access is lost, or when the note is deleted: treated
      // like a refused authentication, so an expired token is refreshed and the same socket carries on.
      // A refused edit closes it too: the note is then opened afresh.
      onClose: ({ event }) => {
        if (event.reason === COLLAB_REFUSALS.contentRefused) this.onContentRefused?.(this.contentRefusal);
        else if (REFUSALS.has(event.reason)) void this.authenticationFailed(event.reason);
      },
      onSynced: () => {
        this.set({ synced: true });
        this.updateConnection();
        this.statuses.schedule(0);
      },
      onDisconnect: () => this.updateConnection(),
      onStateless: ({ payload }) => this.stateless(payload),
      onAwarenessChange: () => this.updatePresence(),
      onUnsyncedChanges: () => this.updateDurable(),
    });
    this.recovery = new AuthenticationRecovery(this.provider, () => this.destroyed);
    this.provider.setAwarenessField('user', { userId: user.userId, name: user.name, color: this.color });
    this.provider.setAwarenessField('mode', 'read');
    this.doc.on('update', this.onDocUpdate);
    this.ticker = setInterval(() => this.updateConnection(), 1000);
    window.addEventListener('online', this.onNetwork);
    window.addEventListener('offline', this.onNetwork);
    connectLiveProvider(this.provider);
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
  load = (): Promise<void> => this.summary.load();

  /** Reads the note's summary again: others' requests, signatures and saves reach an open note so. */
  refreshSummary = (): Promise<void> => this.summary.refresh();

  // --- Connection and authentication -------------------------------------------------------------

  private onNetwork = () => {
    this.updateConnection();
    if (navigator.onLine && this.saves.owed) this.saves.scheduleTempSave();
  };

  private updateConnection(): void {
    const { live, connection } = this.connectionWatch.observe(this.provider);
    this.set({ connection });
    if (!live) this.updateDurable();
  }

  private async authenticationFailed(reason: string): Promise<void> {
    const phase = await this.recovery.failed(reason);
    if (phase) this.set({ phase, error: new Error(reason) });
  }

  // --- Stateless messages: durability, the end of a hold, a refused edit ---------------------------

  private stateless(payload: string): void {
    if (this.durability.receive(payload)) {
      this.updateDurable();
      return;
    }
    const refusal = parseContentRefusedMessage(payload);
    if (refusal) {
      this.contentRefusal = refusal;
      return;
    }
    const holdEnded = holdEndedReason(payload);
    if (holdEnded !== null) this.endHold(holdEnded);
  }

  private endHold(reason: string): void {
    this.holdEnded = true;
    this.holdEndedReason = reason;
    this.summary.markHoldEnded();
    this.updateReadOnly();
    // Signed or closed: the summary says so (status, signatures), and the banner gives that reason.
    if (reason === 'signed' || reason === 'finished') void this.refreshSummary();
    if (!this.releasing) this.onHoldEnded?.(reason);
  }

  /** Whether every edit this client made so far (insertions, deletions, formatting) is stored by the server. */
  isDurable(): boolean {
    return this.durability.isDurable();
  }

  private updateDurable(): void {
    const durable = this.durability.check();
    this.set({ durable });
    if (durable && this.saves.owed) this.saves.scheduleTempSave();
  }

  /** Resolves true once every local edit is stored, or false after `timeoutMs`. */
  waitDurable = (timeoutMs: number): Promise<boolean> => this.durability.wait(timeoutMs);

  // --- Read-only and presence ----------------------------------------------------------------------

  private updateReadOnly(): void {
    const { readOnly, writable } = readOnlyOf({
      note: this.state.note,
      holdEnded: this.holdEnded,
      holdEndedReason: this.holdEndedReason,
      hintCurrent: this.summary.holdReasonCurrent,
      scope: this.provider.authorizedScope ?? null,
    });
    this.set({ readOnly, writable });
    if (this.provider.awareness) this.provider.setAwarenessField('mode', writable ? 'write' : 'read');
  }

  /** Whether this client may edit now (the server agreed and nothing ended it). */
  get writable(): boolean {
    return this.state.writable;
  }

  private updatePresence(): void {
    const states = this.provider.awareness?.getStates() ?? new Map<number, unknown>();
    const writers = otherWriters(states.entries(), this.doc.clientID, this.user.userId);
    if (!sameWriters(this.state.writers, writers)) this.set({ writers });
  }

  // --- Document changes: statuses and temporary saves -------------------------------------------

  private onDocUpdate = (_update: Uint8Array, origin: unknown): void => {
    this.updateDurable();
    this.statuses.schedule(150);
    // Remote changes come through the provider; everything else is this client's own editing.
    if (origin !== this.provider && this.writable) this.saves.scheduleTempSave();
  };

  /** The note as ProseMirror JSON, read from the Y.Doc exactly as the server reads its copy. */
  content(): PmNode {
    return yXmlFragmentToProsemirrorJSON(this.doc.getXmlFragment(CONTENT_FIELD)) as PmNode;
  }

  /** The block list the API takes: the document's blocks with their status against the saved version. */
  blockList(): Block[] {
    return docToBlocks(this.content(), this.noteType, this.state.savedBlocks);
  }

  /** Makes a version: waits for the edits to be stored, saves, then reloads the note. */
  save = (): Promise<SaveOutcome> => this.saves.save();

  // --- Release ----------------------------------------------------------------------------------------

  /**
   * Ends this user's hold on the note: waits (a while) for the edits to be stored, tells the server
   * (`/clear`), and closes the connection.
   */
  async release(): Promise<void> {
    if (this.destroyed) return;
    const held = this.provider.authorizedScope === 'read-write' && !this.holdEnded;
    this.releasing = true;
    await (held ? clearHoldAfterEdits(this.noteNo, (ms) => this.waitDurable(ms)) : this.waitDurable(5000));
    this.destroy();
  }

  /** Ends the hold but keeps the note open, read-only (the user chose not to save on leaving). */
  async clearHold(): Promise<void> {
    this.releasing = true;
    await clearHoldAfterEdits(this.noteNo, (ms) => this.waitDurable(ms));
  }

  destroy(): void {
    if (this.destroyed) return;
    this.saves.cancelTempSave();
    this.statuses.cancel();
    clearInterval(this.ticker);
    window.removeEventListener('online', this.onNetwork);
    window.removeEventListener('offline', this.onNetwork);
    this.doc.off('update', this.onDocUpdate);
    this.durability.destroy();
    destroyLiveProvider(this.provider);
    this.destroyed = true;
    this.listeners.clear();
    this.doc.destroy();
  }

  get isDestroyed(): boolean {
    return this.destroyed;
  }
}
