import { canonicalJson, type api, type CallRequest, type TokenSettings } from '@eln/shared';
import { appendAudit, auditedActor } from '../../audit/audit.js';
import type { Actor } from '../../auth/authUser.js';
import { accessTokenForbiddenLevels } from '../../db/schema.js';
import type { Services } from '../../services.js';
import { tokenSettingsOf } from '../queries.js';

/**
 * Sets the levels whose people may not use tokens (administrators only: the route's access). It takes
 * effect at the next call: creating is refused (5104) and existing tokens of those levels stop (5104),
 * though they are kept, so that allowing the level again gives them back. A change that changes nothing
 * records nothing.
 */
export async function updateTokenSettings(
  { db }: Services,
  actor: Actor,
  input: CallRequest<typeof api.tokens.updateSettings>,
): Promise<TokenSettings> {
  return db.transaction(async (tx) => {
    await tx.select({ level: accessTokenForbiddenLevels.level }).from(accessTokenForbiddenLevels).for('update');
    const before = await tokenSettingsOf(tx);
    const after = { forbiddenLevels: [...input.forbiddenLevels].sort((a, b) => a - b) };
    if (canonicalJson(before) === canonicalJson(after)) return before;
    await tx.delete(accessTokenForbiddenLevels);
    if (after.forbiddenLevels.length) await tx.insert(accessTokenForbiddenLevels).values(after.forbiddenLevels.map((level) => ({ level })));
    await appendAudit(tx, {
      ...auditedActor(actor),
      action: 'token.settingsUpdated',
      target: { type: 'tokenSettings', id: 'levels' },
      before,
      after,
    });
    return after;
  });
}
