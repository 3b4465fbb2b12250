import { describe, expect, it } from 'vitest';
import { ExpiringTokens, parseToken, SigningKey, tokenText } from './signedTokens.js';

const NOW = 1_700_000_000_000;

describe('SigningKey', () => {
  const key = new SigningKey('the secret', 'purpose-a');

  it('verifies its own signature of exactly that text', () => {
    const signature = key.sign('some text');
    expect(signature).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(key.verify('some text', signature)).toBe(true);
    expect(key.verify('some text!', signature)).toBe(false);
    expect(key.verify('some text', signature.slice(0, -1))).toBe(false);
    expect(key.verify('some text', '')).toBe(false);
  });

  it('refuses a signature made for another purpose or with another secret', () => {
    const signature = key.sign('some text');
    expect(new SigningKey('the secret', 'purpose-b').verify('some text', signature)).toBe(false);
    expect(new SigningKey('another secret', 'purpose-a').verify('some text', signature)).toBe(false);
  });
});

describe('ExpiringTokens', () => {
  const tokens = new ExpiringTokens('the secret', 'purpose-a', 300);

  it('holds for its lifetime, then is expired', () => {
    const token = tokens.make(['job', '42'], NOW);
    expect(token.expires).toBe(NOW / 1000 + 300);
    expect(tokens.check(token, NOW)).toBe('valid');
    expect(tokens.check(token, NOW + 300_000)).toBe('valid');
    expect(tokens.check(token, NOW + 301_000)).toBe('expired');
  });

  it('is invalid once a field, the expiry or the signature is altered, or under another purpose', () => {
    const token = tokens.make(['job', '42'], NOW);
    expect(tokens.check({ ...token, fields: ['job', '43'] }, NOW)).toBe('invalid');
    expect(tokens.check({ ...token, expires: token.expires + 3600 }, NOW)).toBe('invalid');
    expect(tokens.check({ ...token, signature: token.signature.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')) }, NOW)).toBe('invalid');
    // Shifting the boundary between fields keeps the joined text but changes the token.
    expect(tokens.check({ ...token, fields: ['job.42'] }, NOW)).toBe('invalid');
    expect(new ExpiringTokens('the secret', 'purpose-b', 300).check(token, NOW)).toBe('invalid');
    // Expiry is judged only on a valid signature: an altered, expired token is invalid, not expired.
    expect(tokens.check({ ...token, fields: ['job', '43'] }, NOW + 400_000)).toBe('invalid');
  });

  it('refuses to sign a field with a dot', () => {
    expect(() => tokens.make(['a.b'], NOW)).toThrow();
  });

  it('reads back from its text, and reads nothing from text of another shape', () => {
    const token = tokens.make(['job', '42'], NOW);
    const text = tokenText(token);
    expect(text).toBe(`job.42.${token.expires}.${token.signature}`);
    expect(parseToken(text, 2)).toEqual(token);
    expect(parseToken(text, 1)).toBeNull();
    expect(parseToken(`job.42.0${token.expires}.${token.signature}`, 2)).toBeNull();
    expect(parseToken(`job.42.1e9.${token.signature}`, 2)).toBeNull();
    expect(parseToken('', 0)).toBeNull();
  });

  it('writes export download tokens as they were written before it', () => {
    // Made by the earlier, hand-written ExportLinks with the same secret, job, user and time.
    const token = new ExpiringTokens('a stored secret', 'export-link', 300).make(['0b8f3c2e-6a51-4f0e-9d7c-2f1b9a4e5c6d', '42'], NOW);
    expect(tokenText(token)).toBe('0b8f3c2e-6a51-4f0e-9d7c-2f1b9a4e5c6d.42.1700000300.8-Rv5vlE3aYzbijqgmSwMxrOg9Dv__q7PP-5M9ntpBk');
  });
});
