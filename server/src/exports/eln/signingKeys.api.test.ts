import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { count, desc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yazl from 'yazl';
import { api, ERR } from '@eln/shared';
import { auditLog, elnImports, signingKeys, users } from '../../db/schema.js';
import type { Db } from '../../db/client.js';
import { multipartBody } from '../../files/multipartBody.js';
import { startTestServer, type Caller, type TestServer } from '../../testing/harness.js';
import { toAuthFlags } from '../../users/flags.js';
import { exportPublicKey, importElnArchive, type ElnImportUser } from './index.js';
import { recordImport } from './signingKeys.js';
import { generateSigningKey, minisignDigest, minisignPublicKeyFile, minisignSignature, type SigningKey } from './minisign.js';

/**
 * Keys an administrator adds by hand (Admin → Download) and the imports that waited for them: an archive
 * signed by a key unknown here keeps its signature and its metadata's BLAKE2b-512 hash, and is verified
 * when its key is added (or not, by a wrong key of the same id), at once and on demand; each refusal
 * (a malformed key, a key known already, a caller who is not an administrator) changes nothing.
 */

let server: TestServer;
let db: Db;
let work: string;
let admin: Caller;
let member: Caller;
let importer: ElnImportUser;
let importerToken: string;

/** A minimal crate (one root folder, one dataset) whose metadata reads differently per `title`. */
const crateOf = (title: string) =>
  Buffer.from(
    JSON.stringify({
      '@context': 'https://w3id.org/ro/crate/1.1/context',
      '@graph': [
        {
          '@id': 'ro-crate-metadata.json',
          '@type': 'CreativeWork',
          conformsTo: { '@id': 'https://w3id.org/ro/crate/1.1' },
          about: { '@id': './' },
        },
        { '@id': './', '@type': 'Dataset', name: title, hasPart: [{ '@id': 'entry/' }] },
        { '@id': 'entry/', '@type': 'Dataset', name: `${title}: the entry`, text: 'A paragraph.' },
      ],
    }),
  );

/** An archive of `metadata` with a minisign signature by `signer` over `signed` (the metadata itself unless told). */
async function archive(name: string, metadata: Buffer, signer: SigningKey | null, signed: Buffer = metadata): Promise<string> {
  const zip = new yazl.ZipFile();
  zip.addBuffer(metadata, 'root/ro-crate-metadata.json');
  if (signer) {
    const minisig = minisignSignature(signer, signed, {
      untrusted: 'signature',
      trusted: 'https://elsewhere.example/.well-known/keys.json',
    });
    zip.addBuffer(Buffer.from(minisig), 'root/ro-crate-metadata.json.minisig');
  }
  zip.end();
  const target = path.join(work, `${name}.eln`);
  await new Promise<void>((resolve, reject) => zip.outputStream.pipe(createWriteStream(target)).on('close', resolve).on('error', reject));
  return target;
}

const importArchive = (file: string) => importElnArchive(db, server.config, importer, file, { lang: 'en' });

/** What a refusal must leave as it was: the keys, the import records and the audit trail. */
async function state() {
  const [keys] = await db.select({ n: count() }).from(signingKeys);
  const imports = await db.select().from(elnImports).orderBy(elnImports.importNo);
  const [audit] = await db.select({ n: count() }).from(auditLog);
  return { keys: keys!.n, imports, audit: audit!.n };
}

/** A key with `key`'s id but another Ed25519 key: it names the same signer and verifies nothing it signed. */
function impostorOf(key: SigningKey): SigningKey {
  return { ...generateSigningKey(), keyIdBytes: key.keyIdBytes, keyId: key.keyId };
}

async function importsByNo(...importNos: number[]) {
  const list = (await admin(api.exports.imports, {})).body.data.list;
  return importNos.map((no) => list.find((item) => item.importNo === no)!);
}

async function importNoOf(projectNo: number): Promise<number> {
  const [row] = await db.select().from(elnImports).where(eq(elnImports.projectNo, projectNo));
  return row!.importNo;
}

async function lastAudit(action: string) {
  const [row] = await db.select().from(auditLog).where(eq(auditLog.action, action)).orderBy(desc(auditLog.seq)).limit(1);
  return row;
}

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'signing-keys-'));
  server = await startTestServer();
  db = server.database.db;
  server.config.filesDir = path.join(work, 'files');
  admin = await server.as(server.admin);
  const created = await server.createUser({ name: 'Key Importer' });
  member = await server.as(created);
  importerToken = (await server.signIn(created.userId, created.password)).accessToken;
  const [row] = await db.select().from(users).where(eq(users.userId, created.userId));
  importer = { userNo: row!.userNo, userId: row!.userId, name: row!.name, auth: toAuthFlags(row!) };
}, 60_000);

