import type { Session } from '../session/model';

/**
 * The living style guide (/publishing/*) renders the real screens from fixed sample data: while the
 * page is under PUBLISHING_PATH and the guide has installed its samples, API calls answer from them
 * (nothing reaches the server) and the session is the guide's sample user, which nothing may store.
 * Deciding by the address, not by a mounted component, means a link out of the guide is a real
 * screen again from its first render.
 */
export const PUBLISHING_PATH = '/publishing';

export interface StyleGuideSamples {
  session: Session;
  /** The sample answer of a call; throws for a call the guide has no sample of. */
  answer(path: string, body: unknown): unknown;
}

let installed: StyleGuideSamples | null = null;

export function installStyleGuideSamples(samples: StyleGuideSamples): void {
  installed = samples;
}

/** The samples, while the page is in the style guide. */
export function styleGuideSamples(): StyleGuideSamples | null {
  if (!installed || typeof window === 'undefined') return null;
  const { pathname } = window.location;
  return pathname === PUBLISHING_PATH || pathname.startsWith(`${PUBLISHING_PATH}/`) ? installed : null;
}
