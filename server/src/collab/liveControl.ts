import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';

/**
 * What the API asks of a live document's connections. With several server processes, a note's editors
 * may be connected to any of them, so every process must apply the command to its own connections.
 */
export type LiveCommand =
  /** Turn write connections read-only: all of them, or one user's (userNo). */
  | { kind: 'end-writing'; documentName: string; userNo: number | null; reason: string }
  /** End every connection (the note is gone). */
  | { kind: 'close'; documentName: string }
  /** Check every connection of these users again now (their sessions, users or memberships changed). */
  | { kind: 'recheck-users'; userNos: number[] }
  /** The store refused the document's updates: copies in memory may hold them and are not to be trusted. */
  | { kind: 'stale'; documentName: string };

/** Carries live commands to the other server processes; this process applies its own directly. */
export interface LiveControlChannel {
  /** Starts delivering other processes' commands to `apply`. */
  start(apply: (command: LiveCommand) => Promise<void>): Promise<void>;
  publish(command: LiveCommand): Promise<void>;
  close(): Promise<void>;
}

/** One process: nobody else to tell. */
export const singleProcessChannel: LiveControlChannel = {
  start: async () => undefined,
  publish: async () => undefined,
  close: async () => undefined,
};

interface Envelope {
  origin: string;
  command: LiveCommand;
}

/** Redis publish/subscribe on one channel under the deployment's prefix (REDIS_PREFIX). */
export async function redisControlChannel(redisUrl: string, prefix: string, log: FastifyBaseLogger): Promise<LiveControlChannel> {
  const { Redis } = await import('ioredis');
  const channel = `${prefix}:live-control`;
  const origin = randomBytes(8).toString('hex');
  const publisher = new Redis(redisUrl, { lazyConnect: true });
  const subscriber = new Redis(redisUrl, { lazyConnect: true });
  for (const connection of [publisher, subscriber]) connection.on('error', (error: Error) => log.warn({ err: error }, 'live control: redis error'));
  return {
    async start(apply) {
      await Promise.all([publisher.connect(), subscriber.connect()]);
      subscriber.on('message', (from: string, raw: string) => {
        if (from !== channel) return;
        let envelope: Envelope;
        try {
          envelope = JSON.parse(raw) as Envelope;
        } catch {
          log.warn({ raw }, 'live control: unreadable message ignored');
          return;
        }
        if (envelope.origin === origin) return;
        apply(envelope.command).catch((error: unknown) => log.error({ err: error, command: envelope.command }, 'live control: applying a command failed'));
      });
      await subscriber.subscribe(channel);
    },
    async publish(command) {
      // The change behind the command is committed: a lost message is logged, not the caller's failure;
      // the other processes' periodic session re-check (onTokenSync) then ends write access.
      await publisher.publish(channel, JSON.stringify({ origin, command } satisfies Envelope)).catch((error: unknown) => log.error({ err: error, command }, 'live control: publishing failed'));
    },
    async close() {
      subscriber.disconnect();
      await publisher.quit().catch(() => publisher.disconnect());
    },
  };
}
