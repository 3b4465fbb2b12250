import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { OutgoingMessage } from '@hocuspocus/server';
import { COLLAB_LIMITS, COLLAB_PATH, ERR } from '@eln/shared';
import { DEFAULT_SOCKET_LIMITS, SOCKET_CLOSE } from './socketLimits.js';
import { startTestServer, type TestServer } from '../../testing/harness.js';
import { eventually } from '../../testing/live.js';

/** A bare websocket, as an attacker would open one: no provider, no token unless it sends one. */
interface RawSocket {
  socket: WebSocket;
  closed: Promise<{ code: number; reason: string }>;
}

function openRaw(baseUrl: string): Promise<RawSocket | { refusedWith: number; body: string }> {
  const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}${COLLAB_PATH}`);
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  return new Promise((resolve, reject) => {
    socket.on('open', () => resolve({ socket, closed }));
    socket.on('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ refusedWith: response.statusCode ?? 0, body }));
    });
    socket.on('error', (error) => {
      if (!error.message.includes('Unexpected server response')) reject(error);
    });
  });
}

async function mustOpen(baseUrl: string): Promise<RawSocket> {
  const opened = await openRaw(baseUrl);
  if (!('socket' in opened)) throw new Error(`refused with ${opened.refusedWith}`);
  return opened;
}

/** A sync update for `documentName` carrying `bytes` of payload, framed as a provider frames one. */
const updateFrame = (documentName: string, bytes: number) =>
  new OutgoingMessage(documentName).createSyncMessage().writeUpdate(new Uint8Array(bytes)).toUint8Array();

describe('the websocket before authentication', () => {
  let server: TestServer;
  let url: string;
  const limits = { ...DEFAULT_SOCKET_LIMITS, perAddress: 3, preAuthTimeoutMs: 3000 };

  beforeAll(async () => {
    server = await startTestServer({ config: { socketLimits: limits } });
    url = await server.listen();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('refuses sockets past the per-address limit with 429 before the upgrade, and closes silent ones on time', async () => {
    const held = await Promise.all(Array.from({ length: limits.perAddress }, () => mustOpen(url)));
    const refused = await openRaw(url);
    expect(refused).toMatchObject({ refusedWith: 429 });
    if (!('body' in refused)) throw new Error('unreachable');
    expect(JSON.parse(refused.body)).toMatchObject({ status: ERR.tooManyConnections, data: null });
    // None of them authenticates: each is closed with the timeout's code, which frees the address again.
    for (const { closed } of held) expect(await closed).toEqual(SOCKET_CLOSE.preAuthTimeout);
    let next: RawSocket | null = null;
    await eventually(async () => {
      const attempt = await openRaw(url);
      if ('socket' in attempt) next = attempt;
      return next !== null;
    }, 'a socket to be accepted once the others are gone');
    next!.socket.close();
  });

  it(`closes a socket that sends more than ${COLLAB_LIMITS.preAuthBytes / 1024} kB before authenticating`, async () => {
    const { socket, closed } = await mustOpen(url);
    // Frames under the message limit, each queued by Hocuspocus until authentication: the sum is what counts.
    const frame = updateFrame('scratch.queued', 16 * 1024);
    const frames = Math.ceil(COLLAB_LIMITS.preAuthBytes / frame.byteLength) + 2;
    for (let i = 0; i < frames; i += 1) socket.send(frame);
    expect(await closed).toEqual(SOCKET_CLOSE.preAuthTooMuch);
  });

  it('cuts off one large message before authentication as it arrives, without waiting for its end', async () => {
    const { socket, closed } = await mustOpen(url);
    // The start of a message that never ends (a fragment without `fin`): counted as its bytes arrive.
    const frame = updateFrame('scratch.endless', 4 * COLLAB_LIMITS.preAuthBytes);
    socket.send(frame, { fin: false });
    expect(await closed).toEqual(SOCKET_CLOSE.preAuthTooMuch);
  });

  it('closes a socket whose single message exceeds the message limit (1009)', async () => {
    const { socket, closed } = await mustOpen(url);
    socket.send(updateFrame('scratch.huge', COLLAB_LIMITS.messageBytes + 1));
    expect((await closed).code).toBe(1009);
  });
});
