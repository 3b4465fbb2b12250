import { eq } from 'drizzle-orm';
import { ERR, type AccountSettings } from '@eln/shared';
import type { AuthUser } from '../auth/authUser.js';
import type { Queryable } from '../db/client.js';
import { departments, projects, users, userSettings } from '../db/schema.js';
import { AppError } from '../http/errors.js';
import { eventsToldTo } from '../notifications/policy.js';
import { settingsView } from './presenters.js';

/**
 * The caller's settings with who they are; a person who never chose anything has the defaults. `serverZone`
 * (TIME_ZONE) is the zone of a person who chose none.
 */
export async function accountSettingsOf(q: Queryable, user: AuthUser, serverZone: string): Promise<AccountSettings> {
  const [row] = await q
    .select({ userId: users.userId, name: users.name, departmentName: departments.name, settings: userSettings })
    .from(users)
    .leftJoin(departments, eq(departments.code, users.departmentCode))
    .leftJoin(userSettings, eq(userSettings.userNo, users.userNo))
    .where(eq(users.userNo, user.userNo));
  // The session was checked a moment ago: an account gone since is a session ended.
  if (!row) throw new AppError(ERR.sessionEnded);
  const settings = settingsView(row.settings);
  const led = await q.select({ projectNo: projects.projectNo }).from(projects).where(eq(projects.leaderUserNo, user.userNo)).limit(1);
  return {
    profile: { userId: row.userId, name: row.name, departmentName: row.departmentName ?? null },
    ...settings,
    events: eventsToldTo(user, { leadsAProject: led.length > 0 }),
    digestTimeZone: settings.timeZone ?? serverZone,
  };
}
