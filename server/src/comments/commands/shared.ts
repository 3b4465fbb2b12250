import { sql } from 'drizzle-orm';
import { COMMENTS_CHANGED_MESSAGE } from '@eln/shared';
import type { Tx } from '../../db/client.js';
import type { QueuedLiveCommands } from '../../collab/commands/liveDocuments.js';
import type { CommentPlace } from '../policy.js';
import type { FoundPlace } from '../queries.js';

/** Keys of the transaction locks that count a place's threads and replies one change at a time (notes, templates). */
const PLACE_LOCK = { note: 4_937_001, template: 4_937_002 } as const;

/** Holds the place's comment lock until the transaction ends, so two comments at once never pass a limit together. */
export async function lockPlaceComments(tx: Tx, place: Pick<CommentPlace, 'kind' | 'no'>): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${PLACE_LOCK[place.kind]}, ${place.no})`);
}

/** Tells the place's open screens, on every process, once the change commits, that its comments changed. */
export function tellCommentsChanged(live: QueuedLiveCommands, place: Pick<FoundPlace, 'documentName'>): void {
  live.tell(place.documentName, JSON.stringify({ type: COMMENTS_CHANGED_MESSAGE }));
}

/** The audit record's target: the note or template the comment is on. */
export const auditTarget = (place: Pick<CommentPlace, 'kind' | 'no'>) => ({ type: place.kind, id: place.no });
