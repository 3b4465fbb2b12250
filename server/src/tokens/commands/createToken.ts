import { randomBytes, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { ERR, TOKEN_LIMITS, TOKEN_PREFIX, type api, type CallRequest, type TokenCreateAnswer } from '@eln/shared';
import { appendAudit, auditedActor } from '../../audit/audit.js';
import type { Actor } from '../../auth/authUser.js';
import { accessTokens, users } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import { enforce } from '../../http/verdicts.js';
import type { Services } from '../../services.js';
import { tokenHashOf } from '../authenticate.js';
import { CREATE_REFUSALS } from '../policy.js';
import { toTokenRecord } from '../presenters.js';
import { createVerdictOf } from '../queries.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Characters of the secret after the prefix kept to tell tokens apart (of 43: too few to help a guess). */
const SHOWN_CHARACTERS = 4;

/**
 * Creates a personal access token for the caller: its secret is 32 random bytes after `eln_pat_`, answered
 * this once and stored only as its SHA-256 hash (a secret this long needs no slow hash). Its expiry is
 * required, in the future (5103) and at most a year away (5102). The caller's row is locked, so that two
 * creations at once cannot pass the limit of tokens per person together.
 */
export async function createToken(
  { db }: Services,
  actor: Actor,
  input: CallRequest<typeof api.tokens.create>,
): Promise<TokenCreateAnswer> {
  const expiresAt = new Date(input.expiresAt);
  const now = Date.now();
  if (expiresAt.getTime() <= now) throw new AppError(ERR.tokenExpiryPast);
  if (expiresAt.getTime() > now + TOKEN_LIMITS.maxLifetimeDays * DAY_MS) {
    throw new AppError(ERR.tokenExpiryTooFar, { params: { days: TOKEN_LIMITS.maxLifetimeDays } });
  }
  const secret = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  return db.transaction(async (tx) => {
    await tx.select({ userNo: users.userNo }).from(users).where(eq(users.userNo, actor.user.userNo)).for('update');
    enforce(await createVerdictOf(tx, actor.user), CREATE_REFUSALS);
    const [row] = await tx
      .insert(accessTokens)
      .values({
        tokenId: randomUUID(),
        userNo: actor.user.userNo,
        name: input.name,
        tokenHash: tokenHashOf(secret),
        prefix: secret.slice(0, TOKEN_PREFIX.length + SHOWN_CHARACTERS),
        scopes: [...input.scopes].sort(),
        expiresAt,
      })
      .returning();
    if (!row) throw new AppError(ERR.tokenSave);
    await appendAudit(tx, {
      ...auditedActor(actor),
      action: 'token.created',
      target: { type: 'token', id: row.tokenId },
      after: { name: row.name, prefix: row.prefix, scopes: row.scopes, expiresAt: row.expiresAt.toISOString() },
    });
    return { token: secret, record: toTokenRecord(row, false) };
  });
}
