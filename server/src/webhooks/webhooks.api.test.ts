import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, desc, eq, inArray } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { api, ERR, WEBHOOK_LIMITS } from '@eln/shared';
import { auditLog, notifications, projects, webhookDeliveries, webhookEndpoints } from '../db/schema.js';
import { startTestServer, type Caller, type NewUser, type TestServer } from '../testing/harness.js';
import { TestWebhookReceiver } from '../testing/webhookReceiver.js';
import { WebhookDeliverer } from './deliverer.js';
import { emitWebhook } from './emit.js';

/*
 * Webhooks end to end against a real HTTP receiver on 127.0.0.1: endpoints registered by administrators
 * and project leaders, events written to the outbox with the change, delivered signed (checked with the
 * standardwebhooks verifier), in order, retried with a growing wait and the endpoint turned off after the
 * retry window (the deliverer's clock is injected and moved on), withheld from an owner who no longer leads
 * the project; every refusal changes nothing. This server allows local addresses (WEBHOOKS_ALLOW_LOCAL);
 * webhookAddress.api.test.ts has one that does not.
 */

let server: TestServer;
let receiver: TestWebhookReceiver;
let clockOffsetMs = 0;
const now = () => new Date(Date.now() + clockOffsetMs);
const TIMEOUT_MS = 400;

type Person = NewUser & { userNo: number };
let admin: Caller;
let leader: Person;
let lead: Caller;
let member: Person;
let asMember: Caller;
let otherLeader: Person;
let projectNo: number;
let otherProjectNo: number;

beforeAll(async () => {
  receiver = await TestWebhookReceiver.start();
  server = await startTestServer({
    config: { webhooksAllowLocal: true },
    // No poll of its own: each pass is asked for (flush), on the tests' clock.
    webhooks: { now, pollMs: 3_600_000, timeoutMs: TIMEOUT_MS, onCommit: false },
  });
  admin = await server.as(server.admin);
  leader = await server.createUser({ name: 'Leader Lee' });
  member = await server.createUser({ name: 'Member Moon' });
  otherLeader = await server.createUser({ name: 'Other Oh' });
  lead = await server.as(leader);
  asMember = await server.as(member);
  projectNo = (await lead(api.projects.create, { title: 'Hooked project', signatureList: { department: '', user: member.userId } })).body
    .data.projectNo;
  const other = await (
    await server.as(otherLeader)
  )(api.projects.create, { title: 'Other project', signatureList: { department: '', user: member.userId } });
  expect(other.body.status).toBe('0000');
  otherProjectNo = other.body.data.projectNo;
});

afterAll(async () => {
  await server?.stop();
  await receiver?.close();
});

beforeEach(async () => {
  await server.services.webhooks.flush();
  await server.database.db.delete(webhookEndpoints);
  receiver.reset();
});

const endpointCount = async () => (await server.database.db.select().from(webhookEndpoints)).length;
const deliveriesOf = (endpointId: number) =>
  server.database.db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.endpointId, endpointId))
    .orderBy(webhookDeliveries.deliveryId);
let noteCounter = 0;
async function createNote(title = 'A note'): Promise<number> {
  noteCounter += 1;
  const answer = await (await server.as(member))(api.notes.create, { projectNo, title: `${title} ${noteCounter}` });
  expect(answer.body).toMatchObject({ status: '0000' });
  return answer.body.data.labNoteNo;
}

async function register(caller: Caller, path: string, fields: Partial<Parameters<Caller>[1]> = {}) {
  const answer = await caller(api.webhooks.create, { url: receiver.url(path), events: ['note.created'], ...fields });
  expect(answer.body.status).toBe('0000');
  return answer.body.data as { endpoint: { endpointId: number }; secret: string };
}

