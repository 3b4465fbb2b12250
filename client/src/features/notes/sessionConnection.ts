import {
  HocuspocusProvider,
  HocuspocusProviderWebsocket,
  WebSocketStatus,
  type CompleteHocuspocusProviderConfiguration,
} from '@hocuspocus/provider';
import { COLLAB_PATH, COLLAB_REFUSALS, HOLD_ENDED_MESSAGE } from '@eln/shared';
import { refreshSession } from '../../api';
import { connectionState, type ConnectionState } from './presence';

/** The live layer's websocket address on this page's host. */
export function collabUrl(): string {
  const { protocol, host } = window.location;
  return `${protocol === 'https:' ? 'wss' : 'ws'}://${host}${COLLAB_PATH}`;
}

/** A live session's provider settings: everything but the socket, which `liveProvider` makes. */
export type LiveProviderSettings = Partial<Omit<CompleteHocuspocusProviderConfiguration, 'websocketProvider'>> &
  Pick<CompleteHocuspocusProviderConfiguration, 'name'>;

/**
 * A provider on its own socket that connects only at `connectLiveProvider`. A session's handlers use what
 * its constructor sets up after making the provider; a socket connecting at once ran them before that:
 * the first status event threw inside the socket's first attempt, which it retried a second later, so
 * every note and template dropped its first connection and synced again about a second after opening.
 */
export function liveProvider(settings: LiveProviderSettings): HocuspocusProvider {
  const websocketProvider = new HocuspocusProviderWebsocket({ url: collabUrl(), autoConnect: false });
  return new HocuspocusProvider({ ...settings, websocketProvider });
}

/** Attaches the provider to its socket and connects, once the session around it is complete. */
export function connectLiveProvider(provider: HocuspocusProvider): void {
  provider.attach();
  void provider.configuration.websocketProvider.connect();
}

/** Closes the provider and its socket (a provider given its socket leaves the socket open). */
export function destroyLiveProvider(provider: HocuspocusProvider): void {
  provider.destroy();
  provider.configuration.websocketProvider.destroy();
}

/** Reasons with which the server refuses or later closes a note's connection, as a refused authentication. */
export const REFUSALS: ReadonlySet<string> = new Set(
  Object.values(COLLAB_REFUSALS).filter((reason) => reason !== COLLAB_REFUSALS.contentRefused),
);

/** How a note's connection stands, from the provider and how long it has been down. */
export class ConnectionWatch {
  private everLive = false;
  private downSince: number | null = null;

  observe(provider: HocuspocusProvider): { live: boolean; connection: ConnectionState } {
    const live = provider.configuration.websocketProvider.status === WebSocketStatus.Connected && provider.isAuthenticated;
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
    return { live, connection };
  }
}

/**
 * Answers a refused (or later closed) authentication: an expired token is refreshed once and the same
 * socket authenticates again; otherwise the app's session-ended flow takes over. Returns the note's
 * phase for any other reason ('missing' for a deleted note), or null when it is handled.
 */
export class AuthenticationRecovery {
  private retried = false;

  constructor(
    private readonly provider: HocuspocusProvider,
    private readonly destroyed: () => boolean,
  ) {}

  /** The server accepted the token again: a later expiry may be retried once more. */
  authenticated(): void {
    this.retried = false;
  }

  async failed(reason: string): Promise<'missing' | 'error' | null> {
    if (reason === COLLAB_REFUSALS.session && !this.retried) {
      // The access token ran out while the tab slept: refresh once and authenticate again on the same socket.
      this.retried = true;
      const refreshed = await refreshSession().catch(() => false);
      if (refreshed && !this.destroyed()) {
        await this.provider.sendToken();
        this.provider.startSync();
      }
      return null;
    }
    if (reason === COLLAB_REFUSALS.session) {
      // Refreshing did not help: the app's session-ended flow takes over.
      await refreshSession().catch(() => false);
      return null;
    }
    return reason === COLLAB_REFUSALS.document ? 'missing' : 'error';
  }
}

/** The reason of a hold-ended message (the server ended this connection's writing), or null for any other payload. */
export function holdEndedReason(payload: string): string | null {
  try {
    const message = JSON.parse(payload) as { type?: unknown; reason?: unknown };
    if (message.type !== HOLD_ENDED_MESSAGE) return null;
    return typeof message.reason === 'string' ? message.reason : '';
  } catch {
    return null; // not ours
  }
}
