import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { allCalls, api } from './routeTable.js';

/** The top-level fields of a call's request, through refinements and pipes. */
function requestFields(schema: z.ZodType): string[] {
  if (schema instanceof z.ZodObject) return Object.keys(schema.shape);
  if (schema instanceof z.ZodPipe) return requestFields(schema.in as z.ZodType);
  return [];
}

describe('calls a personal access token may not make', () => {
  it('include every signed-in call that takes or sets a password', () => {
    const withPassword = allCalls().filter((spec) => spec.auth !== 'public' && requestFields(spec.request).includes('password'));
    expect(withPassword.map((spec) => spec.path)).toEqual(
      expect.arrayContaining([api.signatures.respond.path, api.templates.approve.path, api.users.create.path, api.users.update.path]),
    );
    expect(withPassword.filter((spec) => !spec.sessionOnly).map((spec) => spec.path)).toEqual(
      // A time-stamping authority's password is the authority's, not the person's.
      [api.timestamps.create.path, api.timestamps.update.path, api.timestamps.probe.path],
    );
  });

  it('include signing out, the live notification stream, removing a signature and every token call', () => {
    const sessionOnly = allCalls()
      .filter((spec) => spec.sessionOnly)
      .map((spec) => spec.path);
    expect(sessionOnly).toEqual(
      expect.arrayContaining([
        api.auth.signOut.path,
        api.notifications.stream.path,
        api.signatures.remove.path,
        ...Object.values(api.tokens).map((spec) => spec.path),
      ]),
    );
    expect(allCalls().filter((spec) => spec.sessionOnly && spec.auth === 'public')).toEqual([]);
  });
});
