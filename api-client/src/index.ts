import createClient from 'openapi-fetch';
import type { paths } from './schema.js';

export type { components, paths } from './schema.js';

/**
 * A typed client of the notebook's API for scripts: every call is `client.POST('/server/v1/...', { body })`,
 * its path, body and answer typed from the OpenAPI document. A success is `{ data: { status: '0000',
 * message, data } }`; a refusal is `{ error: { status, message, data } }` with the HTTP status in `response`.
 */
export function createElnClient(baseUrl: string, token: string) {
  return createClient<paths>({ baseUrl, headers: { authorization: `Bearer ${token}` } });
}
