import { z } from 'zod';
import { defineCall } from './call.js';
import { emptyRequest } from './identity.js';

/** Public facts the client needs before sign-in. */
export const systemInfo = z.strictObject({
  mainHosts: z.array(z.string()),
  mainCompanyCode: z.string(),
  otherCompanyCode: z.string(),
});
export type SystemInfo = z.infer<typeof systemInfo>;

/** The system (server/src/system). */
export const systemCalls = {
  info: defineCall({
    path: '/v1/system/info',
    auth: 'public',
    kind: 'query',
    summary: 'Public facts the client needs before sign-in: the main hosts and the company codes for department look-ups.',
    request: emptyRequest,
    answer: systemInfo,
    errors: [],
  }),
} as const;
