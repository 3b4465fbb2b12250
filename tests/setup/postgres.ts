/**
 * The api:postgres project's global setup: the PostgreSQL server the tests use must answer, and the
 * database its URL names (eln_test by default; each test file creates and drops its own beside it) is
 * created when missing.
 */
import postgres from 'postgres';
import { testServices, WITHOUT } from './prerequisites.js';

/** What the setup asks of the server. */
export interface PostgresServer {
  databaseExists(name: string): Promise<boolean>;
  createDatabase(name: string): Promise<void>;
  end(): Promise<void>;
}

/** PostgreSQL's code for "database already exists" (another test run created it a moment before). */
const DUPLICATE_DATABASE = '42P04';

async function connect(url: string): Promise<PostgresServer> {
  const sql = postgres(url, { max: 1, connect_timeout: 5, onnotice: () => undefined });
  try {
    await sql`select 1`;
  } catch (error) {
    await sql.end({ timeout: 1 });
    throw error;
  }
  return {
    async databaseExists(name) {
      return (await sql`select 1 from pg_database where datname = ${name}`).length > 0;
    },
    async createDatabase(name) {
      try {
        await sql.unsafe(`create database "${name.replaceAll('"', '""')}"`);
      } catch (error) {
        if ((error as { code?: string }).code !== DUPLICATE_DATABASE) throw error;
      }
    },
    end: () => sql.end({ timeout: 5 }),
  };
}

/** The URL as it may be printed: without its password. */
function shown(url: URL): string {
  const copy = new URL(url);
  if (copy.password) copy.password = '***';
  return copy.toString();
}

/**
 * Makes sure the server at `url` answers and holds the database the URL names, creating it if missing
 * (through the server's `postgres` database). Throws saying what is missing and how to go on.
 */
export async function preparePostgres(url: string, open: (url: string) => Promise<PostgresServer> = connect): Promise<void> {
  const target = new URL(url);
  const database = decodeURIComponent(target.pathname.slice(1));
  const maintenance = new URL(target);
  maintenance.pathname = '/postgres';
  let server: PostgresServer;
  try {
    server = await open(maintenance.toString());
  } catch (error) {
    throw new Error(
      `PostgreSQL does not answer at ${shown(maintenance)} (${(error as Error).message}). The PostgreSQL tests need it: ` +
        `start it, name another server with TEST_DATABASE_URL, or set TEST_DATABASE_URL=${WITHOUT} to run without them.`,
    );
  }
  try {
    if (database && !(await server.databaseExists(database))) {
      await server.createDatabase(database);
      console.log(`Created the test database ${database} on ${shown(maintenance)}`);
    }
  } finally {
    await server.end();
  }
}

export async function setup(): Promise<void> {
  const { postgresUrl } = testServices(process.env);
  if (postgresUrl) await preparePostgres(postgresUrl);
}
