import type { Db } from '../db/client.js';
import { auditChainHead } from './audit.js';

/** Where the head is written: the server's logger (pino), or anything with the same two methods. */
export interface HeadLog {
  info(data: object, message: string): void;
  error(data: object, message: string): void;
}

/** The message of the structured log line that names the chain head; search the log for it. */
export const AUDIT_HEAD_LOG_MESSAGE = 'audit chain head';

/**
 * Writes the audit chain's head (latest seq and hash) to the server log, outside the database. Someone
 * who can rewrite the whole chain consistently in the database cannot rewrite log lines already shipped
 * elsewhere: a head logged earlier that verify no longer finds in the chain shows the rewrite.
 */
export async function logAuditHead(db: Db, log: HeadLog): Promise<void> {
  try {
    const head = await auditChainHead(db);
    log.info({ auditChainHead: head ?? { seq: 0, hash: null } }, AUDIT_HEAD_LOG_MESSAGE);
  } catch (error) {
    log.error({ err: error }, 'the audit chain head could not be read');
  }
}

/** Logs the head now and every `intervalMs`; answers the function that stops it. */
export function startAuditHeadLog(db: Db, log: HeadLog, intervalMs: number): () => void {
  void logAuditHead(db, log);
  const timer = setInterval(() => void logAuditHead(db, log), intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
