/**
 * Who and where the browser tests sign in. Each Playwright worker has a server and database of its own,
 * so that two files running at once never see each other's data: worker i (its `parallelIndex`, stable
 * across worker restarts) talks to the server on `basePort + i`.
 */
export const E2E_WORKERS = Number(process.env.E2E_WORKERS ?? 2);

/**
 * Test timeouts catch hangs, not slowness: each is written as its test's time allowed on a quiet 2-core
 * machine, and every one is stretched by this margin. On a slower machine of this kind, beside the API
 * suite, the longest tests take four to six minutes, about twice their usual time: unstretched timeouts
 * would fail runs with nothing broken.
 */
const TIMEOUT_MARGIN = 2;
export const hangTimeout = (ms: number): number => ms * TIMEOUT_MARGIN;

export const E2E = {
  basePort: Number(process.env.E2E_PORT ?? 8181),
  admin: { userId: 'admin@eln.local', password: 'e2e-admin-password', name: 'Admin Park' },
  member: { userId: 'researcher@eln.local', password: 'e2e-member-password', name: 'Kim Jiwoo' },
} as const;

/** The address of the server of the worker with this parallel index. */
export const e2eUrl = (parallelIndex: number): string => `http://127.0.0.1:${E2E.basePort + parallelIndex}`;
