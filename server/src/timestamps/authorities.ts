import { asc, count, desc, eq, gt, lt, max } from 'drizzle-orm';
import { ERR, TIMESTAMP_LIMITS, type api, type CallRequest } from '@eln/shared';
import { appendAudit, auditedActor } from '../audit/audit.js';
import type { Actor } from '../auth/authUser.js';
import type { Db } from '../db/client.js';
import { timestampAuthorities, timestamps } from '../db/schema.js';
import { AppError } from '../http/errors.js';
import { describeCertificates, expiresSoon, readChain } from './chains.js';
import { checkToken, fetchToken, tokenCertificates, TokenError } from './tsp.js';
import { subjectBytes } from './queue.js';

type CreateInput = CallRequest<typeof api.timestamps.create>;
type UpdateInput = CallRequest<typeof api.timestamps.update>;

/** What the audit keeps of an authority: never its password. */
function audited(row: typeof timestampAuthorities.$inferSelect) {
  return {
    name: row.name,
    url: row.url,
    username: row.username,
    policy: row.policy,
    hash: row.hash,
    chainExpiresAt: row.chainExpiresAt.toISOString(),
    position: row.position,
    enabled: row.enabled,
  };
}

/** The authorities in the order they are tried, with their chains read, and how the queue stands. */
export async function listAuthorities(db: Db) {
  const rows = await db.select().from(timestampAuthorities).orderBy(asc(timestampAuthorities.position));
  const counts = await db.select({ status: timestamps.status, n: count() }).from(timestamps).groupBy(timestamps.status);
  const countOf = (status: string) => Number(counts.find((c) => c.status === status)?.n ?? 0);
  return {
    list: rows.map((row) => ({
      authorityNo: row.authorityNo,
      name: row.name,
      url: row.url,
      username: row.username ?? '',
      hasPassword: Boolean(row.password),
      policy: row.policy ?? '',
      hash: row.hash,
      chainPem: row.chainPem,
      certificates: readChain(row.chainPem).certificates,
      chainExpiresAt: row.chainExpiresAt.toISOString(),
      expiresSoon: expiresSoon(row.chainExpiresAt),
      position: row.position,
      enabled: row.enabled,
    })),
    queue: { pending: countOf('pending'), failed: countOf('failed'), stamped: countOf('stamped') },
  };
}

export async function createAuthority(db: Db, actor: Actor, input: CreateInput): Promise<{ authorityNo: number }> {
  const chain = readChain(input.chainPem);
  return db.transaction(async (tx) => {
    const [last] = await tx.select({ position: max(timestampAuthorities.position) }).from(timestampAuthorities);
    const [row] = await tx
      .insert(timestampAuthorities)
      .values({
        name: input.name,
        url: input.url,
        username: input.username || null,
        password: input.password || null,
        policy: input.policy || null,
        hash: input.hash,
        chainPem: input.chainPem,
        chainExpiresAt: chain.expiresAt,
        position: (last?.position ?? 0) + 1,
        enabled: input.enabled,
      })
      .returning();
    if (!row) throw new Error('the authority was not stored');
    await appendAudit(tx, {
      ...auditedActor(actor),
      action: 'timestamp.authorityCreated',
      target: { type: 'timestampAuthority', id: row.authorityNo },
      after: audited(row),
    });
    return { authorityNo: row.authorityNo };
  });
}

export async function updateAuthority(db: Db, actor: Actor, input: UpdateInput): Promise<null> {
  const chain = readChain(input.chainPem);
  await db.transaction(async (tx) => {
    const [before] = await tx
      .select()
      .from(timestampAuthorities)
      .where(eq(timestampAuthorities.authorityNo, input.authorityNo))
      .for('update');
    if (!before) throw new AppError(ERR.notFound);
    const [after] = await tx
      .update(timestampAuthorities)
      .set({
        name: input.name,
        url: input.url,
        username: input.username || null,
        ...(input.password !== undefined ? { password: input.password || null } : {}),
        policy: input.policy || null,
        hash: input.hash,
        chainPem: input.chainPem,
        chainExpiresAt: chain.expiresAt,
        enabled: input.enabled,
        updatedAt: new Date(),
      })
      .where(eq(timestampAuthorities.authorityNo, input.authorityNo))
      .returning();
    if (!after) throw new AppError(ERR.notFound);
    await appendAudit(tx, {
      ...auditedActor(actor),
      action: 'timestamp.authorityUpdated',
      target: { type: 'timestampAuthority', id: input.authorityNo },
      before: audited(before),
      after: { ...audited(after), passwordChanged: input.password !== undefined },
    });
  });
  return null;
}

