import type { ServerConfig } from '../config.js';
import type { Db } from '../db/client.js';
import { companies } from '../db/schema.js';
import { ensureAdministrator, type CreatedAdministrator } from '../users/bootstrap.js';

/** What every start makes sure of: the company exists, and on the very first start, the administrator. */
export async function bootstrap(db: Db, config: ServerConfig): Promise<CreatedAdministrator | null> {
  await db.insert(companies).values({ code: config.company.code, name: config.company.name }).onConflictDoNothing();
  if (config.company.otherCode !== config.company.code) {
    await db.insert(companies).values({ code: config.company.otherCode, name: config.company.name }).onConflictDoNothing();
  }
  return ensureAdministrator(db, config.admin);
}
