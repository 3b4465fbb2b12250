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
