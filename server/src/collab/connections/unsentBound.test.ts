import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, type WebSocketServer } from 'ws';
import { openSocketPair } from '../../testing/socketPair.js';
import { boundUnsent } from './socketLimits.js';

const LIMIT = 256 * 1024;
const CHUNK = new Uint8Array(64 * 1024);

/** A websocket server whose sockets have the unsent bound, and a client of it. */
async function pair(): Promise<{ server: WebSocketServer; serverSide: WebSocket; client: WebSocket }> {
  const { server, serverSide, client } = await openSocketPair();
  boundUnsent(serverSide, LIMIT);
  return { server, serverSide, client };
}

/** Sends chunks as fast as the event loop allows until the socket stops being open or `total` bytes are sent. */
async function flood(socket: WebSocket, total: number): Promise<{ sent: number; mostUnsent: number }> {
  let sent = 0;
  let mostUnsent = 0;
  while (socket.readyState === WebSocket.OPEN && sent < total) {
    socket.send(CHUNK);
    sent += CHUNK.byteLength;
    mostUnsent = Math.max(mostUnsent, socket.bufferedAmount);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return { sent, mostUnsent };
}

describe('the bound on what a socket holds unsent', () => {
  const cleanups: Array<() => void> = [];
  afterEach(() => {
    for (const cleanup of cleanups.splice(0)) cleanup();
  });

  it('closes the socket of a client that stops reading, having queued no more than the bound and one message', async () => {
    const { server, serverSide, client } = await pair();
    cleanups.push(
      () => server.close(),
      () => client.terminate(),
    );
    // The client stops reading: the kernel's buffers fill, then what the server sends waits in its memory.
    (client as unknown as { _socket: { pause(): void } })._socket.pause();
    const closed = once(serverSide, 'close') as Promise<[number, Buffer]>;
    const { mostUnsent } = await flood(serverSide, 512 * 1024 * 1024);
    expect(serverSide.readyState).not.toBe(WebSocket.OPEN);
    expect(mostUnsent).toBeLessThanOrEqual(LIMIT + CHUNK.byteLength);
    // Ended a moment later: the client answers no close handshake.
    await closed;
  });

  it('leaves a client that reads alone, however much it is sent', async () => {
    const { server, serverSide, client } = await pair();
    cleanups.push(
      () => server.close(),
      () => client.terminate(),
    );
    let received = 0;
    client.on('message', (data: Buffer) => (received += data.byteLength));
    const total = 16 * LIMIT;
    const { sent } = await flood(serverSide, total);
    expect(sent).toBe(total);
    await new Promise<void>((resolve) => {
      const check = () => (received >= total ? resolve() : setTimeout(check, 10));
      check();
    });
    expect(serverSide.readyState).toBe(WebSocket.OPEN);
  });
});
