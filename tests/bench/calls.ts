import type { CallAnswer, CallInput, CallSpec } from '@eln/shared';
import type { App } from '../../server/src/app.js';

/*
 * Calls of the route table as the benches' set-up makes them: through the app in this process (no
 * socket), or over HTTP to a server elsewhere. Each answers `data`, or throws on any answer but success.
 */

/** A call through the app's router in this process (Fastify's inject). */
export async function injectCall<C extends CallSpec>(app: App, spec: C, body: CallInput<C>, token?: string): Promise<CallAnswer<C>> {
  const response = await app.app.inject({
    method: 'POST',
    url: `/server${spec.path}`,
    payload: body as object,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  const answer = response.json<{ status: string; data: CallAnswer<C> }>();
  if (answer.status !== '0000') throw new Error(`${spec.path}: ${response.body}`);
  return answer.data;
}

/** A call over HTTP to the server at `httpUrl`, as a client makes it. */
export async function callOver<C extends CallSpec>(httpUrl: string, spec: C, body: CallInput<C>, token?: string): Promise<CallAnswer<C>> {
  const response = await fetch(`${httpUrl}/server${spec.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as { status: string; data: CallAnswer<C> };
  if (answer.status !== '0000') throw new Error(`${spec.path}: ${JSON.stringify(answer)}`);
  return answer.data;
}