describe('registering endpoints', () => {
  it('gives an administrator’s endpoint every event, shows its secret once in the whsec_ form, and audits it without the secret', async () => {
    const { endpoint, secret } = await register(admin, '/a', { events: ['note.created', 'user.deactivated'], description: 'LIMS' });
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const listed = (await admin(api.webhooks.list, {})).body.data;
    expect(listed.list).toEqual([
      expect.objectContaining({
        endpointId: endpoint.endpointId,
        projectNo: null,
        active: true,
        description: 'LIMS',
        abilities: { update: true, delete: true },
      }),
    ]);
    expect(JSON.stringify(listed)).not.toContain(secret.slice(6));
    const [record] = await server.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'webhook.created'))
      .orderBy(desc(auditLog.seq))
      .limit(1);
    expect(JSON.stringify(record)).not.toContain(secret.slice(6));
  });

  it('lets a leader register for their own project only; a member, another leader and notebook-wide events are refused, changing nothing', async () => {
    await register(lead, '/p', { projectNo });
    const before = await endpointCount();
    const refusals: Array<[Caller, Record<string, unknown>, string]> = [
      [asMember, { projectNo }, ERR.forbidden],
      [lead, { projectNo: otherProjectNo }, ERR.forbidden],
      [lead, {}, ERR.forbidden],
      [lead, { projectNo, events: ['note.created', 'user.deactivated'] }, ERR.webhookProjectEvents],
      [lead, { projectNo: 987_654 }, ERR.notFound],
      [lead, { projectNo, url: 'ftp://127.0.0.1/x' }, ERR.webhookUrlInvalid],
      [lead, { projectNo, url: 'https://user:pw@127.0.0.1/x' }, ERR.webhookUrlInvalid],
      [lead, { projectNo, url: 'http://192.168.1.20/x' }, ERR.webhookUrlInvalid],
      [lead, { projectNo, events: [] }, ERR.validation],
      [lead, { projectNo, events: ['note.created', 'note.created'] }, ERR.validation],
    ];
    for (const [caller, fields, code] of refusals) {
      const answer = await caller(api.webhooks.create, { url: receiver.url('/p'), events: ['note.created'], ...fields });
      expect([JSON.stringify(fields), answer.body.status]).toEqual([JSON.stringify(fields), code]);
    }
    expect(await endpointCount()).toBe(before);
    expect((await asMember(api.webhooks.list, { projectNo })).body.status).toBe(ERR.forbidden);
    expect((await lead(api.webhooks.list, {})).body.status).toBe(ERR.forbidden);
    expect((await lead(api.webhooks.list, { projectNo })).body.data.list).toHaveLength(1);
  });

  it('keeps to the limit per scope', async () => {
    for (let i = 0; i < WEBHOOK_LIMITS.maxPerScope; i += 1) await register(lead, `/n${i}`, { projectNo });
    const answer = await lead(api.webhooks.create, { url: receiver.url('/over'), events: ['note.created'], projectNo });
    expect(answer.body.status).toBe(ERR.webhookTooMany);
    expect(await endpointCount()).toBe(WEBHOOK_LIMITS.maxPerScope);
  });

  it('hides an endpoint from those who may not manage it, and refuses their changes', async () => {
    const { endpoint } = await register(lead, '/p', { projectNo });
    const { endpointId } = endpoint;
    expect((await asMember(api.webhooks.update, { endpointId, active: false })).body.status).toBe(ERR.webhookMissing);
    expect((await asMember(api.webhooks.delete, { endpointId })).body.status).toBe(ERR.webhookMissing);
    expect((await asMember(api.webhooks.deliveries, { endpointId })).body.status).toBe(ERR.webhookMissing);
    const adminOwn = (await register(admin, '/a')).endpoint.endpointId;
    expect((await lead(api.webhooks.update, { endpointId: adminOwn, active: false })).body.status).toBe(ERR.webhookMissing);
    expect((await lead(api.webhooks.update, { endpointId, events: ['user.deactivated'] })).body.status).toBe(ERR.webhookProjectEvents);
    const [row] = await server.database.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.endpointId, endpointId));
    expect(row).toMatchObject({ active: true, events: ['note.created'] });
  });
});

