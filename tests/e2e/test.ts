import { test as base } from '@playwright/test';
import { e2eUrl } from './fixtures.js';

/**
 * Playwright's `test`, pointed at this worker's own server: pages, request contexts and contexts made with
 * `browser.newContext()` inside a test resolve relative addresses against it.
 */
export const test = base.extend({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern.
  baseURL: async ({}, use, testInfo) => use(e2eUrl(testInfo.parallelIndex)),
});

export { expect } from '@playwright/test';