afterAll(async () => {
  await server?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('signing keys added by hand', () => {
  const partner = generateSigningKey();

  it('refuses a malformed key, a key known already, an empty name and a caller who is not an administrator, each changing nothing', async () => {
    const before = await state();
    const pub = minisignPublicKeyFile(partner);
    const refusals: Array<[unknown, string]> = [
      [{ publicKey: 'hello', name: 'Partner lab' }, ERR.elnKeyMalformed],
      // A signature is no key, nor is a key cut short, nor one of another algorithm.
      [
        { publicKey: minisignSignature(partner, Buffer.from('x'), { untrusted: 'u', trusted: 't' }), name: 'Partner lab' },
        ERR.elnKeyMalformed,
      ],
      [{ publicKey: pub.slice(0, -10), name: 'Partner lab' }, ERR.elnKeyMalformed],
      [{ publicKey: pub.replace(/\n(..)/, '\nRX'), name: 'Partner lab' }, ERR.elnKeyMalformed],
      // This server's own export key is known already.
      [{ publicKey: (await exportPublicKey(db)).minisignPub, name: 'Ourselves' }, ERR.elnKeyExists],
      [{ publicKey: pub, name: '   ' }, ERR.validation],
      [{ publicKey: pub, name: 'x'.repeat(101) }, ERR.validation],
      [{ publicKey: pub, name: 'Partner lab', extra: 1 }, ERR.validation],
    ];
    for (const [body, code] of refusals) expect((await admin(api.exports.addKey, body)).body.status, JSON.stringify(body)).toBe(code);
    const asMember = await member(api.exports.addKey, { publicKey: pub, name: 'Partner lab' });
    expect([asMember.http, asMember.body.status]).toEqual([403, ERR.forbidden]);
    for (const call of [api.exports.knownKeys, api.exports.imports]) expect((await member(call, {})).http).toBe(403);
    expect((await admin(api.exports.removeKey, { keyNo: 999 })).body.status).toBe(ERR.notFound);
    expect(await state()).toEqual(before);
  });

  it('adds a key with its name and organisation, lists it with who added it, refuses it twice, and removes it; both audited', async () => {
    const added = await admin(api.exports.addKey, {
      // The key line alone reads as its .pub file does.
      publicKey: minisignPublicKeyFile(partner).split('\n')[1],
      name: 'Partner lab notebook',
      organisation: 'Institute of Examples',
    });
    expect(added.body).toMatchObject({ status: '0000', data: { keyId: partner.keyId, verified: 0, mismatched: 0 } });
    const keyNo = added.body.data.keyNo;
    const known = (await admin(api.exports.knownKeys, {})).body.data;
    expect(known.abilities).toEqual({ add: true });
    expect(known.list[0]).toMatchObject({ source: 'thisServer', abilities: { remove: false }, added: null });
    expect(known.list.find((key) => key.keyId === partner.keyId)).toMatchObject({
      source: 'addedKey',
      fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/) as string,
      imports: 0,
      added: { keyNo, name: 'Partner lab notebook', organisation: 'Institute of Examples', addedBy: expect.any(String) as string },
      abilities: { remove: true },
    });
    expect(await lastAudit('export.keyAdded')).toMatchObject({
      targetType: 'signingKey',
      targetId: String(keyNo),
      after: { keyId: partner.keyId, name: 'Partner lab notebook', organisation: 'Institute of Examples', importsVerified: [] },
    });

    const before = await state();
    const again = await admin(api.exports.addKey, { publicKey: minisignPublicKeyFile(partner), name: 'Twice' });
    expect([again.http, again.body.status]).toEqual([409, ERR.elnKeyExists]);
    expect(again.body.message).toContain(partner.keyId);
    const removeAsMember = await member(api.exports.removeKey, { keyNo });
    expect(removeAsMember.http).toBe(403);
    expect(await state()).toEqual(before);

    expect((await admin(api.exports.removeKey, { keyNo })).body.status).toBe('0000');
    expect((await admin(api.exports.knownKeys, {})).body.data.list.some((key) => key.keyId === partner.keyId)).toBe(false);
    expect(await lastAudit('export.keyRemoved')).toMatchObject({ targetId: String(keyNo), before: { keyId: partner.keyId } });
    expect((await admin(api.exports.removeKey, { keyNo })).body.status).toBe(ERR.notFound);
  });
});

describe('an archive signed by a key unknown here', () => {
  const stranger = generateSigningKey();

  it('keeps the metadata hash and signature, stays unverified under a wrong key, and is verified once its key is added', async () => {
    const metadata = crateOf('Stranger project');
    const imported = await importArchive(await archive('stranger', metadata, stranger));
    expect(imported).toMatchObject({ signed: 'unknownKey', keyId: stranger.keyId, keyName: null });
    // A second archive by the same key whose metadata was changed after signing.
    const changed = await importArchive(await archive('changed', crateOf('Changed project'), stranger, crateOf('Signed project')));
    expect(changed.signed).toBe('unknownKey');
    const first = await importNoOf(imported.projectNo);
    const second = await importNoOf(changed.projectNo);
    const [record] = await db.select().from(elnImports).where(eq(elnImports.importNo, first));
    expect(record).toMatchObject({ signed: 'unknownKey', keyId: stranger.keyId, keyNo: null, check: null });
    expect(Buffer.from(record!.metadataBlake2b!).equals(minisignDigest(metadata))).toBe(true);
    expect(record!.minisig).toContain('trusted comment: https://elsewhere.example/.well-known/keys.json');
    expect(await importsByNo(first, second)).toMatchObject([
      { signature: 'unknownKey', keyId: stranger.keyId, keyName: null, abilities: { verify: true } },
      { signature: 'unknownKey' },
    ]);

    // On demand, with no key of its id added: still waiting (audited).
    const waiting = await admin(api.exports.verifyImport, { importNo: first });
    expect(waiting.body.data).toMatchObject({ signature: 'unknownKey', checkedAt: null });

    // A key that names the same id but is another key verifies neither.
    const impostor = impostorOf(stranger);
    const wrong = await admin(api.exports.addKey, { publicKey: minisignPublicKeyFile(impostor), name: 'Not them' });
    expect(wrong.body.data).toMatchObject({ verified: 0, mismatched: 2 });
    expect(await importsByNo(first, second)).toMatchObject([
      { signature: 'mismatch', keyName: 'Not them' },
      { signature: 'mismatch', keyName: 'Not them' },
    ]);
    // A key of another id leaves them alone.
    expect(
      (await admin(api.exports.addKey, { publicKey: minisignPublicKeyFile(generateSigningKey()), name: 'Unrelated' })).body.data,
    ).toMatchObject({
      verified: 0,
      mismatched: 0,
    });

    // The wrong key removed, the imports wait again; the right key added verifies the untouched one.
    expect((await admin(api.exports.removeKey, { keyNo: wrong.body.data.keyNo })).body.status).toBe('0000');
    expect(await lastAudit('export.keyRemoved')).toMatchObject({ after: { importsWaitingAgain: [first, second] } });
    expect(await importsByNo(first, second)).toMatchObject([{ signature: 'unknownKey' }, { signature: 'unknownKey' }]);
    const right = await admin(api.exports.addKey, {
      publicKey: minisignPublicKeyFile(stranger),
      name: 'Stranger notebook',
      organisation: 'Elsewhere University',
    });
    expect(right.body.data).toMatchObject({ verified: 1, mismatched: 1 });
    expect(await lastAudit('export.keyAdded')).toMatchObject({ after: { importsVerified: [first], importsNotMatching: [second] } });
    const [verified, mismatched] = await importsByNo(first, second);
    expect(verified).toMatchObject({
      signature: 'addedKey',
      keyName: 'Stranger notebook',
      keyOrganisation: 'Elsewhere University',
      checkedAt: expect.any(String) as string,
    });
    expect(mismatched).toMatchObject({ signature: 'mismatch', keyName: 'Stranger notebook' });

    // On demand again: the same outcome, audited.
    const again = await admin(api.exports.verifyImport, { importNo: first });
    expect(again.body.data).toMatchObject({ signature: 'addedKey', keyName: 'Stranger notebook' });
    expect(await lastAudit('export.importChecked')).toMatchObject({
      targetId: String(imported.projectNo),
      before: { importNo: first, signature: 'addedKey' },
      after: { importNo: first, signature: 'addedKey', keyName: 'Stranger notebook' },
    });
    const known = (await admin(api.exports.knownKeys, {})).body.data.list.find((key) => key.keyId === stranger.keyId);
    expect(known).toMatchObject({ source: 'addedKey', imports: 2 });
  });

  it('verifies a later archive by an added key at import, and refuses one that key does not verify (8004)', async () => {
    const later = generateSigningKey();
    expect((await admin(api.exports.addKey, { publicKey: minisignPublicKeyFile(later), name: 'Later lab' })).body.status).toBe('0000');
    // Through the import route, as the download page sends it.
    const file = await archive('later', crateOf('Later project'), later);
    const { payload, contentType } = multipartBody({}, { name: 'later.eln', content: await readFile(file) });
    const response = await server.app.inject({
      method: 'POST',
      url: `/server${api.exports.importEln.path}`,
      payload,
      headers: { 'content-type': contentType, authorization: `Bearer ${importerToken}` },
    });
    const answer = response.json<{ status: string; data: { projectNo: number; signed: string; keyName: string } }>();
    expect(answer).toMatchObject({ status: '0000', data: { signed: 'addedKey', keyName: 'Later lab' } });
    const [item] = await importsByNo(await importNoOf(answer.data.projectNo));
    expect(item).toMatchObject({ signature: 'addedKey', keyName: 'Later lab', abilities: { verify: true } });

    const before = await state();
    await expect(importArchive(await archive('later-changed', crateOf('Changed'), later, crateOf('Signed')))).rejects.toMatchObject({
      code: ERR.elnSignature,
    });
    expect(await state()).toEqual(before);
  });

  it('checks an import whose key was added while it was under way (after its archive was checked, before its record)', async () => {
    const racing = generateSigningKey();
    const metadata = crateOf('Racing project');
    const imported = await importArchive(await archive('racing', metadata, racing));
    expect(imported.signed).toBe('unknownKey');
    expect((await admin(api.exports.addKey, { publicKey: minisignPublicKeyFile(racing), name: 'Racing lab' })).body.data.verified).toBe(1);
    // The record of a second import of the same archive, checked before the key came: written after it.
    const [first] = await db.select().from(elnImports).where(eq(elnImports.projectNo, imported.projectNo));
    const importNo = await db.transaction((tx) =>
      recordImport(tx, {
        projectNo: imported.projectNo,
        archiveName: 'racing-again.eln',
        importedByUserNo: importer.userNo,
        signed: 'unknownKey',
        keyId: racing.keyId,
        metadataBlake2b: first!.metadataBlake2b,
        minisig: first!.minisig,
      }),
    );
    expect((await importsByNo(importNo))[0]).toMatchObject({ signature: 'addedKey', keyName: 'Racing lab' });
  });

  it('has nothing to verify for an unsigned import (8022), and no one else may ask (403), changing nothing', async () => {
    const unsigned = await importArchive(await archive('unsigned', crateOf('Unsigned project'), null));
    const importNo = await importNoOf(unsigned.projectNo);
    expect((await importsByNo(importNo))[0]).toMatchObject({ signature: 'unsigned', keyId: null, abilities: { verify: false } });
    const before = await state();
    expect((await admin(api.exports.verifyImport, { importNo })).body.status).toBe(ERR.elnImportNothingToVerify);
    expect((await admin(api.exports.verifyImport, { importNo: 99_999 })).body.status).toBe(ERR.notFound);
    const [waiting] = await db
      .select()
      .from(elnImports)
      .where(inArray(elnImports.signed, ['unknownKey']));
    const asMember = await member(api.exports.verifyImport, { importNo: waiting!.importNo });
    expect([asMember.http, asMember.body.status]).toEqual([403, ERR.forbidden]);
    expect(await state()).toEqual(before);
  });
});
