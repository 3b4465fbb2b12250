import { count, eq } from 'drizzle-orm';
import type { Queryable } from '../db/client.js';
import { licences, users } from '../db/schema.js';

export type LicenceProblem = 'expired' | 'seatsExceeded';

/**
 * Whether members may sign in under the registered licence. With no licence registered the notebook
 * runs in evaluation mode; administrators are never locked out, so that they can register a new one.
 */
export async function licenceProblem(q: Queryable, now = new Date()): Promise<LicenceProblem | null> {
  const [licence] = await q.select().from(licences);
  if (!licence) return null;
  if (licence.expiresAt.getTime() <= now.getTime()) return 'expired';
  const [active] = await q.select({ n: count() }).from(users).where(eq(users.active, true));
  return (active?.n ?? 0) > licence.seats ? 'seatsExceeded' : null;
}
