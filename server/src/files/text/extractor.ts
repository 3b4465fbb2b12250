import path from 'node:path';
import { and, asc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import { LIMITS, type FileTextStatus } from '@eln/shared';
import type { Db } from '../../db/client.js';
import { Drains } from '../../db/drains.js';
import { files, fileTextParts, fileTexts } from '../../db/schema.js';
import { textParts } from '../../search/fileUnits.js';
import { addedFileTypes } from '../fileTypes.js';
import { extractText, textFormatOf } from './extract.js';

/** A file's text a process takes is read within this time, or it is unreadable (a hostile PDF must not hang the queue). */
const TIME_LIMIT_MS = 60_000;
/** A lease outlasts the time limit: only a process that died (or stalled) loses its file to another. */
const LEASE_MARGIN_MS = 30_000;
/** An extraction begun this many times and never ended (each time its process died) is not begun again. */
const MAX_ATTEMPTS = 3;
/** Parts written a statement (each up to ~15,000 words and their vector). */
const PARTS_PER_INSERT = 10;
/** How often each process looks for pending texts (one it stored itself is taken at once). */
const POLL_MS = 1_000;

export interface ExtractorLog {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface ExtractorOptions {
  timeLimitMs?: number;
  pollMs?: number;
}

/** The outcome of a file's text: its state and, when extracted, the text. */
interface Outcome {
  status: Exclude<FileTextStatus, 'pending'>;
  text: string;
}

/**
 * Extracts the text of stored files for search, in every server process, one file at a time per process
 * (a worker thread each: 2 cores serve live editing first). A pending text is taken under a lease;
 * whatever happens to the file (read, unreadable, too large, not a text format), its state is written and
 * its notes and templates are queued for search in one transaction. A process that dies mid-file leaves
 * the lease to run out; then any process takes the file again, and a file that took down its process
 * MAX_ATTEMPTS times is unreadable. Extraction never touches the upload: a file is stored, and found by
 * its name, whatever becomes of its text.
 */
export class FileTextExtractor {
  private readonly drains = new Drains(
    () => this.drain(),
    (error: unknown) => this.log.error({ err: error }, 'file text extraction failed'),
  );
  private aborter = new AbortController();
  private readonly timeLimitMs: number;
  private readonly pollMs: number;

  constructor(
    private readonly db: Db,
    private readonly filesDir: string,
    private readonly log: ExtractorLog,
    options: ExtractorOptions = {},
  ) {
    this.timeLimitMs = options.timeLimitMs ?? TIME_LIMIT_MS;
    this.pollMs = options.pollMs ?? POLL_MS;
  }

  start(): void {
    if (this.aborter.signal.aborted) this.aborter = new AbortController();
    this.drains.start(this.pollMs);
  }

  /** Ends the extraction under way (its file is left pending, taken again at once by the next process to look). */
  async stop(): Promise<void> {
    this.aborter.abort();
    await this.drains.stop();
  }

  /** Looks for pending texts now (a file was stored). */
  kick(): void {
    this.drains.kick();
  }

  private async drain(): Promise<void> {
    for (;;) {
      if (this.aborter.signal.aborted) return;
      const taken = await this.take();
      if (!taken) return;
      const outcome = await this.outcomeOf(taken.sha256, taken.attempts);
      if (!outcome) {
        await this.release(taken.sha256);
        return;
      }
      await this.finish(taken.sha256, outcome);
    }
  }

  /** Takes the oldest pending text no live process holds, under a lease, counting the attempt. */
  private async take(): Promise<{ sha256: string; attempts: number } | undefined> {
    const free = this.db
      .select({ sha256: fileTexts.sha256 })
      .from(fileTexts)
      .where(and(eq(fileTexts.status, 'pending'), or(isNull(fileTexts.leaseUntil), lt(fileTexts.leaseUntil, sql`now()`))))
      .orderBy(asc(fileTexts.createdAt))
      .limit(1)
      .for('update', { skipLocked: true });
    const [taken] = await this.db
      .update(fileTexts)
      .set({
        attempts: sql`${fileTexts.attempts} + 1`,
        leaseUntil: sql`now() + ${`${this.timeLimitMs + LEASE_MARGIN_MS} milliseconds`}::interval`,
      })
      .where(and(inArray(fileTexts.sha256, free), eq(fileTexts.status, 'pending')))
      .returning({ sha256: fileTexts.sha256, attempts: fileTexts.attempts });
    return taken;
  }

  /** What becomes of a content's text; undefined when the extraction was cut short by stop(). */
  private async outcomeOf(sha256: string, attempts: number): Promise<Outcome | undefined> {
    const [file] = await this.db
      .select({ storagePath: files.storagePath, extension: files.extension, size: files.size })
      .from(files)
      .where(and(eq(files.sha256, sha256), eq(files.kind, 'file')))
      .orderBy(asc(files.createdAt))
      .limit(1);
    const none = (status: Outcome['status']): Outcome => ({ status, text: '' });
    if (!file) return none('unreadable');
    const format = textFormatOf(file.extension, await addedFileTypes(this.db));
    if (!format) return none('notText');
    if (file.size > LIMITS.fileTextSourceBytes) return none('tooLarge');
    if (attempts > MAX_ATTEMPTS) {
      this.log.warn({ sha256, attempts }, 'file text: extraction never ended; the file is taken as unreadable');
      return none('unreadable');
    }
    const extraction = await extractText(path.join(this.filesDir, file.storagePath), file.extension, format, {
      timeLimitMs: this.timeLimitMs,
      maxChars: LIMITS.fileTextChars,
      signal: this.aborter.signal,
    });
    if (this.aborter.signal.aborted) return undefined;
    if (!extraction.ok) {
      this.log.warn({ sha256, extension: file.extension, reason: extraction.reason }, 'file text: the file could not be read');
      return none('unreadable');
    }
    // A file with no text in it (a scanned PDF) is as good as unreadable to someone searching it.
    return extraction.text ? { status: 'extracted', text: extraction.text } : none('unreadable');
  }

  /** Gives back a text taken but not read (the server stops): the attempt was not the file's fault. */
  private async release(sha256: string): Promise<void> {
    await this.db
      .update(fileTexts)
      .set({ leaseUntil: null, attempts: sql`greatest(${fileTexts.attempts} - 1, 0)` })
      .where(and(eq(fileTexts.sha256, sha256), eq(fileTexts.status, 'pending')));
  }

  /**
   * Writes the outcome with its text's parts (search/fileUnits.ts), once (another process may have finished
   * it meanwhile), and queues the content's notes and templates for search.
   */
  private async finish(sha256: string, outcome: Outcome): Promise<void> {
    const parts = await textParts(outcome.text);
    await this.db.transaction(async (tx) => {
      const [written] = await tx
        .update(fileTexts)
        .set({ status: outcome.status, leaseUntil: null, updatedAt: sql`now()` })
        .where(and(eq(fileTexts.sha256, sha256), eq(fileTexts.status, 'pending')))
        .returning({ sha256: fileTexts.sha256 });
      if (!written) return;
      await tx.delete(fileTextParts).where(eq(fileTextParts.sha256, sha256));
      for (let at = 0; at < parts.length; at += PARTS_PER_INSERT) {
        await tx.insert(fileTextParts).values(parts.slice(at, at + PARTS_PER_INSERT).map((part, i) => ({ sha256, part: at + i, ...part })));
      }
      await tx.execute(sql`insert into search_queue (document_name)
        select distinct 'labnote.' || note_no from files where sha256 = ${sha256} and note_no is not null
        union select distinct 'template.' || template_no from files where sha256 = ${sha256} and template_no is not null
        on conflict (document_name) do update set seq = excluded.seq`);
    });
  }
}
