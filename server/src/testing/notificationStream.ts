import { request as httpRequest, type IncomingMessage } from 'node:http';
import { api, API_BASE, readServerSentEvents, type NotificationState } from '@eln/shared';

/** A bell's stream as a browser tab holds one, over real HTTP, with what tests and benchmarks need to watch it. */
export interface StreamClient {
  /** The HTTP status and content type of the answer. */
  status: number;
  contentType: string;
  /** Every state received so far, in order. */
  states: NotificationState[];
  /** Resolves with the first state received (from the `after`th on) that satisfies `check`, at once or when it arrives; rejects after `ms`. */
  next(check?: (state: NotificationState) => boolean, after?: number, ms?: number): Promise<NotificationState>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  /** Called at each state as it arrives, with when (performance.now()). */
  onState?: (state: NotificationState, at: number) => void;
  close(): void;
}

/**
 * Opens the stream as `token`'s tab would (POST with the Authorization header), at `baseUrl` (a listening
 * server), on a connection of its own (node:http without an agent: fetch's pool may open a spare
 * connection as one is aborted, which then holds a stopping server until its header timeout).
 */
export async function openNotificationStream(baseUrl: string, token: string): Promise<StreamClient> {
  const request = httpRequest(`${baseUrl}${API_BASE}${api.notifications.stream.path}`, {
    method: 'POST',
    agent: false,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
  });
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    request.once('response', resolve).once('error', reject);
    request.end('{}');
  });
  response.setEncoding('utf8');
  const waiters = new Set<() => void>();
  const client: StreamClient = {
    status: response.statusCode ?? 0,
    contentType: response.headers['content-type'] ?? '',
    states: [],
    next(check = () => true, after = 0, ms = 10_000) {
      return new Promise((resolve, reject) => {
        const look = () => {
          const found = client.states.slice(after).find(check);
          if (!found) return false;
          waiters.delete(look);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(look);
          reject(new Error(`no matching notification state within ${ms} ms (${client.states.length} received)`));
        }, ms);
        if (!look()) waiters.add(look);
      });
    },
    ended: Promise.resolve(),
    close: () => request.destroy(),
  };
  if (!client.contentType.startsWith('text/event-stream')) {
    response.resume();
    return client;
  }
  client.ended = (async () => {
    let buffer = '';
    try {
      for await (const value of response as AsyncIterable<string>) {
        const { events, rest } = readServerSentEvents(buffer + value);
        buffer = rest;
        for (const event of events) {
          if (event.event !== 'state') continue;
          const state = JSON.parse(event.data) as NotificationState;
          client.states.push(state);
          client.onState?.(state, performance.now());
          for (const look of [...waiters]) look();
        }
      }
    } catch {
      // Closed by this side.
    }
  })();
  return client;
}
