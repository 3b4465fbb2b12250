import { randomBytes } from 'node:crypto';
import { count } from 'drizzle-orm';
import { ADMIN_LEVEL, AUDIT_SYSTEM_REASONS } from '@eln/shared';
import { appendAudit } from '../audit/audit.js';
import { hashPassword } from '../auth/passwords.js';
import type { Db } from '../db/client.js';
import { users } from '../db/schema.js';

export interface CreatedAdministrator {
  email: string;
  /** Set only when the password was generated here and has to be shown once. */
  generatedPassword: string | null;
}

/**
 * On the first start (no user at all), creates the administrator from ELN_ADMIN_EMAIL and
 * ELN_ADMIN_PASSWORD, generating a password when none is configured. Later starts change nothing.
 */
export async function ensureAdministrator(
  db: Db,
  admin: { email: string; password: string | null; name: string },
): Promise<CreatedAdministrator | null> {
  const [existing] = await db.select({ n: count() }).from(users);
  if ((existing?.n ?? 0) > 0) return null;
  const generatedPassword = admin.password ? null : randomBytes(12).toString('base64url');
  const passwordHash = await hashPassword(admin.password ?? generatedPassword ?? '');
  const created = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(users)
      .values({
        userId: admin.email,
        name: admin.name,
        passwordHash,
        level: ADMIN_LEVEL,
        authProject: true,
        authSchema: true,
        authDropbox: true,
        authTemplate: true,
      })
      .onConflictDoNothing()
      .returning();
    if (!row) return false; // Another process created it first.
    await appendAudit(tx, {
      actor: null,
      action: 'user.created',
      target: { type: 'user', id: row.userId },
      after: { userId: row.userId, name: row.name, level: row.level },
      reason: AUDIT_SYSTEM_REASONS.firstStart,
    });
    return true;
  });
  return created ? { email: admin.email, generatedPassword } : null;
}

export function describeAdministrator(created: CreatedAdministrator, publicUrl: string): string {
  const lines = [
    'The lab notebook is ready. Sign in as its administrator:',
    `  URL:      ${publicUrl}/signin`,
    `  ID:       ${created.email}`,
    created.generatedPassword
      ? `  Password: ${created.generatedPassword}   (generated now and shown only once: write it down)`
      : '  Password: the value of ELN_ADMIN_PASSWORD',
  ];
  const width = Math.max(...lines.map((l) => l.length)) + 2;
  const bar = '═'.repeat(width);
  return [`╔${bar}╗`, ...lines.map((l) => `║ ${l.padEnd(width - 1)}║`), `╚${bar}╝`].join('\n');
}
