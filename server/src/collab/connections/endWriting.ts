import type { Connection } from '@hocuspocus/server';
import { HOLD_ENDED_MESSAGE } from '@eln/shared';

/**
 * Turns a connection read-only and tells its client why (the hold-ended message), which then disables
 * editing: a lock, a lost right, a refused copy or a document at its size limit all end writing so.
 */
export function endWriting(connection: Connection, reason: string, details: Record<string, unknown> = {}): void {
  connection.readOnly = true;
  connection.sendStateless(JSON.stringify({ ...details, type: HOLD_ENDED_MESSAGE, reason }));
}
