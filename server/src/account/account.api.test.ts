import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, desc, eq } from 'drizzle-orm';
import { api, DEFAULT_DIGEST, DEFAULT_NOTIFICATION_CHOICES, ERR, NOTIFICATION_EVENTS, type ValidationErrorData } from '@eln/shared';
import { auditLog, notifications, userSettings } from '../db/schema.js';
import { notify } from '../notifications/notify.js';
import { startTestServer, type Caller, type TestServer } from '../testing/harness.js';

let server: TestServer;
let admin: Caller;

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.as(server.admin);
  await admin(api.departments.create, { code: 'ACC', name: 'Analytical Chemistry' });
});
afterAll(async () => {
  await server?.stop();
});

/** A new person (in a department when asked), signed in. */
async function newPerson(departmentCode?: string) {
  if (departmentCode) {
    const userId = `acc.${Math.random().toString(36).slice(2, 8)}@lab.test`;
    const created = await admin(api.users.create, {
      userId,
      name: 'Han Seo-yeon',
      password: 'a good long password',
      departmentCode,
      level: 1,
      auth: { project: 'Y', schema: 'N', dropbox: 'N', template: 'N' },
    });
    expect(created.body.status).toBe('0000');
    const password = 'a good long password';
    return { userNo: created.body.data.userNo, userId, password, call: await server.as({ userId, password }) };
  }
  const user = await server.createUser();
  return { userNo: user.userNo, userId: user.userId, password: user.password, call: await server.as(user) };
}

const auditCount = async () => Number((await server.database.db.select({ n: count() }).from(auditLog))[0]?.n);
const lastAudit = async () => (await server.database.db.select().from(auditLog).orderBy(desc(auditLog.seq)).limit(1))[0];
/** A refusal's fields, each as field and reason. */
const reasons = (data: ValidationErrorData) => data.fields.map(({ field, reason }) => ({ field, reason }));
const storedRow = async (userNo: number) =>
  (await server.database.db.select().from(userSettings).where(eq(userSettings.userNo, userNo)))[0];

describe('my account: reading my settings', () => {
  it('gives a new person the defaults: nothing chosen for display, every event’s default choice, the digest off at 08:00', async () => {
    const person = await newPerson('ACC');
    const answer = await person.call(api.account.settings, {});
    expect(answer.http).toBe(200);
    expect(answer.body.data).toEqual({
      profile: { userId: person.userId, name: 'Han Seo-yeon', departmentName: 'Analytical Chemistry' },
      language: null,
      theme: null,
      timeZone: null,
      notifications: DEFAULT_NOTIFICATION_CHOICES,
      // Neither an administrator nor a leader: never told of directory runs or of a webhook turned off.
      events: NOTIFICATION_EVENTS.filter((event) => event !== 'usersDeactivated' && event !== 'webhookDisabled'),
      digest: DEFAULT_DIGEST,
      // Without a zone of their own, the digest's time is read in the server's.
      digestTimeZone: server.config.timeZone,
    });
    // Reading stores nothing.
    expect(await storedRow(person.userNo)).toBeUndefined();
  });

  it('offers the events each person can be sent: directory runs to administrators, a webhook turned off to administrators and leaders', async () => {
    const eventsOf = async (call: Caller) => (await call(api.account.settings, {})).body.data.events;
    expect(await eventsOf(admin)).toEqual([...NOTIFICATION_EVENTS]);
    const leader = await newPerson('ACC');
    const before = await eventsOf(leader.call);
    expect(before).not.toContain('webhookDisabled');
    const created = await leader.call(api.projects.create, { title: 'Led', signatureList: { department: '', user: leader.userId } });
    expect(created.body.status).toBe('0000');
    expect(await eventsOf(leader.call)).toEqual([...before, 'webhookDisabled']);
    expect(await eventsOf(leader.call)).not.toContain('usersDeactivated');
  });

  it('says no department when the person has none', async () => {
    const person = await newPerson();
    expect((await person.call(api.account.settings, {})).body.data.profile.departmentName).toBeNull();
  });

  it('refuses a caller without a session, and a body with fields', async () => {
    const anonymous = await server.call(api.account.settings, {});
    expect(anonymous.http).toBe(401);
    expect(anonymous.body.status).toBe(ERR.sessionEnded);
    const refused = await (await newPerson()).call<ValidationErrorData>(api.account.settings.path, { userNo: 1 });
    expect(refused.http).toBe(400);
    expect(reasons(refused.body.data)).toEqual([{ field: 'userNo', reason: 'unknownField' }]);
  });
});

