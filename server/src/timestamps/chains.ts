import { ERR, TIMESTAMP_LIMITS } from '@eln/shared';
import type * as pkijs from 'pkijs';
import { AppError } from '../http/errors.js';
import { certificatesOfPem, subjectOf } from './tsp.js';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface ChainCertificate {
  subject: string;
  issuer: string;
  notAfter: string;
  pem: string;
}

function pemOf(certificate: pkijs.Certificate): string {
  const base64 = Buffer.from(certificate.toSchema().toBER()).toString('base64');
  return `-----BEGIN CERTIFICATE-----\n${base64.replace(/(.{64})/g, '$1\n').replace(/\n$/, '')}\n-----END CERTIFICATE-----\n`;
}

function issuerOf(certificate: pkijs.Certificate): string {
  const parts = certificate.issuer.typesAndValues.map((tv) => ({ type: tv.type, value: String(tv.value.valueBlock.value) }));
  return parts.find((p) => p.type === '2.5.4.3')?.value ?? parts.map((p) => p.value).join(', ');
}

export function describeCertificates(certificates: readonly pkijs.Certificate[]): ChainCertificate[] {
  return certificates.map((certificate) => ({
    subject: subjectOf(certificate),
    issuer: issuerOf(certificate),
    notAfter: certificate.notAfter.value.toISOString(),
    pem: pemOf(certificate),
  }));
}

/** A chain as an administrator pasted it, read: its certificates and the earliest end of their validity; 4801 when none can be read. */
export function readChain(pem: string): { certificates: ChainCertificate[]; expiresAt: Date } {
  let certificates: pkijs.Certificate[];
  try {
    certificates = certificatesOfPem(pem);
  } catch {
    throw new AppError(ERR.timestampChainInvalid);
  }
  if (certificates.length === 0) throw new AppError(ERR.timestampChainInvalid);
  const expiresAt = new Date(Math.min(...certificates.map((c) => c.notAfter.value.getTime())));
  return { certificates: describeCertificates(certificates), expiresAt };
}

/** Whether a chain's first expiry is within the warning days (or past). */
export function expiresSoon(expiresAt: Date, now = new Date()): boolean {
  return expiresAt.getTime() - now.getTime() < TIMESTAMP_LIMITS.expiryWarningDays * DAY_MS;
}
