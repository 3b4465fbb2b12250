import { createHash, randomBytes } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

/*
 * RFC 3161 time-stamp tokens, built and checked with PKI.js: the request over the digest of exactly the
 * bytes stamped, the answer's token checked for its imprint, nonce, policy, signature and certificate
 * chain. Nothing here is hand-written DER.
 */

export const TIMESTAMP_HASHES = { 'SHA-256': '2.16.840.1.101.3.4.2.1', 'SHA-512': '2.16.840.1.101.3.4.2.3' } as const;
export type TimestampHash = keyof typeof TIMESTAMP_HASHES;
const HASH_BY_OID = new Map<string, TimestampHash>(Object.entries(TIMESTAMP_HASHES).map(([name, oid]) => [oid, name as TimestampHash]));
const NODE_HASH: Record<TimestampHash, string> = { 'SHA-256': 'sha256', 'SHA-512': 'sha512' };
const TIME_STAMPING_USAGE = '1.3.6.1.5.5.7.3.8';
const EXTENDED_KEY_USAGE = '2.5.29.37';

/** Why a token was not accepted; each is shown to administrators and inspectors as it is. */
export type TokenFault =
  | 'unreachable'
  | 'httpStatus'
  | 'notGranted'
  | 'malformed'
  | 'imprintMismatch'
  | 'nonceMismatch'
  | 'policyMismatch'
  | 'signatureInvalid'
  | 'notTimeStampingCertificate'
  | 'certificateExpired'
  | 'chainUntrusted';

export class TokenError extends Error {
  constructor(
    readonly fault: TokenFault,
    detail: string,
  ) {
    super(`${fault}: ${detail}`);
  }
}

/** What a checked token says. */
export interface CheckedToken {
  genTime: Date;
  policy: string;
  serial: string;
  hash: TimestampHash;
  /** The authority's signing certificate's subject and expiry. */
  signer: { subject: string; notAfter: Date };
}

export interface AuthorityEndpoint {
  url: string;
  username?: string | null;
  password?: string | null;
  policy?: string | null;
  hash: TimestampHash;
  /** The certificates (PEM) the authority's tokens must chain to. */
  chainPem: string;
  timeoutMs: number;
}

export function digestOf(hash: TimestampHash, data: Uint8Array): Buffer {
  return createHash(NODE_HASH[hash]).update(data).digest();
}

/** Asks an authority for a token over `data`; answers the token (DER) once it is checked. */
export async function requestToken(authority: AuthorityEndpoint, data: Uint8Array): Promise<{ token: Uint8Array; checked: CheckedToken }> {
  const { token, nonce } = await fetchToken(authority, data);
  const checked = await checkToken(token, data, authority.chainPem, { nonce, policy: authority.policy ?? null });
  return { token, checked };
}

/** Asks an authority for a token over `data`, unchecked, with the nonce it must answer. */
export async function fetchToken(
  authority: Omit<AuthorityEndpoint, 'chainPem'>,
  data: Uint8Array,
): Promise<{ token: Uint8Array; nonce: Uint8Array }> {
  const nonce = randomBytes(8);
  nonce[0] = (nonce[0]! & 0x7f) | 0x01; // a positive INTEGER, never a leading zero byte
  const request = new pkijs.TimeStampReq({
    version: 1,
    messageImprint: new pkijs.MessageImprint({
      hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: TIMESTAMP_HASHES[authority.hash], algorithmParams: new asn1js.Null() }),
      hashedMessage: new asn1js.OctetString({ valueHex: digestOf(authority.hash, data) }),
    }),
    nonce: new asn1js.Integer({ valueHex: nonce }),
    certReq: true,
    ...(authority.policy ? { reqPolicy: authority.policy } : {}),
  });
  const answer = await post(authority, new Uint8Array(request.toSchema().toBER()));
  return { token: tokenFromResponse(answer), nonce };
}

/** The certificates a token carries (its signer's, and any chain the authority adds). */
export function tokenCertificates(token: Uint8Array): pkijs.Certificate[] {
  try {
    const signed = new pkijs.SignedData({ schema: pkijs.ContentInfo.fromBER(Uint8Array.from(token)).content });
    const certificates = (signed.certificates ?? []).filter((c): c is pkijs.Certificate => c instanceof pkijs.Certificate);
    // An authority may list its own certificate twice (as signer and in its chain).
    const seen = new Set<string>();
    return certificates.filter((c) => {
      const der = Buffer.from(c.toSchema().toBER()).toString('base64');
      return !seen.has(der) && Boolean(seen.add(der));
    });
  } catch {
    throw new TokenError('malformed', 'the token is not a time-stamp token');
  }
}