describe('my account: changing my settings', () => {
  it('changes only the fields sent, and answers every setting as it now is', async () => {
    const person = await newPerson();
    const language = await person.call(api.account.updateSettings, { language: 'ko' });
    expect(language.body.status).toBe('0000');
    expect(language.body.data).toMatchObject({ language: 'ko', theme: null, timeZone: null, digest: DEFAULT_DIGEST });
    expect(language.body.data.notifications).toEqual(DEFAULT_NOTIFICATION_CHOICES);

    await person.call(api.account.updateSettings, { theme: 'b' });
    await person.call(api.account.updateSettings, { timeZone: 'America/New_York' });
    const choice = await person.call(api.account.updateSettings, { notifications: { noteSigned: { app: false, email: true } } });
    expect(choice.body.data.notifications).toEqual({ ...DEFAULT_NOTIFICATION_CHOICES, noteSigned: { app: false, email: true } });
    await person.call(api.account.updateSettings, { digest: { enabled: true } });
    const time = await person.call(api.account.updateSettings, { digest: { time: '21:30' } });
    expect(time.body.data).toMatchObject({
      language: 'ko',
      theme: 'b',
      timeZone: 'America/New_York',
      digest: { enabled: true, time: '21:30' },
    });

    // What is read back is what the last change answered.
    expect((await person.call(api.account.settings, {})).body.data).toEqual(time.body.data);
    // Only the event the person set is kept: the others follow the defaults.
    expect((await storedRow(person.userNo))?.notificationChoices).toEqual({ noteSigned: { app: false, email: true } });

    // Several at once, and null gives a display choice back to the browser.
    const cleared = await person.call(api.account.updateSettings, {
      language: null,
      timeZone: null,
      notifications: { signatureRequested: { app: true, email: false }, noteSigned: { app: true, email: false } },
    });
    expect(cleared.body.data).toMatchObject({
      language: null,
      theme: 'b',
      timeZone: null,
      digest: { enabled: true, time: '21:30' },
      digestTimeZone: server.config.timeZone,
    });
    expect(cleared.body.data.notifications).toEqual({
      ...DEFAULT_NOTIFICATION_CHOICES,
      signatureRequested: { app: true, email: false },
      noteSigned: { app: true, email: false },
    });
  });

  it('keeps two changes made at once on two devices, neither lost', async () => {
    const person = await newPerson();
    const laptop = person.call;
    const phone = await server.as(person);
    await Promise.all([
      laptop(api.account.updateSettings, { notifications: { projectClosed: { app: false, email: false } } }),
      phone(api.account.updateSettings, { notifications: { exportFailed: { app: true, email: false } } }),
      phone(api.account.updateSettings, { theme: 's' }),
    ]);
    const settings = (await person.call(api.account.settings, {})).body.data;
    expect(settings.notifications.projectClosed).toEqual({ app: false, email: false });
    expect(settings.notifications.exportFailed).toEqual({ app: true, email: false });
    expect(settings.theme).toBe('s');
  });

  it('audits a change with the settings before and after, and a change that changes nothing not at all', async () => {
    const person = await newPerson();
    await person.call(api.account.updateSettings, { theme: 'b', notifications: { mentioned: { app: true, email: false } } });
    const record = await lastAudit();
    expect(record).toMatchObject({
      action: 'account.settingsUpdated',
      actorUserNo: person.userNo,
      actorUserId: person.userId,
      targetType: 'user',
      targetId: person.userId,
    });
    expect(record?.before).toEqual({
      language: null,
      theme: null,
      timeZone: null,
      notifications: DEFAULT_NOTIFICATION_CHOICES,
      digest: DEFAULT_DIGEST,
    });
    expect(record?.after).toEqual({
      language: null,
      theme: 'b',
      timeZone: null,
      notifications: { ...DEFAULT_NOTIFICATION_CHOICES, mentioned: { app: true, email: false } },
      digest: DEFAULT_DIGEST,
    });

    const before = await auditCount();
    const same = await person.call(api.account.updateSettings, { theme: 'b', notifications: { mentioned: { app: true, email: false } } });
    expect(same.body.status).toBe('0000');
    expect(await person.call(api.account.updateSettings, {})).toMatchObject({ http: 200 });
    expect(await auditCount()).toBe(before);

    // The administrator reads it in the audit trail like any other record.
    const listed = await admin(api.audit.list, { action: 'account.settingsUpdated', targetId: person.userId });
    expect(listed.body.status).toBe('0000');
    expect(listed.body.data.list.map((r) => r.action)).toEqual(['account.settingsUpdated']);
  });

  it('leaves everyone else’s settings as they were', async () => {
    const [one, two] = [await newPerson(), await newPerson()];
    await two.call(api.account.updateSettings, { language: 'ja', digest: { enabled: true, time: '07:15' } });
    await one.call(api.account.updateSettings, {
      language: 'ko',
      theme: 'b',
      timeZone: 'Asia/Seoul',
      notifications: { templateReturned: { app: false, email: false } },
      digest: { enabled: false, time: '18:00' },
    });
    const other = (await two.call(api.account.settings, {})).body.data;
    expect(other).toMatchObject({ language: 'ja', theme: null, timeZone: null, digest: { enabled: true, time: '07:15' } });
    expect(other.notifications).toEqual(DEFAULT_NOTIFICATION_CHOICES);
    // The request cannot name someone else.
    const aimed = await one.call<ValidationErrorData>(api.account.updateSettings.path, { userNo: two.userNo, language: 'en' });
    expect(aimed.http).toBe(400);
    expect(reasons(aimed.body.data)).toEqual([{ field: 'userNo', reason: 'unknownField' }]);
    expect((await two.call(api.account.settings, {})).body.data.language).toBe('ja');
  });

  it('is what notifications follow: an event turned off in the app and by email makes no notification', async () => {
    const [signer, writer] = [await newPerson(), await newPerson()];
    await signer.call(api.account.updateSettings, { notifications: { noteSigned: { app: false, email: false } } });
    const made = await server.database.db.transaction((tx) =>
      notify(tx, { event: 'noteSigned', recipients: [signer.userNo, writer.userNo], actorUserNo: null }),
    );
    expect(made.map((n) => n.userNo)).toEqual([writer.userNo]);
    const mine = await server.database.db.select().from(notifications).where(eq(notifications.userNo, signer.userNo));
    expect(mine).toEqual([]);
  });
});

