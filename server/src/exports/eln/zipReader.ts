import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import { ELN_IMPORT_LIMITS, elnInflationBound, ERR, formatBytes } from '@eln/shared';
import { AppError } from '../../http/errors.js';

/** The refusal of an archive too large to unpack, naming the limits. */
export function tooLarge(): AppError {
  return new AppError(ERR.elnTooLarge, {
    params: {
      entries: ELN_IMPORT_LIMITS.entries,
      size: formatBytes(ELN_IMPORT_LIMITS.totalBytes, 'en'),
      archiveRatio: ELN_IMPORT_LIMITS.archiveRatio,
      ratio: ELN_IMPORT_LIMITS.compressionRatio,
    },
  });
}

function structureError(detail: string): AppError {
  return new AppError(ERR.elnStructure, { data: { detail } });
}

/**
 * A ZIP archive opened for reading (yauzl, lazily: only its central directory is read at first, and an
 * entry's bytes only when asked for, as a stream). Opening refuses what is not a ZIP (8001), an archive
 * beyond ELN_IMPORT_LIMITS (8007: counted and summed from the central directory before anything is
 * unpacked, the sum bound by the archive's own size too, and yauzl then fails any entry that unpacks to
 * more than it declared), and one that is not a single root folder (8002). Entries are named by their
 * path inside the root folder.
 */
export class ArchiveReader {
  private constructor(
    private readonly zip: yauzl.ZipFile,
    readonly rootFolder: string,
    private readonly entries: ReadonlyMap<string, yauzl.Entry>,
    /** What every entry together unpacks to, as the central directory declares it (and yauzl holds them to). */
    readonly unpackedBytes: number,
  ) {}

  static async open(zipPath: string): Promise<ArchiveReader> {
    const zip = await new Promise<yauzl.ZipFile>((resolve, reject) => {
      yauzl.open(zipPath, { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: true }, (error, opened) => {
        if (error || !opened) reject(new AppError(ERR.elnNotArchive, { cause: error }));
        else resolve(opened);
      });
    });
    try {
      if (zip.entryCount > ELN_IMPORT_LIMITS.entries) throw tooLarge();
      const entries = await readDirectory(zip, elnInflationBound(zip.fileSize));
      const { rootFolder, files } = underOneRoot(entries);
      return new ArchiveReader(
        zip,
        rootFolder,
        files,
        entries.reduce((sum, entry) => sum + entry.uncompressedSize, 0),
      );
    } catch (error) {
      zip.close();
      throw error;
    }
  }

  /** The entry at this path inside the root folder (`a/b.json`), if the archive has it. */
  entry(relativePath: string): yauzl.Entry | undefined {
    return this.entries.get(normalizedPath(relativePath));
  }

  has(relativePath: string): boolean {
    return this.entries.has(normalizedPath(relativePath));
  }

  /** An entry's bytes as a stream, checked by yauzl against the size and CRC the archive declares. */
  stream(entry: yauzl.Entry): Promise<Readable> {
    return new Promise((resolve, reject) => {
      this.zip.openReadStream(entry, (error, stream) => {
        if (error || !stream) reject(new AppError(ERR.elnNotArchive, { cause: error }));
        else resolve(stream);
      });
    });
  }

  /** An entry read whole, refused (8007) when it declares more than `maxBytes`. */
  async bytes(entry: yauzl.Entry, maxBytes: number): Promise<Buffer> {
    if (entry.uncompressedSize > maxBytes) throw tooLarge();
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of await this.stream(entry)) chunks.push(chunk as Buffer);
    } catch (error) {
      throw error instanceof AppError ? error : new AppError(ERR.elnNotArchive, { cause: error });
    }
    return Buffer.concat(chunks);
  }

  close(): void {
    this.zip.close();
  }
}

/** A path inside the archive with empty segments dropped (eLabFTW writes `folder//file`). */
export function normalizedPath(name: string): string {
  return name.split('/').filter(Boolean).join('/');
}

/** Every entry of the central directory, its sizes checked against the limits as it is read (`maxTotal`: all of them unpacked). */
function readDirectory(zip: yauzl.ZipFile, maxTotal: number): Promise<yauzl.Entry[]> {
  return new Promise((resolve, reject) => {
    const entries: yauzl.Entry[] = [];
    let total = 0;
    const fail = (error: AppError) => {
      zip.removeAllListeners('entry');
      reject(error);
    };
    zip.on('entry', (entry: yauzl.Entry) => {
      total += entry.uncompressedSize;
      const ratio = entry.compressedSize > 0 ? entry.uncompressedSize / entry.compressedSize : entry.uncompressedSize > 0 ? Infinity : 1;
      const packedTooTightly =
        entry.uncompressedSize > ELN_IMPORT_LIMITS.compressionCheckBytes && ratio > ELN_IMPORT_LIMITS.compressionRatio;
      if (
        entries.length >= ELN_IMPORT_LIMITS.entries ||
        entry.uncompressedSize > ELN_IMPORT_LIMITS.entryBytes ||
        total > maxTotal ||
        packedTooTightly
      ) {
        fail(tooLarge());
        return;
      }
      if (entry.isEncrypted()) {
        fail(new AppError(ERR.elnNotArchive, { data: { detail: `encrypted entry ${entry.fileName}` } }));
        return;
      }
      entries.push(entry);
      zip.readEntry();
    });
    zip.on('end', () => resolve(entries));
    zip.on('error', (error: Error) => {
      // yauzl refuses absolute paths, `..` and backslashes in names: a layout no .eln may have.
      const unsafeName = /invalid relative path|absolute path|invalid characters in fileName/.test(error.message);
      fail(unsafeName ? structureError(error.message) : new AppError(ERR.elnNotArchive, { cause: error }));
    });
    zip.readEntry();
  });
}

/**
 * The consortium's first rule: every entry lies inside exactly one root folder. Answers that folder and
 * the files by their path inside it (folders themselves are not kept; two entries of one path refused).
 */
function underOneRoot(entries: readonly yauzl.Entry[]): { rootFolder: string; files: Map<string, yauzl.Entry> } {
  const roots = new Set<string>();
  const files = new Map<string, yauzl.Entry>();
  for (const entry of entries) {
    const isFolder = entry.fileName.endsWith('/');
    const segments = entry.fileName.split('/').filter(Boolean);
    if (!segments.length || (segments.length === 1 && !isFolder)) throw structureError(`entry outside the root folder: ${entry.fileName}`);
    if (segments.some((segment) => segment === '.' || segment === '..')) throw structureError(`unsafe entry name: ${entry.fileName}`);
    roots.add(segments[0]!);
    if (isFolder) continue;
    const relative = segments.slice(1).join('/');
    if (files.has(relative)) throw structureError(`two entries named ${entry.fileName}`);
    files.set(relative, entry);
  }
  if (roots.size !== 1) throw structureError(`${roots.size} root folders`);
  return { rootFolder: [...roots][0]!, files };
}
