import { once } from 'node:events';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { openSocketPair } from '../../testing/socketPair.js';
import { coalesceWrites } from './coalescedWrites.js';

/** A websocket server side with its raw socket's writes counted, and a client that collects what it gets. */
async function pair(coalesce: boolean) {
  const { server, serverSide, client } = await openSocketPair();
  const raw = (serverSide as unknown as { _socket: Socket })._socket;
  if (coalesce) coalesceWrites(serverSide, raw);
  const writes = { count: 0 };
  // Every write that reaches the kernel goes through one of these two (net.Socket's stream methods).
  const counted = raw as unknown as { _write: (...args: unknown[]) => void; _writev: (...args: unknown[]) => void };
  for (const method of ['_write', '_writev'] as const) {
    const original = counted[method].bind(raw);
    counted[method] = (...args: unknown[]) => {
      writes.count += 1;
      original(...args);
    };
  }
  const received: string[] = [];
  client.on('message', (data: Buffer) => received.push(data.toString('utf8')));
  return { server, serverSide, client, writes, received };
}

describe('coalesced socket writes', () => {
  const cleanups: Array<() => void> = [];
  afterEach(() => {
    for (const cleanup of cleanups.splice(0)) cleanup();
  });

  it.each([
    { coalesce: false, writes: 3 },
    { coalesce: true, writes: 1 },
  ])(
    'three messages sent in one tick take $writes write(s) (coalesced: $coalesce), and arrive in order',
    async ({ coalesce, writes: expected }) => {
      const { server, serverSide, client, writes, received } = await pair(coalesce);
      cleanups.push(
        () => server.close(),
        () => client.terminate(),
      );
      serverSide.send('update');
      serverSide.send('presence');
      serverSide.send('saved');
      await new Promise((resolve) => setImmediate(resolve));
      expect(writes.count).toBe(expected);
      while (received.length < 3) await once(client, 'message');
      expect(received).toEqual(['update', 'presence', 'saved']);
    },
  );

  it('writes at once again in the next tick', async () => {
    const { server, serverSide, client, writes, received } = await pair(true);
    cleanups.push(
      () => server.close(),
      () => client.terminate(),
    );
    serverSide.send('first');
    await new Promise((resolve) => setImmediate(resolve));
    serverSide.send('second');
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes.count).toBe(2);
    while (received.length < 2) await once(client, 'message');
    expect(received).toEqual(['first', 'second']);
  });
});