/** Swaps an authority with its neighbour in the order they are tried. */
export async function moveAuthority(db: Db, actor: Actor, input: CallRequest<typeof api.timestamps.move>): Promise<null> {
  await db.transaction(async (tx) => {
    const [row] = await tx.select().from(timestampAuthorities).where(eq(timestampAuthorities.authorityNo, input.authorityNo)).for('update');
    if (!row) throw new AppError(ERR.notFound);
    const [neighbour] = await tx
      .select()
      .from(timestampAuthorities)
      .where(input.direction === 'up' ? lt(timestampAuthorities.position, row.position) : gt(timestampAuthorities.position, row.position))
      .orderBy(input.direction === 'up' ? desc(timestampAuthorities.position) : asc(timestampAuthorities.position))
      .limit(1)
      .for('update');
    if (!neighbour) return;
    await tx
      .update(timestampAuthorities)
      .set({ position: neighbour.position })
      .where(eq(timestampAuthorities.authorityNo, row.authorityNo));
    await tx
      .update(timestampAuthorities)
      .set({ position: row.position })
      .where(eq(timestampAuthorities.authorityNo, neighbour.authorityNo));
    await appendAudit(tx, {
      ...auditedActor(actor),
      action: 'timestamp.authorityMoved',
      target: { type: 'timestampAuthority', id: row.authorityNo },
      before: { position: row.position },
      after: { position: neighbour.position },
    });
  });
  return null;
}

export async function deleteAuthority(db: Db, actor: Actor, input: CallRequest<typeof api.timestamps.delete>): Promise<null> {
  await db.transaction(async (tx) => {
    const [row] = await tx.select().from(timestampAuthorities).where(eq(timestampAuthorities.authorityNo, input.authorityNo)).for('update');
    if (!row) throw new AppError(ERR.notFound);
    // Tokens it gave keep their chain (timestamps.chain_pem) and its name; only the link goes.
    await tx.update(timestamps).set({ authorityNo: null }).where(eq(timestamps.authorityNo, row.authorityNo));
    await tx.delete(timestampAuthorities).where(eq(timestampAuthorities.authorityNo, row.authorityNo));
    await appendAudit(tx, {
      ...auditedActor(actor),
      action: 'timestamp.authorityDeleted',
      target: { type: 'timestampAuthority', id: row.authorityNo },
      before: audited(row),
    });
  });
  return null;
}

/** Puts failed stamps back in the queue, to be tried now. */
export async function retryFailed(db: Db, actor: Actor): Promise<{ requeued: number }> {
  return db.transaction(async (tx) => {
    const rows = await tx
      .update(timestamps)
      .set({ status: 'pending', attempts: 0, nextAttemptAt: new Date(), claimedUntil: null })
      .where(eq(timestamps.status, 'failed'))
      .returning({ stampId: timestamps.stampId });
    if (rows.length > 0) {
      await appendAudit(tx, { ...auditedActor(actor), action: 'timestamp.requeued', target: null, after: { count: rows.length } });
    }
    return { requeued: rows.length };
  });
}

/**
 * Asks an authority for a token over a test text and answers the certificates the token carries, its
 * signature checked with them but their chain not (nothing is trusted yet): what an administrator sees
 * before setting up an authority found by its URL alone, whose root they then upload.
 */
export async function probeAuthority(input: CallRequest<typeof api.timestamps.probe>) {
  const data = subjectBytes({ kind: 'probe', at: new Date().toISOString() });
  const endpoint = {
    ...input,
    username: input.username || null,
    policy: input.policy || null,
    timeoutMs: TIMESTAMP_LIMITS.requestTimeoutMs,
  };
  try {
    const { token, nonce } = await fetchToken(endpoint, data);
    const certificates = describeCertificates(tokenCertificates(token));
    const checked = await checkToken(token, data, null, { nonce, policy: endpoint.policy });
    return { certificates, genTime: checked.genTime.toISOString(), policy: checked.policy };
  } catch (error) {
    if (!(error instanceof TokenError)) throw error;
    throw new AppError(ERR.timestampAuthorityFailed, { params: { reason: error.message } });
  }
}
