import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';

/** A websocket server on a free loopback port, one client connected to it, and the server's side of that connection. */
export async function openSocketPair(): Promise<{ server: WebSocketServer; serverSide: WebSocket; client: WebSocket }> {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await once(server, 'listening');
  const accepted = once(server, 'connection') as Promise<[WebSocket]>;
  const client = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`);
  const [serverSide] = await accepted;
  await once(client, 'open');
  return { server, serverSide, client };
}
