import { Worker } from 'node:worker_threads';
import { ERR, LIMITS } from '@eln/shared';
import { AppError } from '../http/errors.js';

/** An image's width and height in pixels. */
export interface ImageSize {
  width: number;
  height: number;
}

const JPEG_FRAME_MARKERS = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

/** A JPEG's size from its first frame header (SOFn), walking the segments before it; null if there is none. */
function jpegSize(bytes: Uint8Array): ImageSize | null {
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1] ?? 0;
    // Fill bytes, and markers that stand alone (no length).
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      at += 2;
      continue;
    }
    if (JPEG_FRAME_MARKERS.has(marker)) {
      const height = ((bytes[at + 5] ?? 0) << 8) | (bytes[at + 6] ?? 0);
      const width = ((bytes[at + 7] ?? 0) << 8) | (bytes[at + 8] ?? 0);
      return { width, height };
    }
    const length = ((bytes[at + 2] ?? 0) << 8) | (bytes[at + 3] ?? 0);
    if (length < 2) return null;
    at += 2 + length;
  }
  return null;
}

/**
 * What an image's header says its size is, read without decoding it (PNG's IHDR, GIF's logical screen,
 * JPEG's frame header), so that a small file claiming a huge picture is refused before any pixel is made.
 */
export function imageSize(extension: string, bytes: Uint8Array): ImageSize | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (extension === 'png') return bytes.length >= 24 ? { width: view.getUint32(16), height: view.getUint32(20) } : null;
  if (extension === 'gif') return bytes.length >= 10 ? { width: view.getUint16(6, true), height: view.getUint16(8, true) } : null;
  if (extension === 'jpg' || extension === 'jpeg') return jpegSize(bytes);
  return null;
}

/** The small copy's size: the longer side at most `side`, the shape kept; never enlarged. */
export function fitWithin(size: ImageSize, side: number): ImageSize {
  const scale = Math.min(1, side / Math.max(size.width, size.height));
  return { width: Math.max(1, Math.round(size.width * scale)), height: Math.max(1, Math.round(size.height * scale)) };
}

/** A schema thumbnail's small copy, as stored beside the original. */
export interface SmallCopy {
  content: Buffer;
  extension: 'png' | 'jpg';
  size: ImageSize;
}

/**
 * Makes the small copy of an uploaded image (its content already checked against its extension): at most
 * LIMITS.schemaThumbnailSide pixels a side, a JPEG for a JPEG, else a PNG (transparency kept); a GIF's
 * first frame. An image that cannot be decoded, or larger than LIMITS.schemaThumbnailSourcePixels, is
 * refused (4009).
 */
interface WorkerAnswer {
  ok: boolean;
  content?: Uint8Array;
  width?: number;
  height?: number;
  message?: string;
}

/** Decoding takes seconds for a large picture, so it runs in a worker thread (smallCopyWorker.mjs), one per image. */
function inWorker(input: {
  bytes: Buffer;
  jpeg: boolean;
  width: number;
  height: number;
}): Promise<{ content: Buffer; width: number; height: number }> {
  return new Promise((resolve, reject) => {
    // The bytes decode to width x height x 4 in memory: room for that, and a cap for anything claiming more.
    const worker = new Worker(new URL('./smallCopyWorker.mjs', import.meta.url), {
      workerData: input,
      resourceLimits: { maxOldGenerationSizeMb: 1024 },
    });
    worker.once('message', (answer: WorkerAnswer) => {
      void worker.terminate();
      if (answer.ok && answer.content && answer.width && answer.height)
        resolve({ content: Buffer.from(answer.content), width: answer.width, height: answer.height });
      else reject(new Error(answer.message ?? 'no small copy'));
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the worker stopped (${code})`)));
  });
}

export async function makeSmallCopy(extension: string, bytes: Buffer): Promise<SmallCopy> {
  const declared = imageSize(extension, bytes);
  if (!declared || declared.width < 1 || declared.height < 1 || declared.width * declared.height > LIMITS.schemaThumbnailSourcePixels) {
    throw new AppError(ERR.thumbnailUnreadable);
  }
  const jpeg = extension === 'jpg' || extension === 'jpeg';
  const target = fitWithin(declared, LIMITS.schemaThumbnailSide);
  try {
    const made = await inWorker({ bytes, jpeg, width: target.width, height: target.height });
    return { content: made.content, extension: jpeg ? 'jpg' : 'png', size: target };
  } catch (error) {
    throw new AppError(ERR.thumbnailUnreadable, { cause: error });
  }
}
