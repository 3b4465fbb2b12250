import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { api, CallAnswer, CallRequest } from '@eln/shared';
import type { Actor } from '../../auth/authUser.js';
import { notifications } from '../../db/schema.js';
import type { Services } from '../../services.js';
import { publishNotificationChange } from '../publish.js';
import { unreadCountOf } from '../queries.js';

/**
 * Marks the caller's own notifications read: those named (others' ids are passed over, as are ids already
 * read), or all. The caller's other open tabs are told the new count. Reading one's notifications
 * changes nothing of the notebook's records, so it leaves no audit record.
 */
export async function markRead(
  { db }: Services,
  { user }: Actor,
  input: CallRequest<typeof api.notifications.read>,
): Promise<CallAnswer<typeof api.notifications.read>> {
  await db.transaction(async (tx) => {
    const marked = await tx
      .update(notifications)
      .set({ readAt: sql`now()` })
      .where(
        and(
          eq(notifications.userNo, user.userNo),
          eq(notifications.inApp, true),
          isNull(notifications.readAt),
          input.ids ? inArray(notifications.notificationId, input.ids) : undefined,
        ),
      )
      .returning({ notificationId: notifications.notificationId });
    if (marked.length) await publishNotificationChange(tx, [user.userNo]);
  });
  return { unreadCount: await unreadCountOf(db, user) };
}
