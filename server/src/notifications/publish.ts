import { sql } from 'drizzle-orm';
import { NOTIFICATION_LIMITS } from '@eln/shared';
import type { Queryable } from '../db/client.js';

/** The `pg_notify` channel on which changes to people's notifications are told (stream.ts listens). */
export const NOTIFICATION_CHANNEL = 'eln_notifications';

/**
 * Payloads naming these user numbers (comma-separated), each under NOTIFICATION_LIMITS.pushPayloadBytes:
 * PostgreSQL refuses a payload of 8,000 bytes or more.
 */
export function pushPayloads(userNos: readonly number[]): string[] {
  const payloads: string[] = [];
  let current = '';
  for (const userNo of new Set(userNos)) {
    const next = current ? `${current},${userNo}` : String(userNo);
    if (next.length > NOTIFICATION_LIMITS.pushPayloadBytes) {
      payloads.push(current);
      current = String(userNo);
    } else current = next;
  }
  if (current) payloads.push(current);
  return payloads;
}

/** The user numbers a payload names (anything else in it is passed over). */
export function usersOfPayload(payload: string): number[] {
  return payload
    .split(',')
    .map(Number)
    .filter((userNo) => Number.isSafeInteger(userNo) && userNo > 0);
}

/**
 * Tells every server process, once the transaction commits (and never if it rolls back), that these
 * people's notifications changed: their open streams are sent the new unread count.
 */
export async function publishNotificationChange(tx: Queryable, userNos: readonly number[]): Promise<void> {
  for (const payload of pushPayloads(userNos)) await tx.execute(sql`select pg_notify(${NOTIFICATION_CHANNEL}, ${payload})`);
}
