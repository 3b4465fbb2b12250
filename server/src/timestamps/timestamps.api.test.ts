import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq, sql } from 'drizzle-orm';
import { api, canonicalJson, ERR, noteDocumentName, type SignatureEntry } from '@eln/shared';
import { auditLog, timestampAuthorities, timestamps } from '../db/schema.js';
import { startTestServer, type Caller, type NewUser, type TestServer } from '../testing/harness.js';
import { appendParagraph, connectWriter, eventually, type LiveClient } from '../testing/live.js';
import { startTestTimestampAuthority, type TestTimestampAuthority } from '../testing/timestampAuthority.js';
import { TimestampStamper } from './stamper.js';

let server: TestServer;
let url: string;
type Person = { user: NewUser & { userNo: number }; call: Caller; token: string };
let writer: Person;
let reviewer: Person;
let outsider: Person;
let admin: Caller;
let projectNo: number;
let first: TestTimestampAuthority;
let second: TestTimestampAuthority;
let expired: TestTimestampAuthority;
const clients: LiveClient[] = [];

async function person(name: string): Promise<Person> {
  const user = await server.createUser({ name });
  const { accessToken } = await server.signIn(user.userId, user.password);
  return { user, token: accessToken, call: server.callerWith(accessToken) };
}

beforeAll(async () => {
  [first, second, expired] = await Promise.all([
    startTestTimestampAuthority(),
    startTestTimestampAuthority({ policy: '1.3.6.1.4.1.59999.2.1' }),
    startTestTimestampAuthority({ certificate: 'expired' }),
  ]);
  server = await startTestServer({ stamper: { pollMs: 50, requestTimeoutMs: 2_000 } });
  url = await server.listen();
  [writer, reviewer, outsider] = (await Promise.all(['Writer Woo', 'Reviewer Ryu', 'Outsider Oh'].map(person))) as [Person, Person, Person];
  admin = await server.as(server.admin);
  projectNo = (
    await writer.call(api.projects.create, {
      title: 'Stamped work',
      signatureList: { department: '', user: [writer, reviewer].map((p) => p.user.userId).join(',') },
    })
  ).body.data.projectNo;
}, 90_000);
afterEach(async () => {
  for (const client of clients.splice(0)) client.destroy();
  for (const tsa of [first, second, expired]) tsa.behave({ kind: 'ok' });
  // Each test starts with no authority and an empty queue (left-over pending stamps would reach its authority).
  await server.database.db.delete(timestamps);
  await server.database.db.delete(timestampAuthorities);
});
afterAll(async () => {
  await server?.stop();
  await Promise.all([first, second, expired].map((tsa) => tsa?.stop()));
});

const authorityInput = (tsa: TestTimestampAuthority, name: string, chainPem = tsa.caPem) => ({
  name,
  url: tsa.url,
  username: '',
  policy: '',
  hash: 'SHA-256' as const,
  chainPem,
  enabled: true,
});

async function addAuthority(tsa: TestTimestampAuthority, name: string, chainPem?: string): Promise<number> {
  const created = await admin(api.timestamps.create, authorityInput(tsa, name, chainPem));
  expect(created.body.status).toBe('0000');
  return created.body.data.authorityNo;
}

/** A saved note with a pending request for the reviewer; answers the note's number. */
async function noteToSign(title: string): Promise<number> {
  const { labNoteNo } = (await writer.call(api.notes.create, { projectNo, title })).body.data;
  const editor = await connectWriter(url, noteDocumentName(labNoteNo), writer.token);
  clients.push(editor);
  appendParagraph(editor.doc, `Result of ${title}`);
  await eventually(() => editor.allDurable(), 'durable');
  expect((await writer.call(api.notes.saveVersion, { labNoteNo, version: 0, blockList: [] })).body.status).toBe('0000');
  await writer.call(api.signatures.request, { labNoteNo, signers: [{ userId: reviewer.user.userId, type: 'reviewer' }] });
  return labNoteNo;
}

async function signed(title: string): Promise<{ labNoteNo: number; signature: () => Promise<SignatureEntry> }> {
  const labNoteNo = await noteToSign(title);
  const answer = await reviewer.call(api.signatures.respond, {
    labNoteNo,
    status: 'T',
    password: reviewer.user.password,
    name: reviewer.user.name,
    timeZone: 'Asia/Seoul',
  });
  expect(answer.body.status).toBe('0000');
  const signature = async () => (await writer.call(api.notes.blockList, { labNoteNo })).body.data.note.signatureList[0]!;
  return { labNoteNo, signature };
}

const stampOf = async (kind: 'signature' | 'signatureRemoval', id: number) =>
  (await server.database.db
    .select()
    .from(timestamps)
    .where(eq(timestamps.subjectKind, kind))
    .then((rows) => rows.find((r) => r.subjectId === String(id))))!;

