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
export async function makeSmallCopy(extension: string, bytes: Buffer): Promise<SmallCopy> {
  const declared = imageSize(extension, bytes);
  if (!declared || declared.width < 1 || declared.height < 1 || declared.width * declared.height > LIMITS.schemaThumbnailSourcePixels) {
    throw new AppError(ERR.thumbnailUnreadable);
  }
  // Loaded on first use: the server starts without the image library.
  const { Jimp } = await import('jimp');
  try {
    const image = await Jimp.read(bytes);
    const size = fitWithin({ width: image.width, height: image.height }, LIMITS.schemaThumbnailSide);
    if (size.width !== image.width || size.height !== image.height) image.resize({ w: size.width, h: size.height });
    const jpeg = extension === 'jpg' || extension === 'jpeg';
    const content = jpeg ? await image.getBuffer('image/jpeg', { quality: 82 }) : await image.getBuffer('image/png');
    return { content, extension: jpeg ? 'jpg' : 'png', size };
  } catch (error) {
    throw new AppError(ERR.thumbnailUnreadable, { cause: error });
  }
}