async function post(authority: Omit<AuthorityEndpoint, 'chainPem'>, body: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  const headers: Record<string, string> = { 'content-type': 'application/timestamp-query', accept: 'application/timestamp-reply' };
  if (authority.username)
    headers.authorization = `Basic ${Buffer.from(`${authority.username}:${authority.password ?? ''}`).toString('base64')}`;
  let response: Response;
  try {
    response = await fetch(authority.url, {
      method: 'POST',
      headers,
      body,
      signal: AbortSignal.timeout(authority.timeoutMs),
      redirect: 'error',
    });
  } catch (error) {
    throw new TokenError('unreachable', error instanceof Error ? error.message : String(error));
  }
  if (!response.ok) throw new TokenError('httpStatus', `HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

function tokenFromResponse(der: Uint8Array): Uint8Array {
  const bytes = Uint8Array.from(der);
  let response: pkijs.TimeStampResp;
  try {
    response = pkijs.TimeStampResp.fromBER(bytes);
  } catch {
    throw new TokenError('malformed', 'the answer is not a time-stamp response');
  }
  const status = response.status.status;
  if (status !== pkijs.PKIStatus.granted && status !== pkijs.PKIStatus.grantedWithMods) {
    throw new TokenError(
      'notGranted',
      `status ${status}${response.status.statusStrings ? `: ${response.status.statusStrings.map((s) => s.valueBlock.value).join('; ')}` : ''}`,
    );
  }
  if (!response.timeStampToken) throw new TokenError('malformed', 'the answer holds no token');
  return new Uint8Array(response.timeStampToken.toSchema().toBER());
}

/**
 * A stored token as the time-stamp response (`.tsr`) an authority answered: status granted and the token,
 * what `openssl ts -verify -in` reads without `-token_in`.
 */
export function timeStampResponseOf(token: Uint8Array): Uint8Array {
  const response = new pkijs.TimeStampResp({
    status: new pkijs.PKIStatusInfo({ status: pkijs.PKIStatus.granted }),
    timeStampToken: pkijs.ContentInfo.fromBER(Uint8Array.from(token)),
  });
  return new Uint8Array(response.toSchema().toBER());
}

/** The certificates of a PEM bundle. */
export function certificatesOfPem(pem: string): pkijs.Certificate[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  return blocks.map((block) => {
    const base64 = block.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
    return pkijs.Certificate.fromBER(Buffer.from(base64, 'base64'));
  });
}

/** The subject's common name, or its whole distinguished name. */
export function subjectOf(certificate: pkijs.Certificate): string {
  const parts = certificate.subject.typesAndValues.map((tv) => ({ type: tv.type, value: String(tv.value.valueBlock.value) }));
  return parts.find((p) => p.type === '2.5.4.3')?.value ?? parts.map((p) => p.value).join(', ');
}

/**
 * Checks a token (a CMS SignedData over a TSTInfo, DER) over `data`: the imprint is the digest of `data`,
 * the nonce and policy are those asked for (when given), the signature is valid, the signing certificate is
 * for time stamping, valid at the token's time, and chains to `chainPem` (null: the chain is not checked).
 */
export async function checkToken(
  token: Uint8Array,
  data: Uint8Array,
  chainPem: string | null,
  expected: { nonce?: Uint8Array | null; policy?: string | null } = {},
): Promise<CheckedToken> {
  let signed: pkijs.SignedData;
  let info: pkijs.TSTInfo;
  try {
    const content = pkijs.ContentInfo.fromBER(Uint8Array.from(token));
    signed = new pkijs.SignedData({ schema: content.content });
    const eContent = signed.encapContentInfo.eContent;
    if (!eContent) throw new Error('no TSTInfo');
    info = pkijs.TSTInfo.fromBER(eContent.getValue());
  } catch {
    throw new TokenError('malformed', 'the token is not a time-stamp token');
  }
  const hash = HASH_BY_OID.get(info.messageImprint.hashAlgorithm.algorithmId);
  if (!hash) throw new TokenError('imprintMismatch', `unsupported hash ${info.messageImprint.hashAlgorithm.algorithmId}`);
  const imprint = Buffer.from(info.messageImprint.hashedMessage.valueBlock.valueHexView);
  if (!imprint.equals(digestOf(hash, data))) throw new TokenError('imprintMismatch', 'the token is over other data');
  if (expected.nonce) {
    const got = info.nonce ? Buffer.from(info.nonce.valueBlock.valueHexView) : null;
    if (!got || !got.equals(Buffer.from(expected.nonce))) throw new TokenError('nonceMismatch', 'the token does not answer this request');
  }
  if (expected.policy && info.policy !== expected.policy)
    throw new TokenError('policyMismatch', `policy ${info.policy}, expected ${expected.policy}`);
  const signer = signerCertificate(signed);
  if (!hasTimeStampingUsage(signer)) throw new TokenError('notTimeStampingCertificate', `${subjectOf(signer)} is not for time stamping`);
  if (signer.notAfter.value < info.genTime || signer.notBefore.value > info.genTime) {
    throw new TokenError(
      'certificateExpired',
      `${subjectOf(signer)} is valid ${signer.notBefore.value.toISOString()} to ${signer.notAfter.value.toISOString()}`,
    );
  }
  // No chain (an administrator's first look at an authority): the signature is checked with the
  // certificate the token carries, and nothing says that certificate is to be trusted.
  const trusted = chainPem === null ? [] : certificatesOfPem(chainPem);
  let result: pkijs.SignedDataVerifyResult;
  try {
    result = await signed.verify({
      signer: 0,
      data: Uint8Array.from(data).buffer,
      trustedCerts: trusted,
      checkChain: chainPem !== null,
      extendedMode: true,
    });
  } catch (error) {
    const failed = error as Partial<pkijs.SignedDataVerifyResult>;
    if (failed.signatureVerified === false || failed.code === 15)
      throw new TokenError('signatureInvalid', failed.message ?? 'bad signature');
    throw new TokenError('chainUntrusted', failed.message ?? 'the certificate chain is not trusted');
  }
  if (!result.signatureVerified) throw new TokenError('signatureInvalid', result.message);
  if (result.signerCertificateVerified === false) throw new TokenError('chainUntrusted', result.message);
  return {
    genTime: info.genTime,
    policy: info.policy,
    serial: Buffer.from(info.serialNumber.valueBlock.valueHexView).toString('hex'),
    hash,
    signer: { subject: subjectOf(signer), notAfter: signer.notAfter.value },
  };
}

function signerCertificate(signed: pkijs.SignedData): pkijs.Certificate {
  const certificates = (signed.certificates ?? []).filter((c): c is pkijs.Certificate => c instanceof pkijs.Certificate);
  const info = signed.signerInfos[0];
  if (!info) throw new TokenError('malformed', 'the token has no signer');
  // `sid` is typed any by PKI.js: an IssuerAndSerialNumber, or a subject key identifier (an OCTET STRING).
  const sid: unknown = info.sid;
  const found = certificates.find((certificate) => {
    if (sid instanceof pkijs.IssuerAndSerialNumber)
      return certificate.issuer.isEqual(sid.issuer) && certificate.serialNumber.isEqual(sid.serialNumber);
    if (sid instanceof asn1js.OctetString) return keyIdentifierOf(certificate)?.equals(Buffer.from(sid.valueBlock.valueHexView)) ?? false;
    return false;
  });
  if (!found) throw new TokenError('chainUntrusted', 'the token does not carry its signing certificate (certReq)');
  return found;
}

function keyIdentifierOf(certificate: pkijs.Certificate): Buffer | null {
  const extension = certificate.extensions?.find((e) => e.extnID === '2.5.29.14');
  if (!extension) return null;
  const parsed = asn1js.fromBER(extension.extnValue.valueBlock.valueHexView);
  return parsed.result instanceof asn1js.OctetString ? Buffer.from(parsed.result.valueBlock.valueHexView) : null;
}

function hasTimeStampingUsage(certificate: pkijs.Certificate): boolean {
  const extension = certificate.extensions?.find((e) => e.extnID === EXTENDED_KEY_USAGE);
  const usage = extension?.parsedValue as pkijs.ExtKeyUsage | undefined;
  return usage?.keyPurposes.includes(TIME_STAMPING_USAGE) ?? false;
}
