import { createHmac, timingSafeEqual } from 'node:crypto';
import { FILE_LINK_SECONDS } from '@eln/shared';

/**
 * Signed, expiring links to stored files. An <img> cannot send an Authorization header, so the right
 * to fetch a file is checked when the link is made (`/v1/common/file/url`) and carried by its signature.
 */
export class FileLinks {
  constructor(private readonly secret: string) {}

  private signature(fileId: string, expires: number): string {
    return createHmac('sha256', `file-link:${this.secret}`).update(`${fileId}.${expires}`).digest('base64url');
  }

  make(fileId: string, now = Date.now()): string {
    const expires = Math.floor(now / 1000) + FILE_LINK_SECONDS;
    return `/files/${fileId}?e=${expires}&s=${this.signature(fileId, expires)}`;
  }

  verify(fileId: string, expires: number, signature: string, now = Date.now()): boolean {
    if (!Number.isSafeInteger(expires) || expires * 1000 < now) return false;
    const expected = Buffer.from(this.signature(fileId, expires));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}
