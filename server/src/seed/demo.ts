import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/client.js';
import { bootstrap } from '../system/bootstrap.js';
import { describeAdministrator } from '../users/bootstrap.js';
import { DEMO_PASSWORD, DEMO_USERS, seedDemo } from './demoData.js';

/**
 * `npm run seed:demo`: fills the configured database with the demo company. With the embedded database,
 * stop the server first (PGlite allows one process).
 */
async function main(): Promise<void> {
  const config = { ...loadConfig(), logLevel: 'warn' };
  const database = await openDatabase(config.database);
  const server = await buildApp(config, database);
  try {
    const createdAdmin = await bootstrap(database.db, config);
    if (createdAdmin) console.log(describeAdministrator(createdAdmin, config.publicUrl));
    const added = await seedDemo(server, database.db);
    console.log(added ? `Demo company ready: ${added} records added.` : 'Demo company already in place: nothing to add.');
    console.log(`Demo users sign in with their ID (e.g. ${DEMO_USERS[0]?.userId}) and the password "${DEMO_PASSWORD}".`);
  } finally {
    await server.close();
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error('seed:demo failed:', error);
  process.exit(1);
});
