import { eq } from 'drizzle-orm';
import { ERR, type api, type CallRequest, type TokenRecord } from '@eln/shared';
import { appendAudit, auditedActor } from '../../audit/audit.js';
import type { Actor } from '../../auth/authUser.js';
import { accessTokens, users } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import { enforce } from '../../http/verdicts.js';
import type { Services } from '../../services.js';
import { canRevokeToken, REVOKE_REFUSALS } from '../policy.js';
import { toTokenRecord } from '../presenters.js';
import { forbiddenLevels } from '../queries.js';

/**
 * Revokes a token at once: the next call made with it is refused (5106), even one already past the
 * lookup (the counting update re-checks). Its owner's or, for an administrator, anyone's; the audit record
 * names the owner.
 */
export async function revokeToken({ db }: Services, actor: Actor, input: CallRequest<typeof api.tokens.revoke>): Promise<TokenRecord> {
  return db.transaction(async (tx) => {
    const [found] = await tx
      .select({ token: accessTokens, owner: { userId: users.userId, level: users.level } })
      .from(accessTokens)
      .innerJoin(users, eq(users.userNo, accessTokens.userNo))
      .where(eq(accessTokens.tokenId, input.tokenId))
      .for('update', { of: accessTokens });
    enforce(canRevokeToken(actor.user, found?.token), REVOKE_REFUSALS);
    const [row] = await tx
      .update(accessTokens)
      .set({ revokedAt: new Date(), revokedByUserNo: actor.user.userNo })
      .where(eq(accessTokens.tokenId, input.tokenId))
      .returning();
    if (!row || !found) throw new AppError(ERR.tokenSave);
    await appendAudit(tx, {
      ...auditedActor(actor),
      action: 'token.revoked',
      target: { type: 'token', id: row.tokenId },
      before: { owner: found.owner.userId, name: row.name, prefix: row.prefix },
      after: { revokedAt: row.revokedAt?.toISOString() },
    });
    return toTokenRecord(row, (await forbiddenLevels(tx)).includes(found.owner.level));
  });
}
