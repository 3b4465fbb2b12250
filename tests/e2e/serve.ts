import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../server/src/app.js';
import { loadConfig } from '../../server/src/config.js';
import { openDatabase } from '../../server/src/db/client.js';
import { users } from '../../server/src/db/schema.js';
import { hashPassword } from '../../server/src/auth/passwords.js';
import { bootstrap } from '../../server/src/system/bootstrap.js';
import { E2E } from './fixtures.js';
import { TEST_LICENCE_KEY } from '../../server/src/licence/vendorKeys.js';
import type { ServerConfig } from '../../server/src/config.js';

/** The browser tests register licences signed by the test vendor key. */
function withTestLicenceKey(config: ServerConfig): ServerConfig {
  return { ...config, trustedLicenceKeys: [...config.trustedLicenceKeys, TEST_LICENCE_KEY] };
}

/**
 * The server the browser tests run against: the real built client and API on a fresh embedded database
 * in a temporary folder, with the administrator and one member known to the tests.
 */
// One such server per Playwright worker (playwright.config.ts starts them), each on the port it is given.
const port = process.env.PORT ?? String(E2E.basePort);
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'eln-e2e-'));
const config = withTestLicenceKey(
  loadConfig({
    ...process.env,
    PORT: port,
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ELN_ADMIN_EMAIL: E2E.admin.userId,
    ELN_ADMIN_PASSWORD: E2E.admin.password,
    ELN_ADMIN_NAME: E2E.admin.name,
    LOG_LEVEL: 'warn',
    // Every answer the browser tests provoke is checked against its route-table schema too.
    ELN_CHECK_ANSWERS: '1',
    // Each worker's server keeps everything to itself, whatever the developer's environment says.
    DATABASE_URL: '',
    REDIS_URL: undefined,
    FILES_DIR: undefined,
  }),
);
const database = await openDatabase({ kind: 'pglite', dataDir: path.join(dataDir, 'pg') });
const server = await buildApp(config, database);
await bootstrap(database.db, config);
await database.db.insert(users).values({
  userId: E2E.member.userId,
  name: E2E.member.name,
  passwordHash: await hashPassword(E2E.member.password),
  level: 1,
  authProject: true,
});
await server.app.listen({ port: config.port, host: config.host });

const stop = async () => {
  await server.close();
  await database.close();
  await rm(dataDir, { recursive: true, force: true });
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
