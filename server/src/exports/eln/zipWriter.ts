import { createHash } from 'node:crypto';
import { PassThrough, Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yazl from 'yazl';

/** What an entry's bytes were, measured as they went into the archive. */
export interface WrittenEntry {
  size: number;
  sha256: string;
}

/** Counts and hashes what passes through. */
class Meter extends Transform {
  size = 0;
  private readonly hash = createHash('sha256');

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.size += chunk.length;
    this.hash.update(chunk);
    callback(null, chunk);
  }

  digest(): string {
    return this.hash.digest('hex');
  }
}

/**
 * A ZIP written as a stream (yazl), one entry at a time: `add` resolves once the entry's bytes have all
 * gone into the archive, and the caller adds the next only then, so at most one entry's source is open
 * and the archive is never held in memory (yazl itself writes without back-pressure of its own, so the
 * pace is kept here). Each entry's size and SHA-256 are measured on the way, and so are the archive's.
 */
export class ZipWriter {
  private readonly zip = new yazl.ZipFile();
  private readonly archiveMeter = new Meter();
  private readonly done: Promise<void>;
  private failure: Error | null = null;
  private readonly failed: Promise<never>;

  constructor(
    output: NodeJS.WritableStream,
    private readonly mtime: Date,
  ) {
    let fail: (error: Error) => void = () => undefined;
    this.failed = new Promise<never>((_resolve, reject) => {
      fail = reject;
    });
    // Nobody may be waiting on it yet: its refusal is observed by `add` and `finish`.
    this.failed.catch(() => undefined);
    const onError = (error: unknown) => {
      if (this.failure) return;
      this.failure = error instanceof Error ? error : new Error(String(error));
      fail(this.failure);
    };
    this.zip.on('error', onError);
    this.done = pipeline(this.zip.outputStream, this.archiveMeter, output).catch((error: unknown) => {
      onError(error);
      throw this.failure ?? error;
    });
    this.done.catch(() => undefined);
  }

  /** Adds an entry from a stream made when the archive reaches it; resolves with its measured size and hash. */
  async add(entryPath: string, open: () => Readable, options: { compress: boolean }): Promise<WrittenEntry> {
    if (this.failure) throw this.failure;
    const meter = new Meter();
    const finished = new Promise<WrittenEntry>((resolve, reject) => {
      meter.on('end', () => resolve({ size: meter.size, sha256: meter.digest() }));
      meter.on('error', reject);
    });
    this.zip.addReadStreamLazy(entryPath, { mtime: this.mtime, compress: options.compress }, (callback) => {
      let source: Readable;
      try {
        source = open();
      } catch (error) {
        meter.destroy(error as Error);
        callback(error, new PassThrough());
        return;
      }
      source.on('error', (error) => {
        meter.destroy(error);
        this.output().destroy(error);
      });
      callback(null, source.pipe(meter));
    });
    return Promise.race([finished, this.failed]);
  }

  /** Adds a folder entry (`a/b/`): a Dataset's folder exists in the archive even when it holds no file. */
  addFolder(entryPath: string): void {
    if (this.failure) throw this.failure;
    this.zip.addEmptyDirectory(entryPath, { mtime: this.mtime });
  }

  /** Adds bytes already in memory (metadata, a rendered version); they are released once written. */
  addBytes(entryPath: string, bytes: Uint8Array, options: { compress: boolean }): Promise<WrittenEntry> {
    return this.add(entryPath, () => Readable.from([Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)]), options);
  }

  /** Ends the archive and waits until its last byte is written; answers its size and SHA-256. */
  async finish(): Promise<WrittenEntry> {
    if (this.failure) throw this.failure;
    this.zip.end();
    await Promise.race([this.done, this.failed]);
    return { size: this.archiveMeter.size, sha256: this.archiveMeter.digest() };
  }

  /** Stops writing after a failure elsewhere: the output is left incomplete and errored. */
  abort(error: Error): void {
    this.output().destroy(error);
  }

  /** yazl's output, a PassThrough (its typings say only ReadableStream). */
  private output(): PassThrough {
    return this.zip.outputStream as PassThrough;
  }
}
