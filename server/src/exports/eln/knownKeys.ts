import { and, eq, sql } from 'drizzle-orm';
import type { KnownSigningKey } from '@eln/shared';
import type { Db } from '../../db/client.js';
import { auditLog } from '../../db/schema.js';
import { exportKeyCreatedAt, exportSigningKey, keyFingerprint } from './minisign.js';

/**
 * The minisign keys this notebook knows, for administrators: its own export key (the one
 * /.well-known/keys.json publishes and every archive's signature names), then each key that signed an
 * imported archive, read from the imports' audit records: `otherKey` when the key the archive shipped
 * verified it, `unknownKey` when the signature named a key neither shipped nor this server's (recorded
 * with the signature, not verified). There is no store of keys added by hand: an unknown key stays unknown.
 */
export async function knownSigningKeys(db: Db): Promise<{ list: KnownSigningKey[] }> {
  const own = await exportSigningKey(db);
  const signed = sql<string>`${auditLog.after}->>'signed'`;
  const keyId = sql<string>`${auditLog.after}->>'keyId'`;
  const rows = await db
    .select({
      keyId,
      verified: sql<boolean>`bool_or(${signed} in ('thisServer', 'otherKey'))`,
      firstSeen: sql<Date>`min(${auditLog.at})`.mapWith(auditLog.at),
      imports: sql<number>`count(*)::int`,
    })
    .from(auditLog)
    .where(and(eq(auditLog.action, 'export.imported'), sql`${keyId} is not null`))
    .groupBy(keyId)
    .orderBy(sql`min(${auditLog.at})`);
  const ownImports = rows.find((row) => row.keyId === own.keyId)?.imports ?? 0;
  return {
    list: [
      {
        keyId: own.keyId,
        source: 'thisServer',
        fingerprint: keyFingerprint(own),
        addedAt: (await exportKeyCreatedAt(db)).toISOString(),
        imports: ownImports,
      },
      ...rows
        .filter((row) => row.keyId !== own.keyId)
        .map((row) => ({
          keyId: row.keyId,
          source: row.verified ? ('otherKey' as const) : ('unknownKey' as const),
          fingerprint: null,
          addedAt: row.firstSeen.toISOString(),
          imports: Number(row.imports),
        })),
    ],
  };
}
