import { ERR, type ErrorCode } from '@eln/shared';
import { AppError } from '../http/errors.js';

/** Room for the multipart framing around the file (boundaries, part headers, the owner's fields). */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

/** Refuses, before a byte of the body is read, a body declared larger than a file of `maxFileBytes` needs. */
export function refuseDeclaredOversize(declaredBytes: number | null, maxFileBytes: number, tooLarge: ErrorCode = ERR.fileTooLarge): void {
  if (declaredBytes !== null && declaredBytes > maxFileBytes + MULTIPART_OVERHEAD_BYTES) throw new AppError(tooLarge);
}
