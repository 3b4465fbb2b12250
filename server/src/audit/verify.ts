import type { AuditAnchorCheck, AuditAnchorResult, AuditChainHead, AuditVerifyAnswer, CallRequest, api } from '@eln/shared';
import type { Db } from '../db/client.js';
import { latestStampedHeads } from '../timestamps/auditAnchors.js';
import { timestampInfoOf } from '../timestamps/queue.js';
import type { AuditAnchor } from './anchor.js';
import { auditChainHead, auditHashAt, verifyAuditChain } from './audit.js';

type KeptHead = Omit<AuditAnchorCheck, 'result'>;

/**
 * Verifies the trail: the chain itself (verifyAuditChain), then each head kept outside the database
 * against it: the one this server last wrote to its anchor file, the one an export names when the
 * caller hands it in, and the latest heads an authority time-stamped (timestamps/auditAnchors.ts). The anchor file is read before the chain, so whatever it names was committed before.
 */
export async function verifyAuditTrail(
  db: Db,
  anchor: AuditAnchor,
  request: CallRequest<typeof api.audit.verify>,
): Promise<AuditVerifyAnswer> {
  const anchored = await anchor.read();
  const chain = await verifyAuditChain(db);
  const head = await auditChainHead(db);
  const kept: KeptHead[] = [
    ...(anchored.kind === 'head' ? [{ source: 'server' as const, ...anchored.head }] : []),
    ...(request.exportHead ? [{ source: 'export' as const, ...request.exportHead, writtenAt: null }] : []),
  ];
  const anchors = await Promise.all(kept.map(async (check) => ({ ...check, result: await resultOf(db, check, head) })));
  const stampedHeads = await Promise.all(
    (await latestStampedHeads(db)).map(async ({ stamp, ...kept }) => ({
      ...kept,
      result: await resultOf(db, kept, head),
      timestamp: timestampInfoOf(stamp),
    })),
  );
  return {
    ...chain,
    ok: chain.ok && anchored.kind !== 'unreadable' && [...anchors, ...stampedHeads].every((check) => check.result === 'matches'),
    head,
    serverAnchor: anchored.kind === 'head' ? 'compared' : anchored.kind,
    anchors,
    stampedHeads,
  };
}

/** What the chain says of a head kept outside it (AUDIT_ANCHOR_RESULTS). */
async function resultOf(db: Db, kept: AuditChainHead, head: AuditChainHead | null): Promise<AuditAnchorResult> {
  const hash = await auditHashAt(db, kept.seq);
  if (hash !== null) return hash === kept.hash ? 'matches' : 'differs';
  return head && head.seq > kept.seq ? 'missing' : 'beyondEnd';
}
