import type { Tx } from '../../db/client.js';

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
  | { kind: 'stale'; documentName: string }
  /** Send every connection of the document a stateless message (something beside its content changed: its comments). */
  | { kind: 'tell'; documentName: string; message: string };

/** Carries live commands to the other server processes; this process applies its own directly. */
export interface LiveControlChannel {
  /** Starts delivering other processes' commands to `apply`. */
  start(apply: (command: LiveCommand) => Promise<void>): Promise<void>;
  /** Sends a command that is not tied to a database change (or whose change is already committed). */
  publish(command: LiveCommand): Promise<void>;
  /**
   * Logs a command inside the transaction of the change it follows from, so that it reaches the other
   * processes if and only if the change commits, even if this process dies right after the commit.
   */
  record(tx: Tx, command: LiveCommand): Promise<void>;
  /**
   * After the commit of recorded commands: tells the other processes, and resolves once every live one
   * has applied them (its connections they end can write no more) or can no longer accept an edit
   * without reading them first (see upToDate). Never fails: at worst it waits until every lease ran out.
   */
  confirm(): Promise<void>;
  /**
   * Nothing while this process is sure to have applied every command that a change waiting in confirm
   * may still count on it for (it read the log within its lease); else a read of the log, after which
   * it has. An edit is applied only after this.
   */
  upToDate(): Promise<void> | undefined;
  close(): Promise<void>;
}

/** One process: nobody else to tell. */
export const singleProcessChannel: LiveControlChannel = {
  start: async () => undefined,
  publish: async () => undefined,
  record: async () => undefined,
  confirm: async () => undefined,
  upToDate: () => undefined,
  close: async () => undefined,
};
