import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { api, ERR } from '@eln/shared';
import { webhookDeliveries, webhookEndpoints } from '../db/schema.js';
import { startTestServer, type Caller, type TestServer } from '../testing/harness.js';

/*
 * SSRF: without WEBHOOKS_ALLOW_LOCAL, an endpoint must be https:// and every address its name resolves to
 * public, when registered or changed and again at each delivery (a name that later resolves to a private
 * address gets nothing). The resolver is the tests' own: names resolve to what each test says.
 */

const answers = new Map<string, string[]>([
  ['hooks.public.example', ['93.184.216.34']],
  ['internal.example', ['10.1.2.3']],
  ['mixed.example', ['93.184.216.34', '127.0.0.1']],
  ['metadata.example', ['169.254.169.254']],
  ['v6.example', ['fd00::1']],
  ['rebind.example', ['93.184.216.34']],
]);
const resolve = (host: string) => {
  const addresses = answers.get(host);
  if (!addresses) return Promise.reject(new Error(`ENOTFOUND ${host}`));
  return Promise.resolve(addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
};

let server: TestServer;
let admin: Caller;

beforeAll(async () => {
  server = await startTestServer({ webhooks: { resolve, pollMs: 3_600_000, timeoutMs: 500 } });
  admin = await server.as(server.admin);
});

afterAll(async () => {
  await server?.stop();
});

const endpoints = () => server.database.db.select().from(webhookEndpoints);
const create = (url: string) => admin(api.webhooks.create, { url, events: ['user.deactivated'] });

describe('where a webhook may be sent', () => {
  it('refuses private, loopback, link-local and unresolvable addresses and plain http, storing nothing', async () => {
    const refused: Array<[string, string]> = [
      ['https://internal.example/hook', ERR.webhookUrlPrivate],
      ['https://mixed.example/hook', ERR.webhookUrlPrivate],
      ['https://metadata.example/latest', ERR.webhookUrlPrivate],
      ['https://v6.example/hook', ERR.webhookUrlPrivate],
      ['https://127.0.0.1/hook', ERR.webhookUrlPrivate],
      ['https://[::1]/hook', ERR.webhookUrlPrivate],
      ['https://[::ffff:10.0.0.1]/hook', ERR.webhookUrlPrivate],
      ['https://169.254.169.254/hook', ERR.webhookUrlPrivate],
      ['https://0.0.0.0/hook', ERR.webhookUrlPrivate],
      ['http://127.0.0.1:9/hook', ERR.webhookUrlPrivate],
      ['https://nowhere.example/hook', ERR.webhookUrlUnresolvable],
      ['http://hooks.public.example/hook', ERR.webhookUrlInvalid],
      ['not a url', ERR.webhookUrlInvalid],
    ];
    for (const [url, code] of refused) expect([url, (await create(url)).body.status]).toEqual([url, code]);
    expect(await endpoints()).toHaveLength(0);
    const answer = await create('https://internal.example/hook');
    expect(answer.body.message).toContain('internal.example');
  });

  it('takes a public https endpoint, refuses changing it to a private one, and checks again at delivery', async () => {
    const created = await create('https://rebind.example/hook');
    expect(created.body.status).toBe('0000');
    const { endpointId } = created.body.data.endpoint;
    expect((await admin(api.webhooks.update, { endpointId, url: 'https://internal.example/hook' })).body.status).toBe(
      ERR.webhookUrlPrivate,
    );
    expect((await endpoints())[0]!.url).toBe('https://rebind.example/hook');
    // The name now resolves to a loopback address: the delivery is refused before connecting.
    answers.set('rebind.example', ['127.0.0.1']);
    const someone = await server.createUser({ name: 'Leaving Lim' });
    expect((await admin(api.users.update, { userNo: someone.userNo, active: false })).body.status).toBe('0000');
    await server.services.webhooks.flush();
    const [delivery] = await server.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId));
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1, lastStatus: null });
    expect(delivery!.lastError).toContain(ERR.webhookUrlPrivate);
  });
});
