import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * What the server signs with its secret for one purpose (a file link, an export download, a catalogue
 * copy's seal): HMAC-SHA256 under a key of that purpose alone, so a signature made for one purpose never
 * passes for another's, written base64url and checked in constant time.
 *
 * The key and the text signed must never change for a purpose whose signatures are stored: catalogue
 * seals live in saved notes, and a seal made years ago must still verify.
 */
export class SigningKey {
  private readonly key: string;

  constructor(secret: string, purpose: string) {
    this.key = `${purpose}:${secret}`;
  }

  sign(text: string): string {
    return createHmac('sha256', this.key).update(text).digest('base64url');
  }

  /** Whether `signature` is the text's, compared in constant time (how long it takes tells a guesser nothing). */
  verify(text: string, signature: string): boolean {
    const expected = Buffer.from(this.sign(text));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}

/** A token that holds until it expires: its fields (none with a '.'), its expiry and their signature. */
export interface SignedToken {
  fields: string[];
  /** Unix seconds. */
  expires: number;
  signature: string;
}

export type TokenCheck = 'valid' | 'invalid' | 'expired';

/** The text a token's signature is made over: its fields and its expiry, joined by dots. */
const signedText = (fields: readonly string[], expires: number) => [...fields, String(expires)].join('.');

/** Fields joined by dots would be ambiguous if one held a dot ('a.b' + 'c' against 'a' + 'b.c'). */
const separable = (fields: readonly string[]) => fields.every((field) => !field.includes('.'));

/** Tokens of one purpose that expire a fixed time after they are made. */
export class ExpiringTokens {
  private readonly key: SigningKey;

  constructor(
    secret: string,
    purpose: string,
    private readonly lifetimeSeconds: number,
  ) {
    this.key = new SigningKey(secret, purpose);
  }

  make(fields: string[], now = Date.now()): SignedToken {
    if (!separable(fields)) throw new Error('a signed token field may not contain a dot');
    const expires = Math.floor(now / 1000) + this.lifetimeSeconds;
    return { fields, expires, signature: this.key.sign(signedText(fields, expires)) };
  }

  /** Invalid unless this purpose's key signed exactly these fields and expiry; then expired once past it. */
  check(token: SignedToken, now = Date.now()): TokenCheck {
    const { fields, expires, signature } = token;
    if (!separable(fields) || !Number.isSafeInteger(expires) || !this.key.verify(signedText(fields, expires), signature)) return 'invalid';
    return expires * 1000 < now ? 'expired' : 'valid';
  }
}

/** A token as one string: `<field>.<field>….<expires>.<signature>`. */
export function tokenText(token: SignedToken): string {
  return `${signedText(token.fields, token.expires)}.${token.signature}`;
}

/** The token a string holds (as tokenText wrote it, with `fieldCount` fields), or null when it holds none. */
export function parseToken(text: string, fieldCount: number): SignedToken | null {
  const parts = text.split('.');
  if (parts.length !== fieldCount + 2) return null;
  const signature = parts.pop() as string;
  const expiresText = parts.pop() as string;
  const expires = Number(expiresText);
  // Only the decimal form tokenText writes: `1e3` or `01` would name the same expiry in other text.
  if (!Number.isSafeInteger(expires) || String(expires) !== expiresText) return null;
  return { fields: parts, expires, signature };
}
