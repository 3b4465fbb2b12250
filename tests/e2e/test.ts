import { test as base } from '@playwright/test';
import { E2E_WORKERS, e2eUrl } from './fixtures.js';

/**
 * Playwright's `test`, pointed at this worker's own server: pages, request contexts and contexts made with
 * `browser.newContext()` inside a test resolve relative addresses against it.
 */
export const test = base.extend({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern.
  baseURL: async ({}, use, testInfo) => {
    if (testInfo.parallelIndex >= E2E_WORKERS)
      throw new Error(`only ${E2E_WORKERS} browser-test servers run (tests/e2e/fixtures.ts): run with --workers ${E2E_WORKERS} or fewer`);
    await use(e2eUrl(testInfo.parallelIndex));
  },
});

export { expect } from '@playwright/test';
