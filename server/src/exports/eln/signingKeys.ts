import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import {
  ERR,
  SIGNING_KEY_LIMITS,
  type CallRequest,
  type ElnImportRecord,
  type ElnImportSignature,
  type KnownSigningKeys,
  type SigningKeyAddAnswer,
  type api,
} from '@eln/shared';
import { appendAudit, auditedActor } from '../../audit/audit.js';
import type { Actor, AuthUser } from '../../auth/authUser.js';
import type { Db, Queryable, Tx } from '../../db/client.js';
import { auditLog, elnImports, projects, signingKeys, users } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import { enforce } from '../../http/verdicts.js';
import { canManageSigningKeys, SIGNING_KEYS_REFUSALS } from '../policy.js';
import {
  exportKeyCreatedAt,
  exportSigningKey,
  existingExportKey,
  keyFingerprint,
  MinisignError,
  minisignPublicKeyFile,
  parseMinisignPublicKey,
  verifyMinisignDigest,
  type PublicKey,
} from './minisign.js';

/*
 * The minisign keys an administrator adds by hand, so that .eln archives another notebook signed verify
 * here, and the record each import keeps: whose key signed it and, for a key unknown at import, the
 * signature and the metadata's BLAKE2b-512 hash to verify it against the key once it is added (at once
 * for every import waiting for it, and again on demand).
 */

type KeyRow = typeof signingKeys.$inferSelect;
type ImportRow = typeof elnImports.$inferSelect;

const publicKeyOf = (row: Pick<KeyRow, 'keyId' | 'publicKey'>): PublicKey => ({
  keyId: row.keyId,
  keyIdBytes: Buffer.from(row.keyId, 'hex').reverse(),
  publicKeyBytes: Buffer.from(row.publicKey, 'base64'),
});

/** The added key of this id, if there is one (the importer verifies with it). */
export async function addedSigningKey(q: Queryable, keyId: string): Promise<{ keyNo: number; name: string; key: PublicKey } | null> {
  const [row] = await q.select().from(signingKeys).where(eq(signingKeys.keyId, keyId));
  return row ? { keyNo: row.keyNo, name: row.name, key: publicKeyOf(row) } : null;
}

/**
 * Serialises, for one key id, an import's record and the key's addition: whichever commits second sees the
 * other, so an import under way while its key is added is not left waiting.
 */
