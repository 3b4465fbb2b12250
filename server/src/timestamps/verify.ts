import { and, eq } from 'drizzle-orm';
import { ERR, type api, type CallRequest } from '@eln/shared';
import type { AuthUser } from '../auth/authUser.js';
import type { Db } from '../db/client.js';
import { timestamps } from '../db/schema.js';
import { AppError } from '../http/errors.js';
import { requireStampReader } from './policy.js';
import { checkToken, TokenError } from './tsp.js';

/**
 * Re-verifies a record's stored token now, from what is stored alone: the token, the exact bytes stamped
 * and the chain it was accepted with. A token that no longer proves its record says why.
 */
export async function verifyTimestamp(db: Db, user: AuthUser, input: CallRequest<typeof api.timestamps.verify>) {
  await requireStampReader(db, user, input.kind, input.id);
  const [stamp] = await db
    .select()
    .from(timestamps)
    .where(and(eq(timestamps.subjectKind, input.kind), eq(timestamps.subjectId, input.id)));
  if (!stamp) throw new AppError(ERR.notFound);
  const base = {
    status: stamp.status,
    genTime: stamp.genTime?.toISOString() ?? null,
    authority: stamp.authorityName,
    policy: stamp.policy,
    serial: stamp.serial,
    hash: stamp.hash,
    subject: new TextDecoder().decode(stamp.subject),
    token: stamp.token ? Buffer.from(stamp.token).toString('base64') : null,
    chainPem: stamp.chainPem,
  };
  if (stamp.status !== 'stamped' || !stamp.token || !stamp.chainPem) return { ...base, valid: null, fault: stamp.lastError, signer: null };
  try {
    const checked = await checkToken(stamp.token, stamp.subject, stamp.chainPem);
    return { ...base, valid: true, fault: null, signer: checked.signer.subject, genTime: checked.genTime.toISOString() };
  } catch (error) {
    if (!(error instanceof TokenError)) throw error;
    return { ...base, valid: false, fault: error.message, signer: null };
  }
}