describe('delivering', () => {
  it('posts each event signed by the Standard Webhooks scheme, with ids and never the note’s title, in order per endpoint', async () => {
    const all = await register(admin, '/a');
    const own = await register(lead, '/p', { projectNo });
    // Another project's endpoint hears nothing of this project.
    await register(admin, '/other', { projectNo: otherProjectNo });
    const notes = [await createNote('Secret title one'), await createNote('Secret title two'), await createNote('Secret title three')];
    expect(await deliveriesOf(all.endpoint.endpointId)).toHaveLength(3);
    await server.services.webhooks.flush();
    for (const [path, secret] of [
      ['/a', all.secret],
      ['/p', own.secret],
    ] as const) {
      const got = receiver.at(path);
      expect(got.map((r) => (JSON.parse(r.body) as { data: { labNoteNo: number } }).data.labNoteNo)).toEqual(notes);
      for (const request of got) {
        const verified = new Webhook(secret).verify(request.body, request.headers) as { type: string; data: Record<string, unknown> };
        expect(verified).toMatchObject({ type: 'note.created', data: { projectNo } });
        expect(request.body).not.toContain('Secret title');
        expect(request.headers['webhook-id']).toMatch(/^msg_/);
      }
    }
    expect(receiver.at('/other')).toHaveLength(0);
    const log = (await lead(api.webhooks.deliveries, { endpointId: own.endpoint.endpointId })).body.data;
    expect(log.totalCount).toBe(3);
    expect(log.list[0]).toMatchObject({
      status: 'delivered',
      attempts: 1,
      lastStatus: 200,
      lastResponse: 'thanks',
      abilities: { redeliver: true },
    });
  });

  it('signs with a new secret and, for the overlap after it, the previous one beside it; audited without either', async () => {
    const { endpoint, secret: first } = await register(lead, '/r', { projectNo });
    const { endpointId } = endpoint;
    const rotated = await lead(api.webhooks.rotateSecret, { endpointId });
    expect(rotated.body.status).toBe('0000');
    const second = rotated.body.data.secret;
    expect(second).toMatch(/^whsec_/);
    expect(second).not.toBe(first);
    const until = Date.parse(rotated.body.data.endpoint.previousSecretUntil!);
    expect(until).toBeGreaterThan(Date.now() + (WEBHOOK_LIMITS.secretOverlapHours - 1) * 3_600_000);
    const [audit] = await server.database.db.select().from(auditLog).orderBy(desc(auditLog.seq)).limit(1);
    expect(audit).toMatchObject({ action: 'webhook.secretRotated', targetId: String(endpointId) });
    expect(JSON.stringify(audit)).not.toContain(first.slice(6, 20));
    expect(JSON.stringify(audit)).not.toContain(second.slice(6, 20));

    // During the overlap both sign: a receiver with either secret verifies.
    await createNote();
    await server.services.webhooks.flush();
    const [during] = receiver.at('/r');
    expect(during!.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    for (const secret of [first, second]) new Webhook(secret).verify(during!.body, during!.headers);

    // Once it is over, only the new one signs, and the endpoint no longer says the old one does.
    await server.database.db
      .update(webhookEndpoints)
      .set({ previousSecretUntil: new Date(now().getTime() - 1000) })
      .where(eq(webhookEndpoints.endpointId, endpointId));
    expect((await lead(api.webhooks.list, { projectNo })).body.data.list[0]!.previousSecretUntil).toBeNull();
    await createNote();
    await server.services.webhooks.flush();
    const after = receiver.at('/r')[1]!;
    expect(after.headers['webhook-signature']!.split(' ')).toHaveLength(1);
    new Webhook(second).verify(after.body, after.headers);
    expect(() => new Webhook(first).verify(after.body, after.headers)).toThrow();
  });

  it('refuses a new secret to those who may not manage the endpoint, changing nothing', async () => {
    const { endpoint, secret } = await register(lead, '/r', { projectNo });
    for (const [caller, endpointId] of [
      [asMember, endpoint.endpointId],
      [await server.as(otherLeader), endpoint.endpointId],
      [lead, 987_654_321],
    ] as const)
      expect((await caller(api.webhooks.rotateSecret, { endpointId })).body.status).toBe(ERR.webhookMissing);
    const [stored] = await server.database.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.endpointId, endpoint.endpointId));
    expect(stored).toMatchObject({ secret, previousSecret: null, previousSecretUntil: null });
  });

  it('writes nothing for an endpoint turned off or not choosing the event, and an administrator hears of a deactivation', async () => {
    const off = await register(admin, '/off', { events: ['note.created', 'user.deactivated'], active: false });
    const deactivations = await register(admin, '/d', { events: ['user.deactivated'] });
    const someone = await server.createUser({ name: 'Leaving Lim' });
    await createNote();
    expect((await admin(api.users.update, { userNo: someone.userNo, active: false })).body.status).toBe('0000');
    expect(await deliveriesOf(off.endpoint.endpointId)).toHaveLength(0);
    await server.services.webhooks.flush();
    const got = receiver.at('/d');
    expect(got.map((r) => JSON.parse(r.body) as unknown)).toEqual([
      expect.objectContaining({
        type: 'user.deactivated',
        data: expect.objectContaining({ userNos: [someone.userNo], byDirectory: false }),
      }),
    ]);
    void deactivations;
  });

  it('retries a failing receiver with a doubling wait, then turns the endpoint off after the retry window and tells its owner', async () => {
    const { endpoint } = await register(lead, '/fail', { projectNo });
    receiver.setMode('/fail', { kind: 'fail' });
    await createNote();
    await createNote();
    await server.services.webhooks.flush();
    let [first, second] = await deliveriesOf(endpoint.endpointId);
    expect(first).toMatchObject({ status: 'pending', attempts: 1, lastStatus: 500, lastError: 'HTTP 500' });
    expect(first!.lastResponse).toHaveLength(WEBHOOK_LIMITS.responseExcerptChars);
    expect(first!.nextAttemptAt.getTime() - first!.lastAttemptAt!.getTime()).toBe(WEBHOOK_LIMITS.retryBaseSeconds * 1000);
    // In order: the second waits behind the first, untried.
    expect(second).toMatchObject({ status: 'pending', attempts: 0 });
    clockOffsetMs += WEBHOOK_LIMITS.retryBaseSeconds * 1000;
    await server.services.webhooks.flush();
    [first] = await deliveriesOf(endpoint.endpointId);
    expect(first).toMatchObject({ attempts: 2 });
    expect(first!.nextAttemptAt.getTime() - first!.lastAttemptAt!.getTime()).toBe(2 * WEBHOOK_LIMITS.retryBaseSeconds * 1000);
    // A day later the next try fails for good: the endpoint is turned off, its owner told, the second left waiting.
    clockOffsetMs += WEBHOOK_LIMITS.retryWindowHours * 3_600_000;
    await server.services.webhooks.flush();
    [first, second] = await deliveriesOf(endpoint.endpointId);
    expect(first).toMatchObject({ status: 'failed', attempts: 3 });
    expect(second).toMatchObject({ status: 'pending', attempts: 0 });
    const listed = (await lead(api.webhooks.list, { projectNo })).body.data.list[0]!;
    expect(listed).toMatchObject({ active: false, failedCount: 1, pendingCount: 1 });
    expect(listed.disabledReason).toContain('HTTP 500');
    const told = await server.database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userNo, leader.userNo), eq(notifications.event, 'webhookDisabled')));
    expect(told).toHaveLength(1);
    const bell = (await lead(api.notifications.list, {})).body.data.list;
    expect(bell[0]).toMatchObject({ event: 'webhookDisabled', file: receiver.url('/fail'), link: `/project/${projectNo}` });
    // Turned on again with a mended receiver: what waited goes, in order; the failed one is sent again on request.
    receiver.setMode('/fail', { kind: 'ok' });
    expect(
      (await lead(api.webhooks.update, { endpointId: endpoint.endpointId, active: true })).body.data.endpoint.disabledReason,
    ).toBeNull();
    await server.services.webhooks.flush();
    expect((await deliveriesOf(endpoint.endpointId))[1]).toMatchObject({ status: 'delivered' });
    const again = await lead(api.webhooks.redeliver, { deliveryId: first!.deliveryId });
    expect(again.body.data.delivery).toMatchObject({ status: 'pending', messageId: first!.messageId });
    await server.services.webhooks.flush();
    expect(receiver.at('/fail').at(-1)!.headers['webhook-id']).toBe(first!.messageId);
  });

  it('turns an endpoint off at the first 410 Gone, without retrying, audited, and tells its owner', async () => {
    const { endpoint } = await register(lead, '/gone', { projectNo });
    receiver.setMode('/gone', { kind: 'gone' });
    await createNote();
    await createNote();
    await server.services.webhooks.flush();
    const [first, second] = await deliveriesOf(endpoint.endpointId);
    expect(first).toMatchObject({ status: 'failed', attempts: 1, lastStatus: 410 });
    expect(second).toMatchObject({ status: 'pending', attempts: 0 });
    expect(receiver.at('/gone')).toHaveLength(1);
    const listed = (await lead(api.webhooks.list, { projectNo })).body.data.list[0]!;
    expect(listed).toMatchObject({ active: false });
    expect(listed.disabledReason).toContain('410 Gone');
    const [audit] = await server.database.db.select().from(auditLog).orderBy(desc(auditLog.seq)).limit(1);
    expect(audit).toMatchObject({ action: 'webhook.disabled', actorUserNo: null });
    const told = await server.database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userNo, leader.userNo), eq(notifications.event, 'webhookDisabled')));
    expect(told.some((row) => row.payload !== null && JSON.stringify(row.payload).includes('/gone'))).toBe(true);
  });

  it('gives up a try a receiver does not answer within the timeout, and waits for a slow one that answers in time', async () => {
    const hanging = await register(admin, '/hang');
    const slow = await register(admin, '/slow');
    receiver.setMode('/hang', { kind: 'hang' });
    receiver.setMode('/slow', { kind: 'slow', delayMs: TIMEOUT_MS / 2 });
    await createNote();
    await server.services.webhooks.flush();
    const [hung] = await deliveriesOf(hanging.endpoint.endpointId);
    expect(hung).toMatchObject({ status: 'pending', attempts: 1, lastStatus: null, lastError: `no answer within ${TIMEOUT_MS / 1000} s` });
    const [answered] = await deliveriesOf(slow.endpoint.endpointId);
    expect(answered).toMatchObject({ status: 'delivered', lastStatus: 200 });
    expect(answered!.lastLatencyMs).toBeGreaterThanOrEqual(TIMEOUT_MS / 2 - 5);
  });

  it('withholds what a leader who no longer leads the project would be sent', async () => {
    const { endpoint } = await register(lead, '/p', { projectNo });
    await server.database.db.update(projects).set({ leaderUserNo: otherLeader.userNo }).where(eq(projects.projectNo, projectNo));
    try {
      await createNote();
      await server.services.webhooks.flush();
      expect(receiver.at('/p')).toHaveLength(0);
      const [row] = await deliveriesOf(endpoint.endpointId);
      expect(row).toMatchObject({ status: 'withheld', attempts: 1 });
      // Their endpoint is no longer theirs to manage either.
      expect((await lead(api.webhooks.deliveries, { endpointId: endpoint.endpointId })).body.status).toBe(ERR.webhookMissing);
    } finally {
      await server.database.db.update(projects).set({ leaderUserNo: leader.userNo }).where(eq(projects.projectNo, projectNo));
    }
  });

  it('sends again only what is no longer on its way, and refuses others’ deliveries', async () => {
    const { endpoint } = await register(lead, '/p', { projectNo });
    receiver.setMode('/p', { kind: 'fail' });
    await createNote();
    await server.services.webhooks.flush();
    const [row] = await deliveriesOf(endpoint.endpointId);
    expect((await lead(api.webhooks.redeliver, { deliveryId: row!.deliveryId })).body.status).toBe(ERR.webhookDeliveryUnderway);
    expect((await asMember(api.webhooks.redeliver, { deliveryId: row!.deliveryId })).body.status).toBe(ERR.webhookDeliveryMissing);
    expect((await lead(api.webhooks.redeliver, { deliveryId: 987_654_321 })).body.status).toBe(ERR.webhookDeliveryMissing);
    expect(await deliveriesOf(endpoint.endpointId)).toHaveLength(1);
  });

  it('deletes an endpoint with its log, audited', async () => {
    const { endpoint } = await register(lead, '/p', { projectNo });
    await createNote();
    expect((await lead(api.webhooks.delete, { endpointId: endpoint.endpointId })).body.status).toBe('0000');
    expect(await deliveriesOf(endpoint.endpointId)).toHaveLength(0);
    expect((await lead(api.webhooks.delete, { endpointId: endpoint.endpointId })).body.status).toBe(ERR.webhookMissing);
  });

  it('sends a dead process’s claimed run, once its lease ran out, before what came after it, in order', async () => {
    const { endpoint } = await register(admin, '/dead', { events: ['user.deactivated'] });
    for (let n = 1; n <= 5; n += 1)
      await server.database.db.transaction((tx) =>
        emitWebhook(tx, { event: 'user.deactivated', projectNo: null, data: { userNos: [n], byDirectory: false } }),
      );
    const rows = await deliveriesOf(endpoint.endpointId);
    // The first three were claimed by a process that died; its lease has run out.
    const leaseEnded = new Date(now().getTime() - 1000);
    await server.database.db
      .update(webhookDeliveries)
      .set({ status: 'sending', attempts: 1, claimedUntil: leaseEnded, nextAttemptAt: leaseEnded, firstAttemptAt: leaseEnded })
      .where(
        inArray(
          webhookDeliveries.deliveryId,
          rows.slice(0, 3).map((row) => row.deliveryId),
        ),
      );
    await server.services.webhooks.flush();
    expect(receiver.at('/dead').map((r) => r.headers['webhook-id'])).toEqual(rows.map((row) => row.messageId));
    expect((await deliveriesOf(endpoint.endpointId)).map((row) => [row.status, row.attempts])).toEqual([
      ...Array(3).fill(['delivered', 2]),
      ...Array(2).fill(['delivered', 1]),
    ]);
  });

  it('never delivers one event twice from two deliverers on one database, and keeps each endpoint’s order', async () => {
    const paths = ['/t0', '/t1', '/t2'];
    for (const path of paths) {
      await register(admin, path, { events: ['user.deactivated'] });
      receiver.setMode(path, { kind: 'slow', delayMs: 2 });
    }
    const EVENTS = 30;
    for (let n = 1; n <= EVENTS; n += 1)
      await server.database.db.transaction((tx) =>
        emitWebhook(tx, { event: 'user.deactivated', projectNo: null, data: { userNos: [n], byDirectory: false } }),
      );
    const second = new WebhookDeliverer({ db: server.database.db, log: server.app.log, allowLocal: true }, { now, pollMs: 3_600_000 });
    await Promise.all([server.services.webhooks.flush(), second.flush(), server.services.webhooks.flush()]);
    for (const path of paths) {
      const got = receiver.at(path);
      expect(new Set(got.map((r) => r.headers['webhook-id'])).size).toBe(EVENTS);
      expect(got.map((r) => (JSON.parse(r.body) as { data: { userNos: number[] } }).data.userNos[0])).toEqual(
        Array.from({ length: EVENTS }, (_, i) => i + 1),
      );
    }
  });
});
