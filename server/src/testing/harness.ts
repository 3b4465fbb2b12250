import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { api, type ApiResponse, type AuthFlags, type CallAnswer, type CallSpec, type SignInAnswer } from '@eln/shared';
import { buildApp, type App, type AppOptions } from '../app.js';
import { PRODUCTION_LICENCE_KEY, TEST_LICENCE_KEY } from '../licence/vendorKeys.js';
import { DEFAULT_THROTTLE, loadConfig, type ServerConfig, type ThrottlePolicy } from '../config.js';
import { openDatabase, type Database } from '../db/client.js';
import { users } from '../db/schema.js';
import { hashPassword } from '../auth/passwords.js';
import { bootstrap } from '../system/bootstrap.js';
import { fromAuthFlags } from '../users/flags.js';
import { migratedKey, openMigratedPglite } from './pgliteImage.js';

/**
 * A real server on a real, empty database for one test file: PGlite in memory, or (ELN_TEST_DB=postgres)
 * a fresh PostgreSQL database created on TEST_DATABASE_URL's server and dropped afterwards.
 */
export interface TestServer extends App {
  database: Database;
  config: ServerConfig;
  admin: { userId: string; password: string };
  /** POSTs a call the way the client does and answers the HTTP status with the parsed envelope. */
  call: Call<CallOptions>;
  /** Creates a user straight in the database (the admin screens come with a later feature). */
  createUser(fields?: Partial<NewUser>): Promise<NewUser & { userNo: number }>;
  signIn(userId: string, password: string): Promise<SignInAnswer>;
  /** Listens on a free loopback port and answers the base URL (for websockets). */
  listen(): Promise<string>;
  /** Creates a user with these fields and signs them in: someone the test acts as. */
  person(fields?: Partial<NewUser>): Promise<TestPerson>;
  /** Signs in a user made earlier: someone the test acts as. */
  signedIn(user: NewUser & { userNo: number }): Promise<TestPerson>;
  /** Signs a user in and answers a caller bound to their access token. */
  as(user: { userId: string; password: string }): Promise<Caller>;
  /** A caller bound to this access token. */
  callerWith(token: string): Caller;
  stop(): Promise<void>;
}

/**
 * A call by its route-table entry (its answer typed by the entry; the body is any JSON, so that tests can
 * send what the schema refuses), or by path (an unknown path, say).
 */
export interface Call<Options> {
  <C extends CallSpec>(spec: C, body?: unknown, options?: Options): Promise<CallResult<CallAnswer<C>>>;
  <T = unknown>(path: string, body?: unknown, options?: Options): Promise<CallResult<T>>;
}

export type Caller = Call<Omit<CallOptions, 'token'>>;

/** Someone a test acts as: their user, their access token and a caller bound to it. */
export interface TestPerson {
  user: NewUser & { userNo: number };
  token: string;
  call: Caller;
}

export interface CallOptions {
  token?: string;
  headers?: Record<string, string>;
  /** Sends this text as the body instead of JSON-encoding `body`. */
  raw?: string;
  language?: string;
  remoteAddress?: string;
}

export interface CallResult<T> {
  http: number;
  body: ApiResponse<T>;
  headers: LightMyRequestResponse['headers'];
  /** The answer's Set-Cookie headers, parsed. */
  cookies: LightMyRequestResponse['cookies'];
}

export interface NewUser {
  userId: string;
  name: string;
  password: string;
  phone: string | null;
  level: number;
  active: boolean;
  auth: AuthFlags;
}

export const TEST_ADMIN_PASSWORD = 'admin-password-for-tests';
/** Fast throttle for tests: the same rules, without seconds of waiting. */
export const TEST_THROTTLE: ThrottlePolicy = { ...DEFAULT_THROTTLE, delayStepMs: 1, maxDelayMs: 5 };

