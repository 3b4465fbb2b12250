import { EXPORT_LIMITS } from '@eln/shared';
import { ExpiringTokens, parseToken, tokenText } from '../auth/signedTokens.js';

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
  private readonly tokens: ExpiringTokens;

  constructor(secret: string) {
    this.tokens = new ExpiringTokens(secret, 'export-link', EXPORT_LIMITS.linkSeconds);
  }

  make(jobId: string, userNo: number, now = Date.now()): { token: string; expiresAt: Date } {
    const token = this.tokens.make([jobId, String(userNo)], now);
    return { token: tokenText(token), expiresAt: new Date(token.expires * 1000) };
  }

  check(text: string, now = Date.now()): LinkCheck {
    const token = parseToken(text, 2);
    const verdict = token ? this.tokens.check(token, now) : 'invalid';
    const [jobId = '', userNoText = ''] = token?.fields ?? [];
    const userNo = Number(userNoText);
    if (!token || verdict === 'invalid' || !Number.isSafeInteger(userNo)) return { ok: false, reason: 'invalid' };
    if (verdict === 'expired') return { ok: false, reason: 'expired' };
    return { ok: true, claims: { jobId, userNo, expires: token.expires } };
  }
}
