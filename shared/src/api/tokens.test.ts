import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { allCalls } from './routeTable.js';

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
      expect.arrayContaining(['/v1/project/signature/status', '/v1/template/approve', '/v1/admin/user/create', '/v1/admin/user/update']),
    );
    expect(withPassword.filter((spec) => !spec.sessionOnly).map((spec) => spec.path)).toEqual(
      // A time-stamping authority's password is the authority's, not the person's.
      ['/v1/admin/timestamp/create', '/v1/admin/timestamp/update', '/v1/admin/timestamp/probe'],
    );
  });

  it('include signing out, the live notification stream, removing a signature and every token call', () => {
    const sessionOnly = allCalls()
      .filter((spec) => spec.sessionOnly)
      .map((spec) => spec.path);
    expect(sessionOnly).toEqual(
      expect.arrayContaining([
        '/v1/user/signOut',
        '/v1/notification/stream',
        '/v1/project/signature/remove',
        '/v1/token/list',
        '/v1/token/create',
        '/v1/token/revoke',
      ]),
    );
    expect(allCalls().filter((spec) => spec.sessionOnly && spec.auth === 'public')).toEqual([]);
  });
});
