import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AuditChainHead } from '@eln/shared';
import type { Db } from '../db/client.js';
import { auditChainHead, auditHashAt, onAuditAppended } from './audit.js';

/** Where the head is written: the server's logger (pino), or anything with the same methods. */
export interface HeadLog {
  info(data: object, message: string): void;
  error(data: object, message: string): void;
}

/** The message of the structured log line that names the chain head; search the log for it. */
export const AUDIT_HEAD_LOG_MESSAGE = 'audit chain head';

/** A head as the anchor file keeps it: the record, and when the server wrote it there. */
export interface AnchoredHead extends AuditChainHead {
  writtenAt: string;
}

/** What the anchor file holds: the last head written, nothing yet, or something that is not a head. */
export type AnchorReading = { kind: 'head'; head: AnchoredHead } | { kind: 'none' } | { kind: 'unreadable' };

/**
 * After an append, the committed head is read again after each of these waits until it reaches the
 * appended record (its transaction commits a moment after the append); an append that never shows
 * rolled back.
 */
const RECHECK_MS = [2, 10, 50, 200, 1000, 5000];

/**
 * Keeps the audit chain's head outside the database, in a file (`AUDIT_ANCHOR_FILE`, by default in
 * DATA_DIR) the server rewrites as records are appended. Someone who can change the database (triggers
 * set aside) but not this server's disk can cut the chain's tail or rewrite it consistently, and verify
 * finds that the head written here is no longer in the chain. Only committed heads are written (read
 * back from the database after the append's transaction); a head never replaces a later one (processes
 * sharing the folder), nor one the chain no longer holds (appends after a cut tail would otherwise carry
 * the anchor past the evidence).
 */
export class AuditAnchor {
  /** The highest seq appended in this process. */
  private wanted = 0;
  /** The highest committed seq read back. */
  private seen = 0;
  private running: Promise<void> | null = null;
  private writing: Promise<unknown> = Promise.resolve();
  private readonly stopping = new AbortController();
  private stopListening: () => void = () => undefined;

  constructor(
    private readonly db: Db,
    readonly file: string,
    private readonly log: HeadLog,
  ) {}

  /** Writes the head at every append from now on. */
  start(): void {
    this.stopListening = onAuditAppended((seq) => this.appended(seq));
  }

  /** Stops writing, once the write under way (if any) is done: the folder may be removed next. */
  async stop(): Promise<void> {
    this.stopListening();
    this.stopping.abort();
    await this.running;
    await this.writing;
  }

  /** A record was appended (its transaction may not have committed yet): write the head once it has. */
  appended(seq: number): void {
    if (this.stopping.signal.aborted) return;
    this.wanted = Math.max(this.wanted, seq);
    this.running ??= this.follow().finally(() => {
      this.running = null;
      if (this.wanted > this.seen) this.appended(this.wanted);
    });
  }

  /**
   * Resolves when every append seen so far is written (or has shown it rolled back), and so is the
   * periodic write under way (the server starts one at boot, outside any append).
   */
  async settled(): Promise<void> {
    for (;;) {
      const writing = this.writing;
      while (this.running) await this.running;
      await writing;
      if (writing === this.writing && !this.running) return;
    }
  }

  private async follow(): Promise<void> {
    let target = this.wanted;
    for (let attempt = 0; attempt < RECHECK_MS.length; attempt += 1) {
      if (!(await sleep(RECHECK_MS[attempt], true, { signal: this.stopping.signal }).catch(() => false))) return;
      const head = await this.writeCommittedHead();
      if (head === 'failed') break;
      if ((head?.seq ?? 0) >= this.wanted) return;
      // A later append restarts the waits: its transaction is the one to wait for now.
      if (this.wanted !== target) [target, attempt] = [this.wanted, -1];
    }
    // Rolled back (or the database cannot be read, which is logged): the next append tries again.
    if (this.wanted === target) this.wanted = this.seen;
  }

  /** Reads the committed head and writes it unless the file already names it or a later one; answers the head. */
  writeCommittedHead(): Promise<AuditChainHead | null | 'failed'> {
    // One write at a time: the interval's and the appends' would rename the same partial file.
    const next = this.writing.then(async () => {
      if (this.stopping.signal.aborted) return 'failed' as const;
      try {
        const head = await auditChainHead(this.db);
        if (head && head.seq > this.seen) {
          this.seen = head.seq;
          await this.write(head);
        }
        return head;
      } catch (error) {
        this.log.error({ err: error, file: this.file }, 'the audit chain head could not be written to its anchor file');
        return 'failed' as const;
      }
    });
    this.writing = next;
    return next;
  }

  /**
   * Replaces the anchored head with a later one, if the chain still holds the anchored one. If it does
   * not (its tail was cut, or it was rewritten, and appends have gone on since), the file is kept as it
   * is: verify shows the difference until an operator moves the file aside (after restoring a backup).
   */
  private async write(head: AuditChainHead): Promise<void> {
    const current = await this.read();
    if (current.kind === 'head' && current.head.seq >= head.seq) return;
    const held = current.kind === 'head' ? (await auditHashAt(this.db, current.head.seq)) === current.head.hash : current.kind === 'none';
    if (!held) {
      this.log.error(
        { anchored: current.kind === 'head' ? current.head : 'unreadable', head, file: this.file },
        'the audit chain no longer holds the head anchored before; the anchor file is kept as it is',
      );
      return;
    }
    const anchored: AnchoredHead = { seq: head.seq, hash: head.hash, writtenAt: new Date().toISOString() };
    await mkdir(path.dirname(this.file), { recursive: true });
    // Written beside it and renamed over it: a reader sees the old head or the new one, never half of one.
    const partial = `${this.file}.${process.pid}.partial`;
    await writeFile(partial, `${JSON.stringify(anchored)}\n`, { flush: true });
    await rename(partial, this.file);
  }

  /** The head the file names now. */
  async read(): Promise<AnchorReading> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'none' };
      throw error;
    }
    try {
      const value = JSON.parse(text) as Partial<AnchoredHead>;
      if (Number.isSafeInteger(value.seq) && typeof value.hash === 'string' && typeof value.writtenAt === 'string')
        return { kind: 'head', head: { seq: value.seq!, hash: value.hash, writtenAt: value.writtenAt } };
    } catch {
      // Not JSON: damaged, as below.
    }
    return { kind: 'unreadable' };
  }
}

/**
 * Writes the audit chain's head (latest seq and hash) to the server log too, outside the database: log
 * lines already shipped elsewhere cannot be rewritten with the database.
 */
export async function logAuditHead(db: Db, log: HeadLog): Promise<void> {
  try {
    const head = await auditChainHead(db);
    log.info({ auditChainHead: head ?? { seq: 0, hash: null } }, AUDIT_HEAD_LOG_MESSAGE);
  } catch (error) {
    log.error({ err: error }, 'the audit chain head could not be read');
  }
}

/** Logs the head (and writes the anchor file) now and every `intervalMs`; answers the function that stops it. */
export function startAuditHeadLog(db: Db, log: HeadLog, intervalMs: number, anchor?: AuditAnchor): () => void {
  const both = () => {
    void logAuditHead(db, log);
    void anchor?.writeCommittedHead();
  };
  both();
  const timer = setInterval(both, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
