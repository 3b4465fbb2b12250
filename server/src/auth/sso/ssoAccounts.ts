import { randomBytes } from 'node:crypto';
import { AUDIT_SYSTEM_REASONS, emailField, LIMITS, MEMBER_LEVEL, type LicenceStatus } from '@eln/shared';
import { appendAudit } from '../../audit/audit.js';
import type { Db } from '../../db/client.js';
import { users } from '../../db/schema.js';
import { findDepartment } from '../../departments/queries.js';
import { licenceProblem } from '../../licence/licence.js';
import type { VendorKey } from '../../licence/vendorKeys.js';
import { findUserById, type UserRow } from '../queries.js';
import { hashPassword } from '../passwords.js';

/** Why a provider's claims name no notebook user ID. */
export type IdentityProblem = 'claimMissing' | 'notAnEmail' | 'emailNotVerified';

/**
 * The notebook user ID the provider's claims name: the configured claim's value, an email, lower-case.
 * When that claim is `email`, a provider that says the address is not verified is not believed: anyone
 * could otherwise type a colleague's address into their provider profile and enter as them.
 */
export function userIdFromClaims(claims: Record<string, unknown>, claim: string): { userId: string } | { problem: IdentityProblem } {
  const value = claims[claim];
  if (typeof value !== 'string' || value.trim() === '') return { problem: 'claimMissing' };
  const parsed = emailField.safeParse(value);
  if (!parsed.success) return { problem: 'notAnEmail' };
  if (claim === 'email' && claims.email_verified === false) return { problem: 'emailNotVerified' };
  return { userId: parsed.data };
}

/** A display name from the standard profile claims, else the address's local part. */
function nameFromClaims(claims: Record<string, unknown>, userId: string): string {
  const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
  const name =
    text(claims.name) || [text(claims.given_name), text(claims.family_name)].filter(Boolean).join(' ') || userId.split('@')[0] || userId;
  return name.slice(0, LIMITS.userName);
}

/** Creating the account would break the licence: nothing was created. */
export class LicenceRefusal extends Error {
  constructor(readonly problem: Exclude<LicenceStatus, 'valid'>) {
    super(`licence ${problem}`);
  }
}

export interface NewSsoUser {
  userId: string;
  claims: Record<string, unknown>;
  departmentCode: string | null;
  trustedLicenceKeys: readonly VendorKey[];
  clientAddress: string;
}

/**
 * Makes the account of a provider user the notebook does not know yet: a member with no permissions
 * (administrators grant them), in the configured department when it exists, with a random password no
 * one knows (find password sets one, if the lab wants them to have it). The account and its audit
 * record are written in one transaction with the licence check, so a sign-in the licence refuses
 * leaves no account behind. Answers the existing account when another sign-in made it meanwhile.
 */
export async function createSsoUser(db: Db, user: NewSsoUser): Promise<{ row: UserRow; departmentFound: boolean }> {
  const passwordHash = await hashPassword(randomBytes(32).toString('base64url'));
  return db.transaction(async (tx) => {
    const department = user.departmentCode ? await findDepartment(tx, user.departmentCode) : undefined;
    const [created] = await tx
      .insert(users)
      .values({
        userId: user.userId,
        name: nameFromClaims(user.claims, user.userId),
        passwordHash,
        departmentCode: department?.code ?? null,
        level: MEMBER_LEVEL,
      })
      .onConflictDoNothing()
      .returning();
    if (!created) {
      const existing = await findUserById(tx, user.userId);
      if (!existing) throw new Error(`account ${user.userId} neither created nor found`);
      return { row: existing, departmentFound: true };
    }
    const problem = await licenceProblem(tx, user.trustedLicenceKeys);
    if (problem) throw new LicenceRefusal(problem);
    await appendAudit(tx, {
      actor: null,
      action: 'user.created',
      target: { type: 'user', id: created.userId },
      after: { userId: created.userId, name: created.name, departmentCode: created.departmentCode, level: created.level, method: 'sso' },
      reason: AUDIT_SYSTEM_REASONS.ssoCreated,
      clientAddress: user.clientAddress,
    });
    return { row: created, departmentFound: department !== undefined || !user.departmentCode };
  });
}
