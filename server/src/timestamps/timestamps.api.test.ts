import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq, sql } from 'drizzle-orm';
import { api, canonicalJson, ERR, noteDocumentName, type SignatureEntry, type TimestampSubject } from '@eln/shared';
import { auditLog, exportJobs, timestampAuthorities, timestamps, users } from '../db/schema.js';
import { importElnArchive } from '../exports/eln/index.js';
import { startTestServer, type Caller, type TestServer, type TestPerson } from '../testing/harness.js';
import { appendParagraph, connectWriter, eventually, type LiveClient } from '../testing/live.js';
import { startTestTimestampAuthority, type TestTimestampAuthority } from '../testing/timestampAuthority.js';
import { toAuthFlags } from '../users/flags.js';
import { auditChainHead } from '../audit/audit.js';
import { anchorAuditHead } from './auditAnchors.js';
import { TimestampStamper } from './stamper.js';

const run = promisify(execFile);

let server: TestServer;
let url: string;
type Person = TestPerson;
let writer: Person;
let reviewer: Person;
let outsider: Person;
let admin: Caller;
let projectNo: number;
let first: TestTimestampAuthority;
let second: TestTimestampAuthority;
let expired: TestTimestampAuthority;
const clients: LiveClient[] = [];

const person = (name: string): Promise<Person> => server.person({ name });

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
  // Each test starts with no authority and an empty queue (left-over pending stamps would reach its authority):
  // the authorities are turned off first, then the pass under way ends (it may still ask them), then both go.
  await server.database.db.update(timestampAuthorities).set({ enabled: false });
  await server.services.timestamps.idle();
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

const stampOf = async (kind: TimestampSubject, id: number | string) =>
  (await server.database.db
    .select()
    .from(timestamps)
    .where(and(eq(timestamps.subjectKind, kind), eq(timestamps.subjectId, String(id))))
    .then(([row]) => row))!;

const subjectOf = (stamp: { subject: Uint8Array }) => JSON.parse(new TextDecoder().decode(stamp.subject)) as Record<string, unknown>;

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
      const allStamped = async () => (await server.database.db.select().from(timestamps)).every((row) => row.status === 'stamped');
      await eventually(allStamped, 'every stamp asked for taken');
      // Each signature, the version it covers, and the audit chain's head. Every request the authority got is
      // an attempt its stamp recorded: none was made by a second process on a stamp another held (one that
      // timed out on a loaded machine is an attempt, recorded, and retried).
      const rows = await server.database.db.select().from(timestamps);
      expect(rows.filter((row) => row.subjectKind === 'signature')).toHaveLength(3);
      expect(rows.filter((row) => row.subjectKind === 'version')).toHaveLength(3);
      expect(first.requests - before).toBe(rows.reduce((sum, row) => sum + row.attempts, 0));
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

