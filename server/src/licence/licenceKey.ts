import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { licencePayload, type LicencePayload } from '@eln/shared';
import type { VendorKey } from './vendorKeys.js';

export type KeyReading = { ok: true; payload: LicencePayload } | { ok: false };

const publicKeys = new Map<string, KeyObject>();
function publicKeyOf(key: VendorKey): KeyObject {
  let object = publicKeys.get(key.publicKeyPem);
  if (!object) {
    object = createPublicKey(key.publicKeyPem);
    publicKeys.set(key.publicKeyPem, object);
  }
  return object;
}

/**
 * Reads a licence key `<payload>.<signature>` (both base64url) and checks its Ed25519 signature against
 * the trusted vendor key the payload names. Anything damaged, unsigned or signed by an unknown key is
 * not genuine; no detail is given, so the answer teaches a forger nothing.
 */
export function readLicenceKey(licenceKey: string, trusted: readonly VendorKey[]): KeyReading {
  const parts = licenceKey.trim().split('.');
  if (parts.length !== 2 || !parts.every((p) => /^[A-Za-z0-9_-]+$/.test(p))) return { ok: false };
  const payloadBytes = Buffer.from(parts[0]!, 'base64url');
  const signature = Buffer.from(parts[1]!, 'base64url');
  const parsed = licencePayload.safeParse(parseJson(payloadBytes.toString('utf8')));
  if (!parsed.success) return { ok: false };
  const vendorKey = trusted.find((k) => k.keyId === parsed.data.keyId);
  if (!vendorKey || signature.length !== 64) return { ok: false };
  return verify(null, payloadBytes, publicKeyOf(vendorKey), signature) ? { ok: true, payload: parsed.data } : { ok: false };
}

function parseJson(textValue: string): unknown {
  try {
    return JSON.parse(textValue);
  } catch {
    return undefined;
  }
}

/** Makes a licence key: the vendor's tool (and the tests, with the test key). */
export function signLicenceKey(payload: LicencePayload, privateKeyPem: string): string {
  const payloadBytes = Buffer.from(JSON.stringify(payload), 'utf8');
  const signature = sign(null, payloadBytes, createPrivateKey(privateKeyPem));
  return `${payloadBytes.toString('base64url')}.${signature.toString('base64url')}`;
}