/** Makes a stamp that waits for its next try due now. */
const dueNow = (stampId: number) =>
  server.database.db
    .update(timestamps)
    .set({ nextAttemptAt: sql`now()` })
    .where(eq(timestamps.stampId, stampId));

describe('time-stamps on signatures', () => {
  it('asks for none while no authority is set up', async () => {
    const { signature } = await signed('No authority');
    const entry = await signature();
    expect(entry.status).toBe('T');
    expect(entry.timestamp).toBeNull();
    expect(
      await server.database.db
        .select()
        .from(timestamps)
        .where(eq(timestamps.subjectId, String(entry.signatureId))),
    ).toEqual([]);
  });

  it('stamps a signature over exactly what was signed, verifiable by OpenSSL and again on demand', async () => {
    await addAuthority(first, 'First TSA');
    const { labNoteNo, signature } = await signed('Stamped');
    await eventually(async () => (await signature()).timestamp?.status === 'stamped', 'stamped');
    const entry = await signature();
    expect(entry.timestamp).toMatchObject({ status: 'stamped', authority: 'First TSA' });
    const stamp = await stampOf('signature', entry.signatureId);
    const subject = JSON.parse(new TextDecoder().decode(stamp.subject)) as Record<string, unknown>;
    expect(subject).toMatchObject({
      kind: 'signature',
      labNoteNo,
      version: 1,
      signer: reviewer.user.userId,
      meaning: 'reviewer',
      printedName: reviewer.user.name,
      timeZone: 'Asia/Seoul',
      signedAt: entry.signedAt,
    });
    expect(new TextDecoder().decode(stamp.subject)).toBe(canonicalJson(subject));
    expect(subject.blocksHash).toMatch(/^[0-9a-f]{64}$/);
    const token = Buffer.from(entry.timestamp!.token!, 'base64');
    expect(await first.opensslVerify(token, stamp.subject)).toBe(true);
    expect(Math.abs(new Date(entry.timestamp!.genTime!).getTime() - new Date(entry.signedAt!).getTime())).toBeLessThan(10_000);

    const verified = await writer.call(api.timestamps.verify, { kind: 'signature', id: String(entry.signatureId) });
    expect(verified.body.data).toMatchObject({
      status: 'stamped',
      valid: true,
      fault: null,
      authority: 'First TSA',
      signer: 'ELN Test Time Stamping Authority',
    });
    expect(verified.body.data.subject).toBe(new TextDecoder().decode(stamp.subject));
    // Only readers of the note may ask; others learn nothing of it.
    expect((await outsider.call(api.timestamps.verify, { kind: 'signature', id: String(entry.signatureId) })).http).toBe(404);
    expect((await writer.call(api.timestamps.verify, { kind: 'signature', id: '99999999' })).http).toBe(404);
    expect((await writer.call(api.timestamps.verify, { kind: 'auditAnchor', id: '1' })).http).toBe(403);
    expect((await writer.call(api.timestamps.verify.path, { kind: 'page', id: '1' })).http).toBe(400);

    // A stored record changed behind the server's back no longer matches its token.
    await server.database.db
      .update(timestamps)
      .set({ subject: new TextEncoder().encode(canonicalJson({ ...subject, signer: outsider.user.userId })) })
      .where(eq(timestamps.stampId, stamp.stampId));
    const tampered = await writer.call(api.timestamps.verify, { kind: 'signature', id: String(entry.signatureId) });
    expect(tampered.body.data).toMatchObject({ valid: false });
    expect(tampered.body.data.fault).toMatch(/^imprintMismatch/);
  });

  it('stamps the removal of a signature, with its reason', async () => {
    await addAuthority(first, 'First TSA');
    const { labNoteNo, signature } = await signed('Removed');
    const entry = await signature();
    const removed = await writer.call(api.signatures.remove, { labNoteNo, signatureId: entry.signatureId, reason: 'Wrong lot' });
    expect(removed.body.status).toBe('0000');
    await eventually(async () => (await stampOf('signatureRemoval', entry.signatureId))?.status === 'stamped', 'removal stamped');
    const stamp = await stampOf('signatureRemoval', entry.signatureId);
    expect(JSON.parse(new TextDecoder().decode(stamp.subject))).toMatchObject({
      kind: 'signatureRemoval',
      reason: 'Wrong lot',
      removedBy: writer.user.userId,
    });
    expect(await first.opensslVerify(stamp.token!, stamp.subject)).toBe(true);
  });

  it('commits the signature when every authority is down, waits as pending, and stamps once one answers', async () => {
    await addAuthority(first, 'First TSA');
    await addAuthority(second, 'Second TSA');
    first.behave({ kind: 'httpError', status: 503 });
    second.behave({ kind: 'garbage' });
    const { signature } = await signed('Down');
    const entry = await signature();
    expect(entry.status).toBe('T');
    await eventually(async () => ((await stampOf('signature', entry.signatureId))?.attempts ?? 0) >= 1, 'tried');
    const waiting = await stampOf('signature', entry.signatureId);
    expect(waiting.status).toBe('pending');
    expect(waiting.lastError).toMatch(/First TSA: httpStatus: HTTP 503; Second TSA: malformed/);
    expect(waiting.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());
    expect((await signature()).timestamp).toEqual({ status: 'pending' });

    // The first still fails; the second answers now: the stamp is the second's.
    second.behave({ kind: 'ok' });
    await dueNow(waiting.stampId);
    await eventually(async () => (await signature()).timestamp?.status === 'stamped', 'stamped by the second');
    expect((await signature()).timestamp?.authority).toBe('Second TSA');
  });

  it('refuses tokens over the wrong imprint or nonce, or signed with an expired certificate, and tries the next authority', async () => {
    await addAuthority(expired, 'Expired TSA');
    await addAuthority(first, 'First TSA');
    first.behave({ kind: 'wrongImprint' });
    const { signature } = await signed('Wrong answers');
    const entry = await signature();
    await eventually(async () => ((await stampOf('signature', entry.signatureId))?.attempts ?? 0) >= 1, 'tried');
    const waiting = await stampOf('signature', entry.signatureId);
    expect(waiting.lastError).toMatch(/Expired TSA: certificateExpired.*First TSA: imprintMismatch/);
    first.behave({ kind: 'wrongNonce' });
    await dueNow(waiting.stampId);
    await eventually(async () => ((await stampOf('signature', entry.signatureId))?.attempts ?? 0) >= 2, 'tried again');
    expect((await stampOf('signature', entry.signatureId)).lastError).toMatch(/First TSA: nonceMismatch/);
    first.behave({ kind: 'ok' });
    await dueNow(waiting.stampId);
    await eventually(async () => (await signature()).timestamp?.status === 'stamped', 'stamped');
  });

  it('marks a stamp failed after its last try, audits it, and an administrator queues failed ones again', async () => {
    await addAuthority(first, 'First TSA');
    first.behave({ kind: 'httpError', status: 500 });
    const { signature } = await signed('Failed');
    const entry = await signature();
    await eventually(async () => ((await stampOf('signature', entry.signatureId))?.attempts ?? 0) >= 1, 'tried');
    const stamp = await stampOf('signature', entry.signatureId);
    await server.database.db
      .update(timestamps)
      .set({ attempts: 29, nextAttemptAt: sql`now()` })
      .where(eq(timestamps.stampId, stamp.stampId));
    await eventually(async () => (await stampOf('signature', entry.signatureId)).status === 'failed', 'failed');
    expect((await signature()).timestamp).toEqual({ status: 'failed' });
    const [audit] = await server.database.db.select().from(auditLog).orderBy(desc(auditLog.seq)).limit(1);
    expect(audit).toMatchObject({
      action: 'timestamp.failed',
      actorUserNo: null,
      targetType: 'timestamp',
      targetId: String(stamp.stampId),
    });
    expect((await admin(api.timestamps.authorities, {})).body.data.queue.failed).toBeGreaterThanOrEqual(1);

    expect((await writer.call(api.timestamps.retry, {})).http).toBe(403);
    first.behave({ kind: 'ok' });
    const retried = await admin(api.timestamps.retry, {});
    expect(retried.body.data.requeued).toBeGreaterThanOrEqual(1);
    await eventually(async () => (await signature()).timestamp?.status === 'stamped', 'stamped after the retry');
  });

  it('never stamps one record twice when several processes take from the queue', async () => {
    const before = first.requests;
    await addAuthority(first, 'First TSA');
    // Four more stampers on the same database, as four more processes would run.
    const others = Array.from({ length: 4 }, () => new TimestampStamper(server.database.db, server.app.log, { pollMs: 10 }));
    for (const other of others) other.start();
    try {
      const notes = await Promise.all(['A', 'B', 'C'].map((t) => signed(`Racing ${t}`)));
      for (const { signature } of notes) await eventually(async () => (await signature()).timestamp?.status === 'stamped', 'stamped');
      expect(first.requests - before).toBe(3);
    } finally {
      await Promise.all(others.map((o) => o.stop()));
    }
  });
});

