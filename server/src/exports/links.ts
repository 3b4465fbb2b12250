import { createHmac, timingSafeEqual } from 'node:crypto';
import { EXPORT_LIMITS } from '@eln/shared';

export interface ExportLinkClaims {
  jobId: string;
  userNo: number;
  /** Unix seconds. */
  expires: number;
}

export type LinkCheck = { ok: true; claims: ExportLinkClaims } | { ok: false; reason: 'invalid' | 'expired' };

/**
 * Download tokens for finished exports: the job, the one user it was made for and its expiry, signed with
 * the server's secret, so a token copied to someone else or kept past its minutes is worthless.
 */
export class ExportLinks {
  constructor(private readonly secret: string) {}

  private signature(payload: string): string {
    return createHmac('sha256', `export-link:${this.secret}`).update(payload).digest('base64url');
  }

  make(jobId: string, userNo: number, now = Date.now()): { token: string; expiresAt: Date } {
    const expires = Math.floor(now / 1000) + EXPORT_LIMITS.linkSeconds;
    const payload = `${jobId}.${userNo}.${expires}`;
    return { token: `${payload}.${this.signature(payload)}`, expiresAt: new Date(expires * 1000) };
  }

  check(token: string, now = Date.now()): LinkCheck {
    const parts = token.split('.');
    if (parts.length !== 4) return { ok: false, reason: 'invalid' };
    const [jobId = '', userNoText = '', expiresText = '', signature = ''] = parts;
    const expected = Buffer.from(this.signature(`${jobId}.${userNoText}.${expiresText}`));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { ok: false, reason: 'invalid' };
    const userNo = Number(userNoText);
    const expires = Number(expiresText);
    if (!Number.isSafeInteger(userNo) || !Number.isSafeInteger(expires)) return { ok: false, reason: 'invalid' };
    if (expires * 1000 < now) return { ok: false, reason: 'expired' };
    return { ok: true, claims: { jobId, userNo, expires } };
  }
}
