import { LIMITS, type RecentKind } from '@eln/shared';
import { sql } from 'drizzle-orm';
import type { Queryable } from '../db/client.js';
import { recentOpens } from '../db/schema.js';

/**
 * Records that the user opened a note, a template or a schema type (the home's "Recently opened"), from
 * the calls the client makes when it opens one, once they have found the record readable: its time is
 * moved to now, and the user's opens beyond the newest LIMITS.recentOpensKept are forgotten, so the table
 * holds at most that many rows a person. Not audited: opening changes nothing of the record.
 */
export async function recordOpen(q: Queryable, userNo: number, kind: RecentKind, recordNo: number): Promise<void> {
  await q
    .insert(recentOpens)
    .values({ userNo, kind, recordNo })
    .onConflictDoUpdate({ target: [recentOpens.userNo, recentOpens.kind, recentOpens.recordNo], set: { openedAt: sql`now()` } });
  // By recent_opens_user_idx: the row at the limit, then those older than it.
  await q.execute(sql`delete from ${recentOpens} where ${recentOpens.userNo} = ${userNo} and ${recentOpens.openedAt} < (
    select ${recentOpens.openedAt} from ${recentOpens} where ${recentOpens.userNo} = ${userNo}
    order by ${recentOpens.openedAt} desc offset ${LIMITS.recentOpensKept - 1} limit 1)`);
}
