import type { SQL } from 'drizzle-orm';
import type { Caller } from '../projects/policy.js';
import { readableNotesSql } from '../notes/policy.js';

/**
 * What a user finds: the notes they may read, by the very rule the notes' own calls use (the project's
 * leader, its listed participants, administrators; never a deleted note, nothing of a project the user
 * was removed from). Read at query time, so a change of membership counts at once, whatever the index holds.
 */
export function searchableNotesSql(user: Caller): SQL | undefined {
  return readableNotesSql(user);
}
