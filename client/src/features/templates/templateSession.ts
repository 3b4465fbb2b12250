import { HocuspocusProvider } from '@hocuspocus/provider';
import { yXmlFragmentToProsemirrorJSON } from '@tiptap/y-tiptap';
import * as Y from 'yjs';
import { api, CONTENT_FIELD, docToBlocks, TIMING, templateDocumentName, type Block, type PmNode } from '@eln/shared';
import { call } from '../../api';
import { freshAccessToken } from '../editor/token';
import { colorFor, otherWriters, sameWriters, type ConnectionState, type PresenceUser } from '../notes/presence';
import {
  AuthenticationRecovery,
  connectLiveProvider,
  ConnectionWatch,
  destroyLiveProvider,
  holdEndedReason,
  liveProvider,
  REFUSALS,
} from '../notes/sessionConnection';
import { SessionDurability } from '../notes/sessionDurability';
import type { SessionUser } from '../notes/sessionState';

export interface TemplateSessionState {
  synced: boolean;
  connection: ConnectionState;
  /** Every local edit is stored by the server. */
  durable: boolean;
  /** The server lets this client write (a draft, with the template flag), and nothing ended it since. */
  writable: boolean;
  /** Why writing ended while open: 'checked' (checked in), 'cleared', or another server reason. */
  endedReason: string | null;
  /** When the last temporary save succeeded, or that it failed. */
  tempSavedAt: string | null;
  tempFailed: boolean;
  writers: PresenceUser[];
  refused: 'missing' | 'error' | null;
}

/**
 * One open template draft: its Y.Doc on a Hocuspocus provider (the same live layer as notes), whether
 * the server lets this client write, what is stored, who else is here, and the temporary save 500 ms
 * after the last local edit. The page checks in and approves through the API; this holds the document.
 */
export class TemplateSession {
  readonly doc = new Y.Doc();
  readonly provider: HocuspocusProvider;
  readonly color: string;
  private state: TemplateSessionState = {
    synced: false,
    connection: 'connecting',
    durable: true,
    writable: false,
    endedReason: null,
    tempSavedAt: null,
    tempFailed: false,
    writers: [],
    refused: null,
  };
  private readonly listeners = new Set<() => void>();
  private readonly durability = new SessionDurability(this.doc);
  private readonly connectionWatch = new ConnectionWatch();
  private readonly recovery: AuthenticationRecovery;
  private readonly ticker: ReturnType<typeof setInterval>;
  private tempTimer: ReturnType<typeof setTimeout> | null = null;
  private destroyed = false;

  constructor(
    readonly templateNo: number,
    readonly user: SessionUser,
  ) {
    this.color = colorFor(user.userId);
    this.provider = liveProvider({
      name: templateDocumentName(templateNo),
      document: this.doc,
      token: freshAccessToken,
      onStatus: () => this.updateConnection(),
      onAuthenticated: () => {
        this.recovery.authenticated();
        this.updateConnection();
        this.updateWritable();
      },
      onAuthenticationFailed: ({ reason }) => void this.authenticationFailed(reason),
      onClose: ({ event }) => {
        if (REFUSALS.has(event.reason)) void this.authenticationFailed(event.reason);
      },
      onSynced: () => {
        this.set({ synced: true });
        this.updateConnection();
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
    connectLiveProvider(this.provider);
  }

  getState = (): TemplateSessionState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private set(patch: Partial<TemplateSessionState>): void {
    if (this.destroyed) return;
    const changed = (Object.keys(patch) as Array<keyof TemplateSessionState>).some((key) => this.state[key] !== patch[key]);
    if (!changed) return;
    this.state = { ...this.state, ...patch };
    for (const listener of this.listeners) listener();
  }

  private updateConnection(): void {
    const { live, connection } = this.connectionWatch.observe(this.provider);
    this.set({ connection });
    if (!live) this.updateDurable();
  }

  private async authenticationFailed(reason: string): Promise<void> {
    const refused = await this.recovery.failed(reason);
    if (refused) this.set({ refused });
  }

  private stateless(payload: string): void {
    if (this.durability.receive(payload)) {
      this.updateDurable();
      return;
    }
    const ended = holdEndedReason(payload);
    if (ended !== null) {
      this.set({ endedReason: ended || 'access' });
      this.updateWritable();
    }
  }

  private updateDurable(): void {
    this.set({ durable: this.durability.check() });
  }

  private updateWritable(): void {
    const writable = this.provider.authorizedScope === 'read-write' && this.state.endedReason === null;
    this.set({ writable });
    if (this.provider.awareness) this.provider.setAwarenessField('mode', writable ? 'write' : 'read');
  }

  private updatePresence(): void {
    const states = this.provider.awareness?.getStates() ?? new Map<number, unknown>();
    const writers = otherWriters(states.entries(), this.doc.clientID, this.user.userId);
    if (!sameWriters(this.state.writers, writers)) this.set({ writers });
  }

  private onDocUpdate = (_update: Uint8Array, origin: unknown): void => {
    this.updateDurable();
    // Remote changes come through the provider; everything else is this client's own editing.
    if (origin !== this.provider && this.state.writable) this.scheduleTempSave();
  };

  private scheduleTempSave(): void {
    if (this.tempTimer) clearTimeout(this.tempTimer);
    this.tempTimer = setTimeout(() => void this.tempSave(), TIMING.tempSaveDebounceMs);
  }

  /** The temporary save: once the edits are stored, the server derives the blocks from its own copy. */
  private async tempSave(): Promise<void> {
    this.tempTimer = null;
    if (!(await this.waitDurable(10_000)) || this.destroyed || !this.state.writable) return;
    try {
      const answer = await call(api.templates.tempSave, { templateNo: this.templateNo, blockList: this.blockList() });
      this.set({ tempSavedAt: answer.savedAt, tempFailed: false });
    } catch {
      this.set({ tempFailed: true });
    }
  }

  /** Resolves true once every local edit is stored, or false after `timeoutMs`. */
  waitDurable = (timeoutMs: number): Promise<boolean> => this.durability.wait(timeoutMs);

  /** The block list the API takes (its statuses are the server's business: it compares with the approved version). */
  blockList(): Block[] {
    const content = yXmlFragmentToProsemirrorJSON(this.doc.getXmlFragment(CONTENT_FIELD)) as PmNode;
    return docToBlocks(content, 'TEMPLATE', []);
  }

  /** Leaving without checking in: the edits are stored first, then the server discards the temporary save. */
  async release(): Promise<void> {
    if (this.destroyed) return;
    const wrote = this.state.writable;
    await this.waitDurable(5000);
    if (wrote) await call(api.templates.leave, { templateNo: this.templateNo }).catch(() => undefined);
    this.destroy();
  }

  destroy(): void {
    if (this.destroyed) return;
    if (this.tempTimer) clearTimeout(this.tempTimer);
    clearInterval(this.ticker);
    this.doc.off('update', this.onDocUpdate);
    this.durability.destroy();
    destroyLiveProvider(this.provider);
    this.destroyed = true;
    this.listeners.clear();
    this.doc.destroy();
  }
}
