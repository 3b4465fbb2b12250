import { sql } from 'drizzle-orm';
import type { Queryable } from '../db/client.js';
import { labNoteCounters } from '../db/schema.js';

/**
 * The next lab note number of the year (in the company's time zone), taken inside the creating
 * transaction: a creation that fails or is refused gives it back, so the numbers have no gaps. Creations
 * wait for each other on the year's counter row until they commit.
 */
export async function nextLabNoteNumber(tx: Queryable, timeZone: string): Promise<string> {
  const year = Number(new Intl.DateTimeFormat('en', { timeZone, year: 'numeric' }).format(new Date()));
  const [row] = await tx
    .insert(labNoteCounters)
    .values({ year, lastNumber: 1 })
    .onConflictDoUpdate({ target: labNoteCounters.year, set: { lastNumber: sql`${labNoteCounters.lastNumber} + 1` } })
    .returning();
  if (!row) throw new Error('lab note counter answered nothing');
  return `LN-${year}-${String(row.lastNumber).padStart(6, '0')}`;
}
