import { DOCUMENT_TOO_LARGE, type BlockStatus, type NoteSummary, type SavedBlock } from '@eln/shared';
import type { ConnectionState, PresenceUser } from './presence';

/** What a note session shows: its state for the header, the editor and the tabs. */

export type ReadOnlyReason = 'signed' | 'finished' | 'notWritable' | 'holdEnded' | 'tooLarge';

export interface NoteSessionState {
  phase: 'loading' | 'ready' | 'missing' | 'error';
  error: unknown;
  note: NoteSummary | null;
  version: number;
  savedAt: string | null;
  savedBy: string | null;
  savedBlocks: SavedBlock[];
  connection: ConnectionState;
  /** The first sync with the server is done: the document shows the note. */
  synced: boolean;
  /** Every edit this client made is confirmed stored by the server. */
  durable: boolean;
  readOnly: ReadOnlyReason | null;
  /** The server accepted this connection for writing and nothing has ended it. */
  writable: boolean;
  writers: PresenceUser[];
  /** Block statuses against the saved version, by blockUid (ADD and EDIT only). */
  statuses: ReadonlyMap<string, BlockStatus>;
  /** The note differs from its saved version. */
  hasChange: boolean;
  draft: 'idle' | 'saved' | 'failed';
  saving: boolean;
}

export interface SessionUser {
  userId: string;
  name: string;
}

export type SaveOutcome = 'saved' | 'stale' | 'notStored' | 'failed' | 'readOnly';

export function initialSessionState(): NoteSessionState {
  return {
    phase: 'loading',
    error: null,
    note: null,
    version: 0,
    savedAt: null,
    savedBy: null,
    savedBlocks: [],
    connection: 'connecting',
    synced: false,
    durable: true,
    readOnly: null,
    writable: false,
    writers: [],
    statuses: new Map(),
    hasChange: false,
    draft: 'idle',
    saving: false,
  };
}

export interface ReadOnlyInputs {
  note: NoteSummary | null;
  /** The server ended this connection's writing (hold-ended message), with this reason. */
  holdEnded: boolean;
  holdEndedReason: string;
  /** No summary read after the end of the hold has arrived yet: the reason it gave still stands. */
  hintCurrent: boolean;
  /** The scope the server gave the connection ('read-write', 'readonly', or none yet). */
  scope: string | null;
}

/** Why the note is read-only now, if it is, and whether this client may write. */
export function readOnlyOf(inputs: ReadOnlyInputs): { readOnly: ReadOnlyReason | null; writable: boolean } {
  const { note, holdEnded, holdEndedReason, scope } = inputs;
  let readOnly: ReadOnlyReason | null = null;
  // A locked note says why (signed, finished) rather than only that editing ended; until a summary read
  // after the end of the hold arrives, the reason the server gave with it says so.
  const hint = holdEnded && inputs.hintCurrent ? holdEndedReason : '';
  if (note?.status === 'T' || hint === 'signed') readOnly = 'signed';
  else if (note?.status === 'F' || hint === 'finished') readOnly = 'finished';
  // The server refused an edit that would outgrow the note's size limit: that edit is not stored.
  else if (holdEnded && holdEndedReason === DOCUMENT_TOO_LARGE) readOnly = 'tooLarge';
  else if (holdEnded) readOnly = 'holdEnded';
  else if (note?.abilities.write === false || scope === 'readonly') readOnly = 'notWritable';
  return { readOnly, writable: readOnly === null && note !== null && scope === 'read-write' };
}
