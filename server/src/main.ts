import { loadConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { buildApp } from './app.js';
import { describeAdministrator } from './users/bootstrap.js';
import { bootstrap } from './system/bootstrap.js';

/** Starts the lab notebook: database (migrated), first administrator, API, websocket and client on one port. */
async function main(): Promise<void> {
  const config = loadConfig();
  const database = await openDatabase(config.database);
  const server = await buildApp(config, database);
  const admin = await bootstrap(database.db, config);
  await server.app.listen({ port: config.port, host: config.host });
  server.app.log.info(`database: ${database.engine === 'pglite' ? `embedded PGlite in ${config.dataDir}/pg` : 'PostgreSQL'}`);
  if (admin) console.log(`\n${describeAdministrator(admin, config.publicUrl)}\n`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    server.app.log.info(`${signal}: stopping`);
    await server.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error: unknown) => {
  console.error('The lab notebook could not start:', error);
  process.exit(1);
});