describe('my account: refusals', () => {
  let person: Awaited<ReturnType<typeof newPerson>>;
  beforeAll(async () => {
    person = await newPerson();
    await person.call(api.account.updateSettings, { language: 'en', timeZone: 'Europe/Paris', digest: { enabled: true, time: '09:00' } });
  });

  const refusals: Array<[string, unknown, Array<{ field: string; reason: string }>]> = [
    [
      'an unknown event',
      { notifications: { coffeeReady: { app: true, email: true } } },
      [{ field: 'notifications.coffeeReady', reason: 'unknownField' }],
    ],
    [
      'a choice without its email half',
      { notifications: { noteSigned: { app: true } } },
      [{ field: 'notifications.noteSigned.email', reason: 'required' }],
    ],
    [
      'a choice that is not a yes or no',
      { notifications: { noteSigned: { app: 'yes', email: false } } },
      [{ field: 'notifications.noteSigned.app', reason: 'invalidType' }],
    ],
    ['a zone that does not exist', { timeZone: 'Mars/Olympus' }, [{ field: 'timeZone', reason: 'invalidValue' }]],
    ['an offset instead of a zone', { timeZone: '+09:00' }, [{ field: 'timeZone', reason: 'invalidValue' }]],
    ['an empty zone', { timeZone: '' }, [{ field: 'timeZone', reason: 'invalidValue' }]],
    ['an hour past 23', { digest: { time: '24:00' } }, [{ field: 'digest.time', reason: 'invalidValue' }]],
    ['minutes past 59', { digest: { time: '07:60' } }, [{ field: 'digest.time', reason: 'invalidValue' }]],
    ['a time without its leading zero', { digest: { time: '7:30' } }, [{ field: 'digest.time', reason: 'invalidValue' }]],
    ['a time with seconds', { digest: { time: '07:30:00' } }, [{ field: 'digest.time', reason: 'invalidValue' }]],
    ['an unknown digest field', { digest: { weekly: true } }, [{ field: 'digest.weekly', reason: 'unknownField' }]],
    ['a language the notebook does not speak', { language: 'fr' }, [{ field: 'language', reason: 'invalidValue' }]],
    ['a theme that does not exist', { theme: 'dark' }, [{ field: 'theme', reason: 'invalidValue' }]],
    ['an unknown field', { fontSize: 18 }, [{ field: 'fontSize', reason: 'unknownField' }]],
  ];

  for (const [what, body, fields] of refusals) {
    it(`refuses ${what} with 9001, changing and recording nothing`, async () => {
      const before = await auditCount();
      const stored = await storedRow(person.userNo);
      const refused = await person.call<ValidationErrorData>(api.account.updateSettings.path, { theme: 'b', ...(body as object) });
      expect(refused.http).toBe(400);
      expect(refused.body.status).toBe(ERR.validation);
      expect(reasons(refused.body.data)).toEqual(fields);
      expect(await storedRow(person.userNo)).toEqual(stored);
      expect(await auditCount()).toBe(before);
    });
  }

  it('refuses a caller without a session', async () => {
    const anonymous = await server.call(api.account.updateSettings, { language: 'ko' });
    expect(anonymous.http).toBe(401);
    expect(anonymous.body.status).toBe(ERR.sessionEnded);
  });
});
