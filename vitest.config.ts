import { availableParallelism } from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { testServices } from './tests/setup/prerequisites.js';

/**
 * Unit tests run once. API tests (`*.api.test.ts`, real server on a real database) run on embedded
 * PGlite and on PostgreSQL (TEST_DATABASE_URL, by default the local server's eln_test). Before any test,
 * tests/setup/prerequisites.ts brings the Debian packages the suites use; before the PostgreSQL project's,
 * tests/setup/postgres.ts checks its server answers and creates the database.
 */
const { postgresUrl, redisUrl, notices } = testServices(process.env);
const apiTests = ['server/src/**/*.api.test.ts', 'tests/realtime/**/*.test.ts'];
/** Tests that need a Redis server (TEST_REDIS_URL, by default the local one): they fail saying so when it does not answer. */
const redisTests = ['server/src/**/*.redis.api.test.ts', 'tests/realtime/**/*.redis.test.ts'];
/** Several real server processes share one database: PostgreSQL only. */
const multiProcessTests = ['tests/realtime/**/*.redis.test.ts', 'tests/realtime/**/*.postgres.test.ts'];
/** What only a database server has (connections that can be lost): on PostgreSQL only, never on PGlite. */
const postgresOnlyTests = ['server/src/**/*.postgres.api.test.ts'];

// Only TEST_DATABASE_URL=none or TEST_REDIS_URL=none leaves tests out, and it is said.
for (const notice of notices) console.warn(notice);
const apiExclude = redisUrl ? [] : redisTests;
const pgliteExclude = [...apiExclude, ...multiProcessTests, ...postgresOnlyTests];
const redisEnv = redisUrl ? { TEST_REDIS_URL: redisUrl } : {};

/**
 * Timeouts catch hangs, not slowness: a test that prints through Chromium or Ghostscript took 12 s with two
 * files at a time on a 2-core machine, and these machines differ by two to three times in speed. Tests
 * that take minutes by design (restarts, crashes, fuzzing) set their own.
 */
const TEST_TIMEOUT_MS = 60_000;
const HOOK_TIMEOUT_MS = 60_000;

/**
 * Tests that run the real server as processes and kill and restart them (durability: 10 SIGKILLs, 30 in test:long; two
 * processes through Redis) take minutes by design, several times the longest of the rest.
 */
const processTests = /^tests\/realtime\//;

/**
 * Vitest's order (files that failed or took longest last time first, else the largest first), with the
 * process tests of every project ahead of everything else. Vitest otherwise queues project after project,
 * and on a clean checkout (no record of earlier runs) the PostgreSQL durability test would start only when
 * the PGlite files are done, about three quarters of the way through, and run for minutes alone at the end.
 * (A sequencer of one's own replaces vitest's: --sequence.shuffle no longer shuffles.)
 */
class ProcessTestsFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const first = (spec: TestSpecification) =>
      processTests.test(
        path
          .relative(import.meta.dirname, spec.moduleId)
          .split(path.sep)
          .join('/'),
      );
    return [...sorted.filter(first), ...sorted.filter((spec) => !first(spec))];
  }
}

/*
 * `isolate: false`: a worker runs its project's files one after another in one module graph instead of
 * loading the server's modules again for every file (module loading was a fifth of the suite's time).
 * Every test file starts its own server on its own database, so nothing a file needs lives in module
 * state. Each project keeps workers of its own, so a file still runs with its project's environment.
 */
export default defineConfig({
  test: {
    testTimeout: TEST_TIMEOUT_MS,
    hookTimeout: HOOK_TIMEOUT_MS,
    // Two files at a time at least (vitest's own default is one fewer than the cores: one on two cores).
    // Many API files mostly wait, on server processes they restart, databases and timers: on a 2-core
    // machine the suite takes about three quarters of the time with two as with one (and the slowest test
    // on the default timeout about 12 s with two, a fifth of TEST_TIMEOUT_MS).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    sequence: { sequencer: ProcessTestsFirst },
    globalSetup: ['tests/setup/prerequisites.ts'],
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'shared/src/**/*.test.ts',
            'server/src/**/*.test.ts',
            'client/src/**/*.test.ts',
            'api-client/src/**/*.test.ts',
            'tests/*.test.ts',
          ],
          exclude: ['**/*.api.test.ts', '**/node_modules/**'],
          environment: 'node',
          // A project's own settings replace the root's: without these, unit tests that print through
          // Chromium ran into vitest's 5 s default beside the API suite.
          testTimeout: TEST_TIMEOUT_MS,
          hookTimeout: HOOK_TIMEOUT_MS,
          isolate: false,
        },
      },
      {
        test: {
          name: 'api:pglite',
          include: apiTests,
          exclude: pgliteExclude,
          env: { ELN_TEST_DB: 'pglite', ...redisEnv },
          testTimeout: TEST_TIMEOUT_MS,
          hookTimeout: HOOK_TIMEOUT_MS,
          isolate: false,
        },
      },
      ...(postgresUrl
        ? [
            {
              test: {
                name: 'api:postgres',
                include: apiTests,
                exclude: apiExclude,
                globalSetup: ['tests/setup/postgres.ts'],
                env: { ELN_TEST_DB: 'postgres', TEST_DATABASE_URL: postgresUrl, ...redisEnv },
                testTimeout: TEST_TIMEOUT_MS,
                hookTimeout: HOOK_TIMEOUT_MS,
                isolate: false,
              },
            },
          ]
        : []),
    ],
  },
});