export interface TestServerOptions extends AppOptions {
  /** Run with the Redis extension (scale-out), on this Redis URL and key prefix. */
  redis?: { url: string; prefix: string };
  throttle?: Partial<ThrottlePolicy>;
  /** Start on this already open database (a restart); `stop` then leaves it open. */
  database?: Database;
  /** Serve the built client too (browser tests that need their own server and its database). */
  serveClient?: boolean;
  /** Settings that differ from the defaults (e.g. trustProxy, per-address socket limits). */
  config?: Partial<ServerConfig>;
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const reused = options.database;
  const { database, drop } = reused ? { database: reused, drop: async () => undefined } : await openTestDatabase();
  // Its files, thumbnails and anything else it keeps on disk go to a folder of its own, removed when it
  // stops: never into the checkout's ./data, which `npm start` uses.
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'eln-test-data-'));
  const base = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.ELN_TEST_LOG_LEVEL ?? 'silent',
    ELN_ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
    ELN_CHECK_ANSWERS: '1',
    ...(options.serveClient ? {} : { CLIENT_DIST: '/nonexistent' }),
  });
  const config: ServerConfig = {
    ...base,
    throttle: { ...TEST_THROTTLE, ...options.throttle },
    trustedLicenceKeys: [PRODUCTION_LICENCE_KEY, TEST_LICENCE_KEY],
    ...(options.redis ? { redisUrl: options.redis.url, redisPrefix: options.redis.prefix } : {}),
    ...options.config,
  };
  const app = await buildApp(config, database, options);
  await bootstrap(database.db, config);
  let counter = 0;

  const server: TestServer = {
    ...app,
    database,
    config,
    admin: { userId: config.admin.email, password: TEST_ADMIN_PASSWORD },
    async call(target: CallSpec | string, body: unknown = {}, options: CallOptions = {}) {
      const path = typeof target === 'string' ? target : target.path;
      const response = await app.app.inject({
        method: 'POST',
        url: `/server${path}`,
        headers: {
          'content-type': 'application/json',
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
          ...(options.language ? { 'accept-language': options.language } : {}),
          ...options.headers,
        },
        payload: options.raw ?? JSON.stringify(body),
        remoteAddress: options.remoteAddress,
      });
      return { http: response.statusCode, body: response.json<ApiResponse<never>>(), headers: response.headers, cookies: response.cookies };
    },
    async createUser(fields = {}) {
      counter += 1;
      const user: NewUser = {
        userId: fields.userId ?? `user${counter}.${randomBytes(3).toString('hex')}@lab.test`,
        name: fields.name ?? `Researcher ${counter}`,
        password: fields.password ?? `password-of-user-${counter}`,
        phone: fields.phone ?? null,
        level: fields.level ?? 1,
        active: fields.active ?? true,
        auth: fields.auth ?? { project: 'Y', schema: 'N', dropbox: 'N', template: 'N' },
      };
      const [row] = await database.db
        .insert(users)
        .values({
          userId: user.userId,
          name: user.name,
          passwordHash: await hashPassword(user.password),
          phone: user.phone,
          level: user.level,
          active: user.active,
          ...fromAuthFlags(user.auth),
        })
        .returning();
      if (!row) throw new Error('user not created');
      return { ...user, userNo: row.userNo };
    },
    async signIn(userId, password) {
      const result = await server.call(api.auth.signIn, { userId, password });
      if (result.body.status !== '0000') throw new Error(`sign-in of ${userId} failed: ${JSON.stringify(result.body)}`);
      return result.body.data;
    },
    async person(fields = {}) {
      return server.signedIn(await server.createUser(fields));
    },
    async signedIn(user) {
      const { accessToken } = await server.signIn(user.userId, user.password);
      return { user, token: accessToken, call: server.callerWith(accessToken) };
    },
    async as(user) {
      const { accessToken } = await server.signIn(user.userId, user.password);
      return server.callerWith(accessToken);
    },
    callerWith(token) {
      return (target: CallSpec | string, body?: unknown, options?: Omit<CallOptions, 'token'>) =>
        server.call(target as string, body, { ...options, token });
    },
    async listen() {
      return app.app.listen({ port: 0, host: '127.0.0.1' });
    },
    async stop() {
      await app.close();
      await rm(dataDir, { recursive: true, force: true });
      if (reused) return;
      await database.close();
      await drop();
    },
  };
  return server;
}

/** A fresh test database on its own, for tests that start several servers on it (restarts). */
export async function createTestDatabase(): Promise<{ database: Database; dispose: () => Promise<void> }> {
  const { database, drop } = await openTestDatabase();
  return {
    database,
    async dispose() {
      await database.close();
      await drop();
    },
  };
}