describe("time-stamps on a signed note's versions", () => {
  it('stamps the version a signature covers and each version saved once the note was signed, in the change’s transaction', async () => {
    await addAuthority(first, 'First TSA');
    const labNoteNo = await noteToSign('Versions');
    // Saved but never signed: its drafts prove nothing yet, and are not stamped.
    expect(await stampOf('version', `${labNoteNo}:1`)).toBeUndefined();
    const history = async () => (await writer.call(api.noteHistory.list, { labNoteNo })).body.data.list;
    expect((await history())[0]!.timestamp).toBeNull();

    await reviewer.call(api.signatures.respond, { labNoteNo, status: 'T', password: reviewer.user.password, name: reviewer.user.name });
    // Asked in the signature's transaction: there as soon as the call has answered.
    expect(await stampOf('version', `${labNoteNo}:1`)).toBeDefined();
    const [signature] = (await writer.call(api.notes.blockList, { labNoteNo })).body.data.note.signatureList;
    await writer.call(api.signatures.remove, { labNoteNo, signatureId: signature!.signatureId, reason: 'Sign again after a fix' });

    // Writable again, and signed once: the restore's own answer already shows its stamp asked for.
    const restored = await writer.call(api.noteHistory.restore, { labNoteNo, version: 1, reason: 'The fix' });
    expect(restored.body.status).toBe('0000');
    expect(restored.body.data.version).toBe(2);
    expect(restored.body.data.timestamp?.status).toMatch(/^(pending|stamped)$/);
    // A refused save (a stale version) asks for nothing.
    const stale = await writer.call(api.notes.saveVersion, { labNoteNo, version: 1, blockList: [] });
    expect(stale.body.status).toBe(ERR.conflict);
    expect(await stampOf('version', `${labNoteNo}:3`)).toBeUndefined();

    await eventually(async () => (await history()).every((entry) => entry.timestamp?.status === 'stamped'), 'both versions stamped');
    const [v2, v1] = await history();
    expect(v2!.timestamp).toMatchObject({ status: 'stamped', authority: 'First TSA' });
    const detail = (await writer.call(api.noteHistory.detail, { labNoteNo, version: 2 })).body.data;
    expect(detail.timestamp).toEqual(v2!.timestamp);

    const stamp = await stampOf('version', `${labNoteNo}:2`);
    expect(subjectOf(stamp)).toEqual({
      kind: 'version',
      labNoteNo,
      labNoteNumber: expect.any(String) as string,
      version: 2,
      blocksHash: v2!.blocksHash,
      savedBy: writer.user.userId,
      savedAt: expect.any(String) as string,
    });
    expect(subjectOf(await stampOf('version', `${labNoteNo}:1`))).toMatchObject({ version: 1, blocksHash: v1!.blocksHash });
    expect(await first.opensslVerify(Buffer.from(v2!.timestamp!.token!, 'base64'), stamp.subject)).toBe(true);

    const verified = await reviewer.call(api.timestamps.verify, { kind: 'version', id: `${labNoteNo}:2` });
    expect(verified.body.data).toMatchObject({ status: 'stamped', valid: true, authority: 'First TSA' });
    expect((await outsider.call(api.timestamps.verify, { kind: 'version', id: `${labNoteNo}:2` })).http).toBe(404);
    expect((await writer.call(api.timestamps.verify, { kind: 'version', id: `${labNoteNo}:9` })).http).toBe(404);
  });
});

