import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestTimestampAuthority, type TestTimestampAuthority } from '../testing/timestampAuthority.js';
import { checkToken, requestToken, TokenError, type AuthorityEndpoint, type TokenFault } from './tsp.js';

const DATA = new TextEncoder().encode('{"labNoteNo":7,"version":3,"blocksHash":"ab12"}');

let authority: TestTimestampAuthority;
let expired: TestTimestampAuthority;
const endpoint = (tsa: TestTimestampAuthority, extra: Partial<AuthorityEndpoint> = {}): AuthorityEndpoint => ({
  url: tsa.url,
  hash: 'SHA-256',
  chainPem: tsa.caPem,
  timeoutMs: 5_000,
  ...extra,
});

async function faultOf(promise: Promise<unknown>): Promise<TokenFault> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TokenError);
  return (error as TokenError).fault;
}

beforeAll(async () => {
  [authority, expired] = await Promise.all([startTestTimestampAuthority(), startTestTimestampAuthority({ certificate: 'expired' })]);
}, 60_000);
afterAll(async () => {
  await Promise.all([authority.stop(), expired.stop()]);
});

describe('RFC 3161 tokens from a real OpenSSL authority', () => {
  it('answers a token over exactly the data, which OpenSSL itself verifies', async () => {
    const before = Date.now();
    const { token, checked } = await requestToken(endpoint(authority), DATA);
    expect(checked.policy).toBe(authority.policy);
    expect(checked.hash).toBe('SHA-256');
    expect(checked.signer.subject).toBe('ELN Test Time Stamping Authority');
    expect(checked.genTime.getTime()).toBeGreaterThanOrEqual(before - 2_000);
    expect(await authority.opensslVerify(token, DATA)).toBe(true);
    expect(await authority.opensslVerify(token, new TextEncoder().encode('other'))).toBe(false);
    // Re-verified later, offline, from the stored token alone.
    expect((await checkToken(token, DATA, authority.caPem)).serial).toBe(checked.serial);
  });

  it('stamps with SHA-512 and the policy asked for', async () => {
    const { token, checked } = await requestToken(endpoint(authority, { hash: 'SHA-512', policy: '1.3.6.1.4.1.59999.1.2' }), DATA);
    expect(checked).toMatchObject({ hash: 'SHA-512', policy: '1.3.6.1.4.1.59999.1.2' });
    expect(await authority.opensslVerify(token, DATA)).toBe(true);
  });

  it('refuses a stored token checked against other data, another chain or an unexpected policy', async () => {
    const { token } = await requestToken(endpoint(authority), DATA);
    expect(await faultOf(checkToken(token, new TextEncoder().encode('changed'), authority.caPem))).toBe('imprintMismatch');
    expect(await faultOf(checkToken(token, DATA, expired.caPem))).toBe('chainUntrusted');
    expect(await faultOf(checkToken(token, DATA, authority.caPem, { policy: '1.2.3' }))).toBe('policyMismatch');
    expect(await faultOf(checkToken(new TextEncoder().encode('garbage'), DATA, authority.caPem))).toBe('malformed');
  });

  it('names each way an authority fails', async () => {
    try {
      authority.behave({ kind: 'garbage' });
      expect(await faultOf(requestToken(endpoint(authority), DATA))).toBe('malformed');
      authority.behave({ kind: 'httpError', status: 503 });
      expect(await faultOf(requestToken(endpoint(authority), DATA))).toBe('httpStatus');
      authority.behave({ kind: 'wrongImprint' });
      expect(await faultOf(requestToken(endpoint(authority), DATA))).toBe('imprintMismatch');
      authority.behave({ kind: 'wrongNonce' });
      expect(await faultOf(requestToken(endpoint(authority), DATA))).toBe('nonceMismatch');
      authority.behave({ kind: 'slow', delayMs: 1_500 });
      expect(await faultOf(requestToken(endpoint(authority, { timeoutMs: 300 }), DATA))).toBe('unreachable');
      authority.behave({ kind: 'slow', delayMs: 300 });
      expect((await requestToken(endpoint(authority), DATA)).checked.policy).toBe(authority.policy);
    } finally {
      authority.behave({ kind: 'ok' });
    }
    expect(await faultOf(requestToken(endpoint(authority, { url: 'http://127.0.0.1:9/tsa' }), DATA))).toBe('unreachable');
    expect(await faultOf(requestToken(endpoint(authority, { policy: '1.2.3.4' }), DATA))).toBe('notGranted');
  });

  it('refuses a token signed with a certificate that had expired', async () => {
    expect(await faultOf(requestToken(endpoint(expired), DATA))).toBe('certificateExpired');
  });
});