/** testDatabaseTarget's database, opened and migrated (PGlite in memory from the migrated image: pgliteImage.ts). */
async function openTestDatabase(): Promise<{ database: Database; drop: () => Promise<void> }> {
  if (process.env.ELN_TEST_DB !== 'postgres') return { database: await openMigratedPglite(), drop: async () => undefined };
  const { target, drop } = await freshPostgresDatabase(postgresTestUrl(), await migratedPostgresTemplate(postgresTestUrl()));
  return { database: await openDatabase(target), drop };
}

function postgresTestUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('ELN_TEST_DB=postgres needs TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/eln_test)');
  return url;
}

/** The template's recipe: its key changes with it. */
const TEMPLATE_RECIPE = 'CREATE DATABASE, drizzle migrate (openDatabase), RENAME';

/**
 * The name of a database on the PostgreSQL server with every migration applied, made once and then copied
 * by each test file's server (CREATE DATABASE … TEMPLATE): migrating a new database took half a second a
 * file, copying the template a tenth. Its name hashes what it is made of (pgliteImage.ts's migratedKey),
 * so a changed migration makes a new one; test runs starting together make it once, under an advisory lock.
 */
async function migratedPostgresTemplate(url: string): Promise<string> {
  const key = await migratedKey(['drizzle-orm', 'postgres'], TEMPLATE_RECIPE);
  const name = `eln_template_${key}`;
  const { default: postgres } = await import('postgres');
  const admin = postgres(url, { max: 1, onnotice: () => undefined });
  try {
    await admin`select pg_advisory_lock(hashtext(${name}))`;
    const [found] = await admin`select 1 from pg_database where datname = ${name}`;
    if (!found) {
      const { target, drop } = await freshPostgresDatabase(url);
      try {
        await (await openDatabase(target)).close();
        await waitUntilUnused(admin, databaseNameOf(target));
        await admin.unsafe(`ALTER DATABASE ${databaseNameOf(target)} RENAME TO ${name}`);
      } catch (error) {
        await drop();
        throw error;
      }
    }
    await admin`select pg_advisory_unlock(hashtext(${name}))`;
  } finally {
    await admin.end();
  }
  return name;
}

const databaseNameOf = (target: Parameters<typeof openDatabase>[0]): string =>
  target.kind === 'postgres' ? new URL(target.url).pathname.slice(1) : '';

/**
 * Waits until no backend is connected to the database (a closed pool's backends end a moment after its
 * sockets do): PostgreSQL renames, copies and drops only a database nobody is connected to.
 */
async function waitUntilUnused(client: import('postgres').Sql, name: string): Promise<void> {
  for (let waited = 0; waited < 5000; waited += 50) {
    const [row] = await client<Array<{ n: number }>>`select count(*)::int as n from pg_stat_activity where datname = ${name}`;
    if (!row?.n) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * An empty database of the suite's engine, not yet migrated: on PostgreSQL a new database, on PGlite one
 * in memory (or in `pgliteDir`, for a test that opens it more than once).
 */
export async function testDatabaseTarget(
  pgliteDir: string | null = null,
): Promise<{ target: Parameters<typeof openDatabase>[0]; drop: () => Promise<void> }> {
  if (process.env.ELN_TEST_DB !== 'postgres') return { target: { kind: 'pglite', dataDir: pgliteDir }, drop: async () => undefined };
  return freshPostgresDatabase(postgresTestUrl());
}

/**
 * A new database on the PostgreSQL server of `url` (made through the database `url` names): empty, or a
 * copy of `template`; and the function that drops it.
 */
async function freshPostgresDatabase(
  url: string,
  template?: string,
): Promise<{ target: Parameters<typeof openDatabase>[0]; drop: () => Promise<void> }> {
  const { default: postgres } = await import('postgres');
  const name = `eln_t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const adminClient = postgres(url, { max: 1, onnotice: () => undefined });
  await adminClient.unsafe(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  await adminClient.end();
  const dbUrl = new URL(url);
  dbUrl.pathname = `/${name}`;
  return {
    target: { kind: 'postgres', url: dbUrl.toString() },
    async drop() {
      const client = postgres(url, { max: 1, onnotice: () => undefined });
      // Forcing the drop while a closed pool's backend is still starting up resets it under its first
      // query, which surfaces as a stray ECONNRESET in the test run.
      await waitUntilUnused(client, name);
      await client.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}
