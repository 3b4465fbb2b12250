import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_LEVEL, api, NOTIFICATION_LIMITS } from '@eln/shared';
import { startTestServer, type Caller, type TestServer } from '../testing/harness.js';
import { companyDirectory, personDn, startTestDirectory, type TestDirectory } from '../testing/ldap.js';

/**
 * A directory synchronisation that deactivated people tells every active administrator, with how many,
 * against a real OpenLDAP (slapd on loopback) and a real database; members never see it.
 */
const seed = companyDirectory(4);

let directory: TestDirectory;
let server: TestServer;
let admin: Caller;
let secondAdmin: Caller;
let member: Caller;
let demoted: { caller: Caller; userNo: number };

beforeAll(async () => {
  directory = await startTestDirectory(seed);
  server = await startTestServer({ config: { directory: directory.config() } });
  admin = await server.as(server.admin);
  secondAdmin = await server.as(await server.createUser({ name: 'Second Admin', level: ADMIN_LEVEL }));
  member = await server.as(await server.createUser({ name: 'Plain Member' }));
  const formerAdmin = await server.createUser({ name: 'Former Admin', level: ADMIN_LEVEL });
  demoted = { caller: await server.as(formerAdmin), userNo: formerAdmin.userNo };
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await directory?.dispose();
});

const deactivations = async (caller: Caller) =>
  (await caller(api.notifications.list, { page: 1, pageSize: NOTIFICATION_LIMITS.pageSize })).body.data.list.filter(
    (item) => item.event === 'usersDeactivated',
  );

describe('directory synchronisation that deactivated people', () => {
  it('tells every active administrator how many, the one who started it too; a first run deactivating nobody tells nobody', async () => {
    expect((await admin(api.departments.sync)).body.data.run.counts?.users.created).toBe(4);
    expect(await deactivations(admin)).toEqual([]);

    const leavers = seed.people.slice(0, 2);
    for (const leaver of leavers) await directory.modify(`dn: ${personDn(leaver.uid)}\nchangetype: delete\n`);
    expect((await admin(api.departments.sync)).body.data.run.counts?.users.deactivated).toBe(2);

    for (const caller of [admin, secondAdmin, demoted.caller]) {
      expect(await deactivations(caller)).toMatchObject([{ count: 2, actorName: null, link: '/admin', read: false }]);
    }
    expect(await deactivations(member)).toEqual([]);
  });

  it('is no longer shown to someone who is no longer an administrator', async () => {
    expect((await admin(api.users.update, { userNo: demoted.userNo, level: 1 })).body.status).toBe('0000');
    expect(await deactivations(demoted.caller)).toEqual([]);
  });
});
