import { defineConfig } from '@playwright/test';
import { E2E, E2E_WORKERS, e2eUrl, hangTimeout } from './fixtures.js';

/**
 * Browser tests in Debian's chromium against the built app (npm run test:e2e builds it first). Two workers,
 * each with a server and database of its own (tests/e2e/test.ts points each test at its worker's server);
 * the files of one worker run one after another.
 */
export default defineConfig({
  testDir: '.',
  testMatch: '**/*.e2e.ts',
  outputDir: '../../test-results',
  // Test timeouts catch hangs, not slowness: beside the API suite on a shared 2-core machine, long tests
  // take twice their quiet time, and the longest have their own, larger timeouts; all
  // are stretched by hangTimeout's margin for the slower machines of this kind.
  timeout: hangTimeout(120_000),
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: E2E_WORKERS,
  // One retry: a rare stall seen only under CI load (a participant search that was never answered, in
  // people-projects; see issue 15's notes) would otherwise sink a whole run. The list reporter still names
  // every test that needed it as "flaky", and each such stall stays a defect to find.
  retries: 1,
  reporter: [['list']],
  use: {
    reducedMotion: 'reduce',
    // Playwright's default is none: an action waiting for an element that never becomes clickable, or a
    // wait for a download that never comes, would run into the test's timeout (minutes for the longest
    // tests) and the report would name no step. A minute (stretched) is far above any action's time here,
    // so such a hang fails at the step that waited.
    actionTimeout: hangTimeout(60_000),
    navigationTimeout: hangTimeout(60_000),
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-dev-shm-usage'],
    },
    // Recorded on a retry only: recording every test (DOM snapshots and a screencast of each step) cost
    // CPU time the suite, CPU-bound on two cores, does not have (shell.e2e.ts alone: 34 s of CPU with it,
    // 28 s without). A first failure keeps its screenshot; its retry records a trace (kept whether it passes or not).
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
  },
  webServer: Array.from({ length: E2E_WORKERS }, (_, index) => ({
    command: 'node --import tsx tests/e2e/serve.ts',
    cwd: '../..',
    url: `${e2eUrl(index)}/healthz`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'pipe' as const,
    env: { PORT: String(E2E.basePort + index) },
  })),
});