const lockKeyId = (tx: Tx, keyId: string) => tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`eln-key:${keyId}`}))`);

/**
 * Keeps an import's record in the import's transaction; answers its number. One signed by a key unknown
 * when the archive was checked is checked here against a key of its id added since.
 */
export async function recordImport(tx: Tx, values: typeof elnImports.$inferInsert): Promise<number> {
  let settled = {};
  if (values.signed === 'unknownKey' && values.keyId) {
    await lockKeyId(tx, values.keyId);
    const added = await addedSigningKey(tx, values.keyId);
    if (added) settled = { keyNo: added.keyNo, check: checkKept(added.key, values), checkedAt: new Date() };
  }
  const [row] = await tx
    .insert(elnImports)
    .values({ ...values, ...settled })
    .returning({ importNo: elnImports.importNo });
  if (!row) throw new Error('the import record was not stored');
  return row.importNo;
}

/** A signature kept at import checked against `key`: verified, or not matching (a changed file, another key, a legacy signature). */
function checkKept(key: PublicKey, row: { metadataBlake2b?: Uint8Array | null; minisig?: string | null }): 'verified' | 'mismatch' {
  if (!row.metadataBlake2b || !row.minisig) return 'mismatch';
  try {
    verifyMinisignDigest(key, row.metadataBlake2b, row.minisig);
    return 'verified';
  } catch (error) {
    if (error instanceof MinisignError) return 'mismatch';
    throw error;
  }
}

/** The imports a key of this id may settle: signed by a key not known at import (or whose added key was removed), not checked since. */
const waitingFor = (keyId: string) =>
  and(eq(elnImports.keyId, keyId), inArray(elnImports.signed, ['unknownKey', 'addedKey']), isNull(elnImports.keyNo));

function readPublicKey(text: string): PublicKey {
  // The key line alone (as `minisign -P` takes it) is read as the .pub file it comes from.
  const lines = text.trim().split(/\r?\n/);
  try {
    return parseMinisignPublicKey(lines.length === 1 ? `untrusted comment: minisign public key\n${lines[0]}` : text);
  } catch (error) {
    if (error instanceof MinisignError) throw new AppError(ERR.elnKeyMalformed, { cause: error, data: { detail: error.message } });
    throw error;
  }
}

/**
 * Adds a key (8020 when it does not read as a minisign Ed25519 public key, 8021 when its id is this
 * server's or already added), then checks every import waiting for its id against it; one audit record
 * names the key and the imports it settled.
 */
export async function addSigningKey(db: Db, actor: Actor, input: CallRequest<typeof api.exports.addKey>): Promise<SigningKeyAddAnswer> {
  enforce(canManageSigningKeys(actor.user), SIGNING_KEYS_REFUSALS);
  const key = readPublicKey(input.publicKey);
  const own = await existingExportKey(db);
  if (own?.keyId === key.keyId) throw new AppError(ERR.elnKeyExists, { params: { keyId: key.keyId } });
  return db.transaction(async (tx) => {
    await lockKeyId(tx, key.keyId);
    const [row] = await tx
      .insert(signingKeys)
      .values({
        keyId: key.keyId,
        publicKey: key.publicKeyBytes.toString('base64'),
        name: input.name,
        organisation: input.organisation ?? '',
        addedByUserNo: actor.user.userNo,
      })
      .onConflictDoNothing()
      .returning();
    if (!row) throw new AppError(ERR.elnKeyExists, { params: { keyId: key.keyId } });
    const waiting = await tx.select().from(elnImports).where(waitingFor(key.keyId)).orderBy(asc(elnImports.importNo)).for('update');
    const settled = { verified: [] as number[], mismatch: [] as number[] };
    const checkedAt = new Date();
    for (const item of waiting) {
      const check = checkKept(key, item);
      await tx.update(elnImports).set({ keyNo: row.keyNo, check, checkedAt }).where(eq(elnImports.importNo, item.importNo));
      settled[check].push(item.importNo);
    }
    await appendAudit(tx, {
      ...auditedActor(actor),
      action: 'export.keyAdded',
      target: { type: 'signingKey', id: row.keyNo },
      after: {
        keyId: row.keyId,
        name: row.name,
        organisation: row.organisation,
        fingerprint: keyFingerprint(key),
        importsVerified: settled.verified,
        importsNotMatching: settled.mismatch,
      },
    });
    return { keyNo: row.keyNo, keyId: row.keyId, verified: settled.verified.length, mismatched: settled.mismatch.length };
  });
}

/** Removes an added key (404 when there is none); the imports it settled wait for their key again. Audited. */
export async function removeSigningKey(db: Db, actor: Actor, input: CallRequest<typeof api.exports.removeKey>): Promise<null> {
  enforce(canManageSigningKeys(actor.user), SIGNING_KEYS_REFUSALS);
  await db.transaction(async (tx) => {
    const [row] = await tx.select().from(signingKeys).where(eq(signingKeys.keyNo, input.keyNo)).for('update');
    if (!row) throw new AppError(ERR.notFound);
    const reopened = await tx
      .update(elnImports)
      .set({ keyNo: null, check: null, checkedAt: null })
      .where(eq(elnImports.keyNo, row.keyNo))
      .returning({ importNo: elnImports.importNo });
    await tx.delete(signingKeys).where(eq(signingKeys.keyNo, row.keyNo));
    await appendAudit(tx, {
      ...auditedActor(actor),
      action: 'export.keyRemoved',
      target: { type: 'signingKey', id: row.keyNo },
      before: { keyId: row.keyId, name: row.name, organisation: row.organisation, fingerprint: keyFingerprint(publicKeyOf(row)) },
      after: { importsWaitingAgain: reopened.map((r) => r.importNo) },
    });
  });
  return null;
}

/** An import's signature as it stands now: one by an unknown key settles once a key of its id checked it. */
function standing(row: Pick<ImportRow, 'signed' | 'keyNo' | 'check'>): ElnImportSignature {
  if (row.signed !== 'unknownKey' && row.signed !== 'addedKey') return row.signed;
  if (row.keyNo === null || row.check === null) return 'unknownKey';
  return row.check === 'verified' ? 'addedKey' : 'mismatch';
}

const importColumns = {
  row: elnImports,
  projectTitle: projects.title,
  importedBy: users.name,
  keyName: signingKeys.name,
  keyOrganisation: signingKeys.organisation,
};

function selectImports(q: Queryable) {
  return q
    .select(importColumns)
    .from(elnImports)
    .innerJoin(projects, eq(projects.projectNo, elnImports.projectNo))
    .innerJoin(users, eq(users.userNo, elnImports.importedByUserNo))
    .leftJoin(signingKeys, eq(signingKeys.keyNo, elnImports.keyNo));
}

type ImportListRow = Awaited<ReturnType<typeof selectImports>>[number];

function toImportRecord(
  user: Pick<AuthUser, 'level'>,
  { row, projectTitle, importedBy, keyName, keyOrganisation }: ImportListRow,
): ElnImportRecord {
  const signature = standing(row);
  const named = signature === 'addedKey' || signature === 'mismatch';
  return {
    importNo: row.importNo,
    projectNo: row.projectNo,
    projectTitle,
    archiveName: row.archiveName,
    importedBy,
    importedAt: row.createdAt.toISOString(),
    signature,
    keyId: row.keyId,
    keyName: named ? keyName : null,
    keyOrganisation: named ? keyOrganisation : null,
    checkedAt: row.checkedAt?.toISOString() ?? null,
    abilities: {
      verify: canManageSigningKeys(user) === 'allowed' && (row.signed === 'unknownKey' || row.signed === 'addedKey'),
    },
  };
}

/** The imports, newest first, each with its signature's standing. */
export async function listImports(db: Db, user: AuthUser): Promise<{ list: ElnImportRecord[] }> {
  const rows = await selectImports(db).orderBy(desc(elnImports.importNo)).limit(SIGNING_KEY_LIMITS.importList);
  return { list: rows.map((row) => toImportRecord(user, row)) };
}

/**
 * Checks one import's kept signature against the added key of its id now (8022 for an unsigned import
 * or one another key verified at import): verified or not matching, or waiting again when no key of its
 * id is added. Audited with the outcome.
 */
export async function verifyImport(db: Db, actor: Actor, input: CallRequest<typeof api.exports.verifyImport>): Promise<ElnImportRecord> {
  enforce(canManageSigningKeys(actor.user), SIGNING_KEYS_REFUSALS);
  await db.transaction(async (tx) => {
    const [row] = await tx.select().from(elnImports).where(eq(elnImports.importNo, input.importNo)).for('update');
    if (!row) throw new AppError(ERR.notFound);
    if ((row.signed !== 'unknownKey' && row.signed !== 'addedKey') || !row.keyId) throw new AppError(ERR.elnImportNothingToVerify);
    const added = await addedSigningKey(tx, row.keyId);
    const check = added ? checkKept(added.key, row) : null;
    await tx
      .update(elnImports)
      .set({ keyNo: added?.keyNo ?? null, check, checkedAt: added ? new Date() : null })
      .where(eq(elnImports.importNo, row.importNo));
    await appendAudit(tx, {
      ...auditedActor(actor),
      action: 'export.importChecked',
      target: { type: 'project', id: row.projectNo },
      before: { importNo: row.importNo, signature: standing(row) },
      after: {
        importNo: row.importNo,
        keyId: row.keyId,
        keyName: added?.name ?? null,
        signature: standing({ ...row, keyNo: added?.keyNo ?? null, check }),
      },
    });
  });
  const [updated] = await selectImports(db).where(eq(elnImports.importNo, input.importNo));
  return toImportRecord(actor.user, updated!);
}

/**
 * The minisign keys this notebook knows, for administrators: its own export key (the one
 * /.well-known/keys.json publishes and every archive's signature names), the keys added by hand, then each
 * other key that signed an imported archive, read from the imports' audit records (which go back before
 * the import records): `otherKey` when the key the archive shipped verified it, `unknownKey` when the
 * signature named a key neither shipped nor known here.
 */
export async function knownSigningKeys(db: Db, user: AuthUser): Promise<KnownSigningKeys> {
  const own = await exportSigningKey(db);
  const manage = canManageSigningKeys(user) === 'allowed';
  const signed = sql<string>`${auditLog.after}->>'signed'`;
  const keyId = sql<string>`${auditLog.after}->>'keyId'`;
  const seen = await db
    .select({
      keyId,
      verified: sql<boolean>`bool_or(${signed} in ('thisServer', 'otherKey'))`,
      firstSeen: sql<Date>`min(${auditLog.at})`.mapWith(auditLog.at),
      imports: sql<number>`count(*)::int`,
    })
    .from(auditLog)
    .where(and(eq(auditLog.action, 'export.imported'), sql`${keyId} is not null`))
    .groupBy(keyId)
    .orderBy(sql`min(${auditLog.at})`);
  const importsOf = (id: string) => Number(seen.find((row) => row.keyId === id)?.imports ?? 0);
  const added = await db
    .select({ row: signingKeys, addedBy: users.name })
    .from(signingKeys)
    .innerJoin(users, eq(users.userNo, signingKeys.addedByUserNo))
    .orderBy(asc(signingKeys.createdAt), asc(signingKeys.keyNo));
  const addedIds = new Set(added.map(({ row }) => row.keyId));
  return {
    abilities: { add: manage },
    list: [
      {
        keyId: own.keyId,
        source: 'thisServer',
        fingerprint: keyFingerprint(own),
        addedAt: (await exportKeyCreatedAt(db)).toISOString(),
        imports: importsOf(own.keyId),
        added: null,
        abilities: { remove: false },
      },
      ...added.map(({ row, addedBy }) => {
        const key = publicKeyOf(row);
        return {
          keyId: row.keyId,
          source: 'addedKey' as const,
          fingerprint: keyFingerprint(key),
          addedAt: row.createdAt.toISOString(),
          imports: importsOf(row.keyId),
          added: { keyNo: row.keyNo, name: row.name, organisation: row.organisation, addedBy, minisignPub: minisignPublicKeyFile(key) },
          abilities: { remove: manage },
        };
      }),
      ...seen
        .filter((row) => row.keyId !== own.keyId && !addedIds.has(row.keyId))
        .map((row) => ({
          keyId: row.keyId,
          source: row.verified ? ('otherKey' as const) : ('unknownKey' as const),
          fingerprint: null,
          addedAt: row.firstSeen.toISOString(),
          imports: Number(row.imports),
          added: null,
          abilities: { remove: false },
        })),
    ],
  };
}
