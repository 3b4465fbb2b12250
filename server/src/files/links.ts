import { FILE_LINK_SECONDS } from '@eln/shared';
import { ExpiringTokens } from '../auth/signedTokens.js';

/**
 * Signed, expiring links to stored files. An <img> cannot send an Authorization header, so the right
 * to fetch a file is checked when the link is made (`/v1/common/file/url`) and carried by its signature.
 */
export class FileLinks {
  private readonly tokens: ExpiringTokens;

  constructor(secret: string) {
    this.tokens = new ExpiringTokens(secret, 'file-link', FILE_LINK_SECONDS);
  }

  make(fileId: string, now = Date.now()): string {
    const { expires, signature } = this.tokens.make([fileId], now);
    return `/files/${fileId}?e=${expires}&s=${signature}`;
  }

  verify(fileId: string, expires: number, signature: string, now = Date.now()): boolean {
    return this.tokens.check({ fields: [fileId], expires, signature }, now) === 'valid';
  }
}
