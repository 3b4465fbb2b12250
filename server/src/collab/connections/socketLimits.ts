import type { Socket } from 'node:net';
import type { WebSocket } from 'ws';
import { COLLAB_LIMITS } from '@eln/shared';

/** What one client may hold of the websocket server before and after it has proven who it is. */
export interface SocketLimits {
  /** Open sockets per client address. */
  perAddress: number;
  /** Bytes a socket may send before one of its documents has authenticated. */
  preAuthBytes: number;
  /** A socket with no authenticated document after this long is closed. */
  preAuthTimeoutMs: number;
  /** Bytes the server may hold unsent for a socket (a client that does not read) before it closes it. */
  unsentBytes: number;
}

export const DEFAULT_SOCKET_LIMITS: SocketLimits = {
  perAddress: COLLAB_LIMITS.socketsPerAddress,
  preAuthBytes: COLLAB_LIMITS.preAuthBytes,
  preAuthTimeoutMs: COLLAB_LIMITS.preAuthTimeoutMs,
  unsentBytes: COLLAB_LIMITS.unsentBytes,
};

/** Close codes (4000-4999 are the application's) and reasons for sockets that overstep a limit. */
export const SOCKET_CLOSE = {
  preAuthTimeout: { code: 4408, reason: 'authentication-timeout' },
  preAuthTooMuch: { code: 4413, reason: 'too-much-before-authentication' },
  tooMuchUnsent: { code: 4429, reason: 'too-much-unsent' },
} as const;

/** Counts open sockets per client address, so that one address cannot open hundreds. */
export class AddressSlots {
  private readonly open = new Map<string, number>();

  constructor(private readonly perAddress: number) {}

  /** Takes a slot for the address until the TCP socket closes; false when the address holds them all. */
  take(address: string, socket: Socket): boolean {
    // A socket already gone would never release its slot (its 'close' has passed); its upgrade fails anyway.
    if (socket.destroyed) return true;
    const held = this.open.get(address) ?? 0;
    if (held >= this.perAddress) return false;
    this.open.set(address, held + 1);
    socket.once('close', () => this.release(address));
    return true;
  }

  private release(address: string): void {
    const held = (this.open.get(address) ?? 1) - 1;
    if (held > 0) this.open.set(address, held);
    else this.open.delete(address);
  }
}

/**
 * The limits of a socket until one of its documents authenticates: Hocuspocus queues everything a
 * socket sends before then, so the bytes are capped and the wait is bounded. Bytes are counted as they
 * arrive on the TCP socket, so a single large frame is cut off after the budget rather than assembled
 * whole first. Afterwards the socket is an authenticated client's and only the message limit applies.
 */
export class PreAuthGate {
  private received = 0;
  private authenticated = false;
  private closed = false;
  private readonly timer: ReturnType<typeof setTimeout>;
  private readonly count = (chunk: Buffer) => {
    this.received += chunk.length;
    if (this.received > this.limits.preAuthBytes) this.close(SOCKET_CLOSE.preAuthTooMuch);
  };

  constructor(
    private readonly socket: WebSocket,
    private readonly tcp: Socket,
    private readonly limits: SocketLimits,
  ) {
    this.timer = setTimeout(() => this.close(SOCKET_CLOSE.preAuthTimeout), limits.preAuthTimeoutMs);
    this.timer.unref();
    tcp.on('data', this.count);
    socket.once('close', () => this.stopWatching());
  }

  /** Called when a document of this socket has authenticated. */
  authenticate(): void {
    this.authenticated = true;
    this.stopWatching();
  }

  /** Whether the socket's messages may still go on to Hocuspocus (not once it is being closed). */
  get open(): boolean {
    return !this.closed;
  }

  private stopWatching(): void {
    clearTimeout(this.timer);
    this.tcp.off('data', this.count);
  }

  private close(why: { code: number; reason: string }): void {
    if (this.closed || this.authenticated) return;
    this.closed = true;
    this.stopWatching();
    this.socket.close(why.code, why.reason);
    // A client that ignores the close handshake does not keep the socket: it goes a moment later.
    setTimeout(() => this.socket.terminate(), 1000).unref();
  }
}

/**
 * Bounds what the server holds unsent for a socket: once more than `limit` bytes wait for a client that
 * does not read, nothing more is queued and the socket is closed (ended a moment later if the client
 * does not answer the close either). Its provider reconnects and syncs what it missed.
 */
export function boundUnsent(socket: WebSocket, limit: number): void {
  const send = socket.send.bind(socket);
  let closing = false;
  socket.send = ((...args: Parameters<WebSocket['send']>) => {
    if (closing) return;
    if (socket.bufferedAmount <= limit) return send(...args);
    closing = true;
    socket.close(SOCKET_CLOSE.tooMuchUnsent.code, SOCKET_CLOSE.tooMuchUnsent.reason);
    setTimeout(() => socket.terminate(), 1000).unref();
  }) as WebSocket['send'];
}