describe('time-stamps on exports, with the evidence inside the .eln archive and its PDFs', () => {
  it('stamps the file made, pending while the authority is down; the archive carries tokens that openssl ts -verify accepts', async () => {
    await addAuthority(first, 'First TSA');
    const { labNoteNo: stampedNote, signature } = await signed('Evidence stamped');
    await eventually(async () => (await signature()).timestamp?.status === 'stamped', 'signature stamped');
    await eventually(async () => (await stampOf('version', `${stampedNote}:1`))?.status === 'stamped', 'version stamped');
    // The authority goes down: the next note's signature waits, and so will the export's own stamp.
    first.behave({ kind: 'httpError', status: 503 });
    const { labNoteNo: waitingNote, signature: waitingSignature } = await signed('Evidence pending');
    await eventually(async () => ((await stampOf('signature', (await waitingSignature()).signatureId))?.attempts ?? 0) >= 1, 'tried');

    const started = await writer.call(api.exports.create, { format: 'eln', projectNos: [projectNo], timeZone: 'Asia/Seoul' });
    const jobId = started.body.data.list[0]!.jobId;
    expect(started.body.data.list[0]!.timestamp).toBeNull();
    await server.services.exportJobs.idle();
    const job = async () => (await writer.call(api.exports.detail, { jobId })).body.data;
    expect(await job()).toMatchObject({ status: 'done', timestamp: { status: 'pending' } });
    expect((await writer.call(api.exports.list, {})).body.data.list.find((j) => j.jobId === jobId)?.timestamp).toEqual({
      status: 'pending',
    });
    await eventually(async () => ((await stampOf('export', jobId))?.attempts ?? 0) >= 1, 'the export’s stamp tried');
    const verifiedPending = (await writer.call(api.timestamps.verify, { kind: 'export', id: jobId })).body.data;
    expect(verifiedPending).toMatchObject({ status: 'pending', valid: null, token: null });
    expect(verifiedPending.fault).toMatch(/First TSA: httpStatus/);

    // Back up: the export's stamp is over its file's SHA-256, exactly the file one downloads.
    first.behave({ kind: 'ok' });
    await server.database.db
      .update(timestamps)
      .set({ nextAttemptAt: sql`now()` })
      .where(eq(timestamps.status, 'pending'));
    await eventually(async () => (await job()).timestamp?.status === 'stamped', 'export stamped');
    const done = await job();
    const [row] = await server.database.db.select().from(exportJobs).where(eq(exportJobs.jobId, jobId));
    const archive = path.join(server.config.filesDir, row!.storagePath!);
    const fileSha256 = createHash('sha256')
      .update(await readFile(archive))
      .digest('hex');
    const exportStamp = await stampOf('export', jobId);
    expect(subjectOf(exportStamp)).toEqual({
      kind: 'export',
      jobId,
      format: 'eln',
      projectNo,
      fileName: done.fileName,
      size: done.size,
      sha256: fileSha256,
      requestedBy: writer.user.userId,
    });
    expect(done.sha256).toBe(fileSha256);
    expect((await writer.call(api.timestamps.verify, { kind: 'export', id: jobId })).body.data).toMatchObject({ valid: true });
    expect((await outsider.call(api.timestamps.verify, { kind: 'export', id: jobId })).http).toBe(404);
    expect((await writer.call(api.timestamps.verify, { kind: 'export', id: 'not-a-uuid' })).http).toBe(404);

    // The evidence files change nothing for an importing notebook: this one takes its own archive back whole.
    const [adminRow] = await server.database.db.select().from(users).where(eq(users.userId, server.admin.userId));
    const imported = await importElnArchive(
      server.database.db,
      server.config,
      { userNo: adminRow!.userNo, userId: adminRow!.userId, name: adminRow!.name, auth: toAuthFlags(adminRow!) },
      archive,
      { lang: 'en' },
    );
    expect(imported).toMatchObject({ signed: 'thisServer', uncheckedFiles: [] });

    // Unpacked as an inspector would, every command the README gives says "Verification: OK".
    const dir = await mkdtemp(path.join(tmpdir(), 'eln-stamps-'));
    try {
      await run('unzip', ['-q', archive, '-d', dir]);
      const [root] = await readdir(dir);
      const rootDir = path.join(dir, root!);
      const readme = await readFile(path.join(rootDir, 'README.txt'), 'utf8');
      const commands = readme.split('\n').filter((line) => line.trim().startsWith('openssl ts -verify'));
      // The first note's version and signature; the second's are listed as pending, with nothing to check.
      expect(commands).toHaveLength(2);
      expect(readme.split('Time-stamp pending')).toHaveLength(3);
      for (const command of commands) {
        const { stdout } = await run('sh', ['-c', command.trim()], { cwd: rootDir });
        expect(stdout).toContain('Verification: OK');
      }
      // The data files are exactly the bytes stamped: one byte changed and OpenSSL refuses.
      const dataFile = /-data '([^']+)'/.exec(commands[0]!)![1]!;
      expect(await readFile(path.join(rootDir, dataFile))).toEqual(Buffer.from((await stampOf('version', `${stampedNote}:1`)).subject));
      await writeFile(
        path.join(rootDir, dataFile),
        (await readFile(path.join(rootDir, dataFile), 'utf8')).replace('"version":1', '"version":2'),
      );
      await expect(run('sh', ['-c', commands[0]!.trim()], { cwd: rootDir })).rejects.toThrow(
        /Verification: FAILED|message imprint mismatch/,
      );
      // The crate lists every evidence file (and the README) with its SHA-256, so the signed crate covers them too.
      const sums = await readFile(path.join(rootDir, 'SHA256SUMS'), 'utf8');
      expect(sums).toMatch(/ README\.txt\n/);
      expect(sums).toMatch(/timestamps\/signature-\d+\.tsr\n/);

      // The PDFs in the archive print each signature's stamp: time and authority, or honestly pending.
      const pdfText = async (labNoteNo: number) => {
        const [{ labNoteNumber }] = [(await writer.call(api.notes.blockList, { labNoteNo })).body.data.note];
        const folder = path.join(rootDir, 'project', labNoteNumber);
        const pdf = (await readdir(folder)).find((name) => name.endsWith('.pdf'))!;
        return (await run('pdftotext', ['-enc', 'UTF-8', path.join(folder, pdf), '-'])).stdout.replace(/\s+/g, ' ');
      };
      expect(await pdfText(stampedNote)).toMatch(/Time-stamped .+ by First TSA/);
      expect(await pdfText(waitingNote)).toContain('Time-stamp pending');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe("time-stamps on the audit chain's head", () => {
  it('stamps the head when it moved, at most every interval, and verify compares the stamped heads with the chain', async () => {
    const db = server.database.db;
    // No authority: nothing is asked.
    expect(await anchorAuditHead(db, 0)).toBe(false);
    await addAuthority(first, 'First TSA');
    // The stamper anchors on its next pass (none was stamped yet).
    const anchors = () => db.select().from(timestamps).where(eq(timestamps.subjectKind, 'auditAnchor'));
    await eventually(async () => (await anchors())[0]?.status === 'stamped', 'anchored and stamped');
    expect(await anchors()).toHaveLength(1);
    const [anchor] = await anchors();
    const head = subjectOf(anchor!) as { seq: number; hash: string };
    const [record] = await db.select().from(auditLog).where(eq(auditLog.seq, head.seq));
    expect(record!.hash).toBe(head.hash);
    expect(anchor!.subjectId).toBe(String(head.seq));

    // The head moves (an audited change), but the last stamp is recent: nothing more until the interval has passed.
    await addAuthority(second, 'Second TSA');
    expect(await anchorAuditHead(db)).toBe(false);
    await db
      .update(timestamps)
      .set({ createdAt: sql`now() - interval '31 minutes'` })
      .where(eq(timestamps.stampId, anchor!.stampId));
    // Down now: the new head's stamp waits, and verify says so. (The stamper's own pass may be the one that asks.)
    first.behave({ kind: 'httpError', status: 503 });
    second.behave({ kind: 'httpError', status: 503 });
    await anchorAuditHead(db);
    await server.services.timestamps.idle();
    const [newestAnchor] = (await anchors()).sort((a, b) => b.stampId - a.stampId);
    expect(await anchors()).toHaveLength(2);
    expect(subjectOf(newestAnchor!).seq).toBe((await auditChainHead(db))!.seq);
    // The head did not move since: nothing more is asked, however long ago the last one was.
    await db
      .update(timestamps)
      .set({ createdAt: sql`now() - interval '31 minutes'` })
      .where(eq(timestamps.subjectKind, 'auditAnchor'));
    expect(await anchorAuditHead(db)).toBe(false);
    await server.services.timestamps.idle();
    expect(await anchors()).toHaveLength(2);

    const verify = async () => (await admin(api.audit.verify, {})).body.data;
    let verified = await verify();
    expect(verified.stampedHeads).toHaveLength(2);
    expect(verified.stampedHeads[0]).toMatchObject({ result: 'matches', timestamp: { status: 'pending' } });
    expect(verified.stampedHeads[1]).toMatchObject({ seq: head.seq, hash: head.hash, result: 'matches', timestamp: { status: 'stamped' } });
    expect(verified.ok).toBe(true);

    first.behave({ kind: 'ok' });
    await db
      .update(timestamps)
      .set({ nextAttemptAt: sql`now()` })
      .where(eq(timestamps.status, 'pending'));
    await eventually(async () => (await verify()).stampedHeads.every((h) => h.timestamp.status === 'stamped'), 'both heads stamped');
    verified = await verify();
    const newest = verified.stampedHeads[0]!;
    const checked = (await admin(api.timestamps.verify, { kind: 'auditAnchor', id: String(newest.seq) })).body.data;
    expect(checked).toMatchObject({ valid: true, authority: 'First TSA' });
    expect(JSON.parse(checked.subject)).toMatchObject({ kind: 'auditAnchor', seq: newest.seq, hash: newest.hash });
    expect((await writer.call(api.timestamps.verify, { kind: 'auditAnchor', id: String(newest.seq) })).http).toBe(403);

    // A stamped head the chain no longer holds as stamped makes verify fail (here the stamp's record was changed).
    await db
      .update(timestamps)
      .set({ subject: new TextEncoder().encode(canonicalJson({ ...subjectOf(anchor!), hash: 'f'.repeat(64) })) })
      .where(eq(timestamps.stampId, anchor!.stampId));
    verified = await verify();
    expect(verified.stampedHeads[1]).toMatchObject({ seq: head.seq, result: 'differs' });
    expect(verified.ok).toBe(false);
  });
});