describe('authorities (administrators)', () => {
  it('adds, lists with the chain read, changes, reorders and removes authorities, each audited', async () => {
    const a = await addAuthority(first, 'First TSA');
    const b = await addAuthority(second, 'Second TSA', second.tsaPem + second.caPem);
    let list = (await admin(api.timestamps.authorities, {})).body.data.list;
    expect(list.map((x) => [x.name, x.position])).toEqual([
      ['First TSA', 1],
      ['Second TSA', 2],
    ]);
    expect(list[1]!.certificates.map((c) => c.subject)).toEqual(['ELN Test Time Stamping Authority', 'ELN Test Root CA']);
    expect(list[1]!.expiresSoon).toBe(false);

    const changed = await admin(api.timestamps.update, {
      ...authorityInput(first, 'First TSA, renamed'),
      authorityNo: a,
      username: 'lab',
      password: 's3cret',
    });
    expect(changed.body.status).toBe('0000');
    await admin(api.timestamps.update, { ...authorityInput(first, 'First TSA, renamed'), authorityNo: a, username: 'lab' });
    list = (await admin(api.timestamps.authorities, {})).body.data.list;
    expect(list[0]).toMatchObject({ name: 'First TSA, renamed', username: 'lab', hasPassword: true });
    expect(JSON.stringify(await server.database.db.select().from(auditLog).orderBy(desc(auditLog.seq)).limit(3))).not.toContain('s3cret');

    await admin(api.timestamps.move, { authorityNo: b, direction: 'up' });
    list = (await admin(api.timestamps.authorities, {})).body.data.list;
    expect(list.map((x) => x.authorityNo)).toEqual([b, a]);

    expect((await admin(api.timestamps.delete, { authorityNo: b })).body.status).toBe('0000');
    expect((await admin(api.timestamps.delete, { authorityNo: b })).http).toBe(404);
    const actions = (await server.database.db.select().from(auditLog).orderBy(desc(auditLog.seq)).limit(5)).map((r) => r.action);
    expect(actions).toEqual([
      'timestamp.authorityDeleted',
      'timestamp.authorityMoved',
      'timestamp.authorityUpdated',
      'timestamp.authorityUpdated',
      'timestamp.authorityCreated',
    ]);
  });

  it('warns of a chain that expires within 30 days', async () => {
    await addAuthority(expired, 'Expired TSA', expired.tsaPem);
    const [entry] = (await admin(api.timestamps.authorities, {})).body.data.list;
    expect(entry).toMatchObject({ expiresSoon: true, chainExpiresAt: '2021-01-01T00:00:00.000Z' });
  });

  it('refuses members, bad URLs, unreadable chains and unknown authorities, storing nothing', async () => {
    expect((await writer.call(api.timestamps.create, authorityInput(first, 'Mine'))).http).toBe(403);
    expect((await writer.call(api.timestamps.authorities, {})).http).toBe(403);
    const badUrl = await admin(api.timestamps.create.path, { ...authorityInput(first, 'Bad'), url: 'ftp://tsa.example' });
    expect(badUrl.http).toBe(400);
    expect(badUrl.body).toMatchObject({ status: ERR.validation, data: { fields: [{ field: 'url', reason: 'invalidFormat' }] } });
    const notPem = await admin(api.timestamps.create.path, { ...authorityInput(first, 'Bad'), chainPem: 'hello' });
    expect(notPem.body).toMatchObject({ status: ERR.validation, data: { fields: [{ field: 'chainPem', reason: 'invalidFormat' }] } });
    const broken = await admin(api.timestamps.create, {
      ...authorityInput(first, 'Bad'),
      chainPem: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----',
    });
    expect(broken.body.status).toBe(ERR.timestampChainInvalid);
    const badPolicy = await admin(api.timestamps.create.path, { ...authorityInput(first, 'Bad'), policy: 'not.an.oid' });
    expect(badPolicy.http).toBe(400);
    expect((await admin(api.timestamps.update, { ...authorityInput(first, 'Nobody'), authorityNo: 424242 })).http).toBe(404);
    expect((await admin(api.timestamps.move, { authorityNo: 424242, direction: 'up' })).http).toBe(404);
    expect(await server.database.db.select().from(timestampAuthorities)).toEqual([]);
  });

  it('probes an authority by its URL and shows the certificates its tokens carry', async () => {
    const probe = await admin(api.timestamps.probe, { url: first.url, username: '', policy: '', hash: 'SHA-512' });
    expect(probe.body.status).toBe('0000');
    expect(probe.body.data.certificates.map((c) => c.subject)).toEqual(['ELN Test Time Stamping Authority']);
    expect(probe.body.data.policy).toBe(first.policy);
    first.behave({ kind: 'garbage' });
    const refused = await admin(api.timestamps.probe, { url: first.url, username: '', policy: '', hash: 'SHA-256' });
    expect(refused.body.status).toBe(ERR.timestampAuthorityFailed);
    expect(refused.body.message).toContain('malformed');
  });
});
