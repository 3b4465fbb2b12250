import { eq } from 'drizzle-orm';
import { canonicalJson, ERR, type AccountSettings, type api, type CallRequest, type NotificationChoices } from '@eln/shared';
import { appendAudit, auditedActor } from '../../audit/audit.js';
import type { Actor } from '../../auth/authUser.js';
import { userSettings } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import type { Services } from '../../services.js';
import { settingsView } from '../presenters.js';
import { accountSettingsOf } from '../queries.js';

/**
 * Changes the fields sent of the caller's own settings, in one transaction with its audit record (the
 * settings before and after). No policy is asked: the request names no one, so a person can only ever
 * change their own, and every signed-in person may. A change that changes nothing records nothing.
 * Notification choices keep the events the person set; the others follow the defaults.
 */
export async function updateAccountSettings(
  { db, config }: Services,
  actor: Actor,
  input: CallRequest<typeof api.account.updateSettings>,
): Promise<AccountSettings> {
  const { userNo } = actor.user;
  return db.transaction(async (tx) => {
    // The row exists from here on, and is locked: two changes at once (two devices) merge, neither lost.
    await tx.insert(userSettings).values({ userNo }).onConflictDoNothing();
    const [row] = await tx.select().from(userSettings).where(eq(userSettings.userNo, userNo)).for('update');
    if (!row) throw new AppError(ERR.accountSettingsSave);
    const stored = (row.notificationChoices ?? {}) as NotificationChoices;
    const next = {
      language: input.language === undefined ? row.language : input.language,
      theme: input.theme === undefined ? row.theme : input.theme,
      timeZone: input.timeZone === undefined ? row.timeZone : input.timeZone,
      notificationChoices: input.notifications ? { ...stored, ...input.notifications } : stored,
      digestEnabled: input.digest?.enabled ?? row.digestEnabled,
      digestTime: input.digest?.time ?? row.digestTime,
    };
    const before = settingsView(row);
    const after = settingsView({ ...row, ...next });
    if (canonicalJson(before) !== canonicalJson(after)) {
      await tx
        .update(userSettings)
        .set({ ...next, updatedAt: new Date() })
        .where(eq(userSettings.userNo, userNo));
      await appendAudit(tx, {
        ...auditedActor(actor),
        action: 'account.settingsUpdated',
        target: { type: 'user', id: actor.user.userId },
        before,
        after,
      });
    }
    return accountSettingsOf(tx, actor.user, config.timeZone);
  });
}
