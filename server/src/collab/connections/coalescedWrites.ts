import type { Socket } from 'node:net';
import type { WebSocket } from 'ws';

/**
 * Sends a socket's messages of one tick in one write. Hocuspocus sends a document's pending update and
 * presence to each connection one after the other (Document.flush), and ws writes each frame at once: a
 * system call per frame, a fifth of the server's CPU at 1,000 editors. Corked until the tick ends, the
 * frames of one flush go to the kernel together, with no wait added.
 */
export function coalesceWrites(socket: WebSocket, raw: Socket): void {
  const send = socket.send.bind(socket);
  let corked = false;
  socket.send = ((...args: Parameters<WebSocket['send']>) => {
    if (!corked && !raw.destroyed) {
      corked = true;
      raw.cork();
      process.nextTick(() => {
        corked = false;
        raw.uncork();
      });
    }
    return send(...args);
  }) as WebSocket['send'];
}
