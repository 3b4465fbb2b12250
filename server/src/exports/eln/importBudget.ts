import { ELN_IMPORT_LIMITS, ERR, formatBytes } from '@eln/shared';
import { AppError } from '../../http/errors.js';

/**
 * The bytes the .eln imports running at once in this process may unpack together. Each import reserves
 * what its archive's directory declares before it unpacks anything and gives it back when it ends,
 * however it ends; one that does not fit beside those under way is refused at once (8019), never queued:
 * an upload waiting on a held request would keep its archive on disk and its connection open meanwhile.
 */
export class ImportBudget {
  private reserved = 0;

  constructor(readonly capacity: number = ELN_IMPORT_LIMITS.concurrentBytes) {}

  /** Reserves `bytes` for one import; answers the function that gives them back (once). */
  reserve(bytes: number): () => void {
    if (this.reserved + bytes > this.capacity) throw new AppError(ERR.elnImportBusy, { params: { size: formatBytes(bytes, 'en') } });
    this.reserved += bytes;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.reserved -= bytes;
    };
  }

  /** What the imports under way hold now. */
  inUse(): number {
    return this.reserved;
  }
}
