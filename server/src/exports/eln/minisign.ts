import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, sign, verify, type KeyObject } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client.js';
import { settings } from '../../db/schema.js';

/**
 * Signatures in minisign's format (https://jedisct1.github.io/minisign/), made and checked with Node's own
 * crypto, so that anyone can check an export offline with `minisign -V`:
 *
 * - public key: `untrusted comment: ...` and base64("Ed" + key id (8 bytes) + Ed25519 public key (32 bytes));
 * - signature: `untrusted comment: ...`, base64("ED" + key id + Ed25519 signature of the BLAKE2b-512 hash of
 *   the file), `trusted comment: ...`, and base64 of the global signature: Ed25519 over the file's signature
 *   followed by the trusted comment, so the trusted comment cannot be changed either.
 */

/** The settings row that keeps the server's export key; every process of one notebook signs with the same one. */
const KEY_SETTING = 'eln_export_signing_key';

const PUBLIC_KEY_ALGORITHM = 'Ed';
const PREHASHED_ALGORITHM = 'ED';
const KEY_ID_BYTES = 8;
const PUBLIC_KEY_BYTES = 32;
const SIGNATURE_BYTES = 64;
/** minisign refuses longer comment lines; a trusted comment is clipped to stay well inside. */
const COMMENT_MAX_BYTES = 900;

const storedKey = z.object({ keyId: z.string().regex(/^[0-9a-f]{16}$/), publicKey: z.string().min(1), secretKey: z.string().min(1) });

export interface SigningKey {
  /** The 8 key id bytes as minisign stores them. */
  keyIdBytes: Buffer;
  /** The key id as minisign prints it (the bytes read as a little-endian number, upper-case hex). */
  keyId: string;
  publicKeyBytes: Buffer;
  privateKey: KeyObject;
}

export interface PublicKey {
  keyIdBytes: Buffer;
  keyId: string;
  publicKeyBytes: Buffer;
}

/** The key id as `minisign` shows it: the 8 bytes as a little-endian 64-bit number in upper-case hex. */
export function displayKeyId(keyIdBytes: Uint8Array): string {
  return Buffer.from(keyIdBytes).reverse().toString('hex').toUpperCase();
}

function newStoredKey(): z.infer<typeof storedKey> {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x ?? '', 'base64url');
  return {
    keyId: randomBytes(KEY_ID_BYTES).toString('hex'),
    publicKey: raw.toString('base64'),
    secretKey: privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
  };
}

function signingKeyOf(stored: z.infer<typeof storedKey>): SigningKey {
  const keyIdBytes = Buffer.from(stored.keyId, 'hex');
  const publicKeyBytes = Buffer.from(stored.publicKey, 'base64');
  if (publicKeyBytes.length !== PUBLIC_KEY_BYTES) throw new Error('the stored export key has a public key of the wrong size');
  return {
    keyIdBytes,
    keyId: displayKeyId(keyIdBytes),
    publicKeyBytes,
    privateKey: createPrivateKey({ key: Buffer.from(stored.secretKey, 'base64'), format: 'der', type: 'pkcs8' }),
  };
}

/** A new key pair, not stored (tests; the server's own comes from exportSigningKey). */
export function generateSigningKey(): SigningKey {
  return signingKeyOf(newStoredKey());
}

/** Each database's key, read once per process (it never changes once made). */
const loadedKeys = new WeakMap<Db, Promise<SigningKey>>();

/**
 * The server's export signing key: made on first use and kept in the settings table. Two processes making
 * one at the same moment both insert-if-absent and then read, so both use the one that won.
 */
export function exportSigningKey(db: Db): Promise<SigningKey> {
  let loading = loadedKeys.get(db);
  if (!loading) {
    loading = (async () => {
      await db
        .insert(settings)
        .values({ key: KEY_SETTING, value: JSON.stringify(newStoredKey()) })
        .onConflictDoNothing();
      const [row] = await db.select().from(settings).where(eq(settings.key, KEY_SETTING));
      if (!row) throw new Error('export signing key missing after insert');
      return signingKeyOf(storedKey.parse(JSON.parse(row.value)));
    })();
    loading.catch(() => loadedKeys.delete(db));
    loadedKeys.set(db, loading);
  }
  return loading;
}

/** The server's export key if it has made one, without making it (an import only compares against it). */
export async function existingExportKey(db: Db): Promise<PublicKey | null> {
  const loading = loadedKeys.get(db);
  if (loading) return loading;
  const [row] = await db.select().from(settings).where(eq(settings.key, KEY_SETTING));
  return row ? signingKeyOf(storedKey.parse(JSON.parse(row.value))) : null;
}

/** When the server's export key was made (made now if it was not yet). */
export async function exportKeyCreatedAt(db: Db): Promise<Date> {
  await exportSigningKey(db);
  const [row] = await db.select({ createdAt: settings.createdAt }).from(settings).where(eq(settings.key, KEY_SETTING));
  return row!.createdAt;
}

/** A public key's fingerprint: the SHA-256 of its Ed25519 bytes, hex. */
export const keyFingerprint = (key: PublicKey): string => createHash('sha256').update(key.publicKeyBytes).digest('hex');

/** A public key in minisign's `.pub` format. */
export function minisignPublicKeyFile(key: PublicKey): string {
  const body = Buffer.concat([Buffer.from(PUBLIC_KEY_ALGORITHM, 'ascii'), key.keyIdBytes, key.publicKeyBytes]).toString('base64');
  return `untrusted comment: minisign public key ${key.keyId}\n${body}\n`;
}

/** The server's public export key, as the key route serves it and each archive ships it. */
export async function exportPublicKey(db: Db): Promise<{ keyId: string; minisignPub: string }> {
  const key = await exportSigningKey(db);
  return { keyId: key.keyId, minisignPub: minisignPublicKeyFile(key) };
}

/** One line of comment text: no line breaks (they would end the line), clipped to what minisign reads. */
export function commentLine(text: string): string {
  const flat = text.replace(/[\r\n]+/g, ' ');
  let bytes = Buffer.from(flat, 'utf8');
  if (bytes.length <= COMMENT_MAX_BYTES) return flat;
  // Cut on a character boundary: drop continuation bytes at the cut.
  let end = COMMENT_MAX_BYTES;
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end -= 1;
  bytes = bytes.subarray(0, end);
  return bytes.toString('utf8');
}

/** A minisign signature (prehashed, as `minisign -S` makes by default) of `content`. */
export function minisignSignature(key: SigningKey, content: Uint8Array, comments: { untrusted: string; trusted: string }): string {
  const signature = sign(null, minisignDigest(content), key.privateKey);
  const trusted = commentLine(comments.trusted);
  const globalSignature = sign(null, Buffer.concat([signature, Buffer.from(trusted, 'utf8')]), key.privateKey);
  const line = Buffer.concat([Buffer.from(PREHASHED_ALGORITHM, 'ascii'), key.keyIdBytes, signature]).toString('base64');
  return `untrusted comment: ${commentLine(comments.untrusted)}\n${line}\ntrusted comment: ${trusted}\n${globalSignature.toString('base64')}\n`;
}

/** Why a signature or key could not be read or did not verify. */
export class MinisignError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MinisignError';
  }
}

function lines(text: string): string[] {
  return text.replace(/\r\n/g, '\n').split('\n');
}

/** Reads a minisign public key file (`.pub`), or throws MinisignError. */
export function parseMinisignPublicKey(text: string): PublicKey {
  const [comment, body] = lines(text.trim());
  if (!comment?.startsWith('untrusted comment:') || !body) throw new MinisignError('not a minisign public key');
  const bytes = Buffer.from(body.trim(), 'base64');
  if (bytes.length !== 2 + KEY_ID_BYTES + PUBLIC_KEY_BYTES || bytes.subarray(0, 2).toString('ascii') !== PUBLIC_KEY_ALGORITHM)
    throw new MinisignError('not an Ed25519 minisign public key');
  const keyIdBytes = Buffer.from(bytes.subarray(2, 2 + KEY_ID_BYTES));
  return { keyIdBytes, keyId: displayKeyId(keyIdBytes), publicKeyBytes: Buffer.from(bytes.subarray(2 + KEY_ID_BYTES)) };
}

function publicKeyObject(key: PublicKey): KeyObject {
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: key.publicKeyBytes.toString('base64url') }, format: 'jwk' });
}

/** A signature file read into its parts (not verified); throws MinisignError. */
function readSignature(signatureFile: string): { bytes: Buffer; algorithm: string; trustedLine: string; globalLine: string } {
  const [untrusted, line, trustedLine, globalLine] = lines(signatureFile);
  if (!untrusted?.startsWith('untrusted comment:') || !line || !trustedLine?.startsWith('trusted comment: ') || !globalLine)
    throw new MinisignError('not a minisign signature');
  const bytes = Buffer.from(line.trim(), 'base64');
  if (bytes.length !== 2 + KEY_ID_BYTES + SIGNATURE_BYTES) throw new MinisignError('not a minisign signature');
  const algorithm = bytes.subarray(0, 2).toString('ascii');
  if (algorithm !== PREHASHED_ALGORITHM && algorithm !== PUBLIC_KEY_ALGORITHM)
    throw new MinisignError(`unknown signature algorithm ${algorithm}`);
  return { bytes, algorithm, trustedLine, globalLine };
}

/** The id of the key a minisign signature names (as minisign prints it), without verifying it; throws MinisignError. */
export function minisignKeyId(signatureFile: string): string {
  return displayKeyId(readSignature(signatureFile).bytes.subarray(2, 2 + KEY_ID_BYTES));
}

/** What a prehashed (`ED`) minisign signature signs: the file's BLAKE2b-512 hash. */
export const minisignDigest = (content: Uint8Array): Buffer => createHash('blake2b512').update(content).digest();

/**
 * Checks a minisign signature of `content` against `key`, as `minisign -V` does: the key ids match, the
 * file's signature verifies (over its BLAKE2b-512 hash for `ED`, over the bytes for the legacy `Ed`), and
 * the global signature covers the trusted comment. Answers the trusted comment; throws MinisignError.
 */
export function verifyMinisign(key: PublicKey, content: Uint8Array, signatureFile: string): { trustedComment: string } {
  return checkMinisign(key, signatureFile, (algorithm) => (algorithm === PREHASHED_ALGORITHM ? minisignDigest(content) : content));
}

/**
 * `verifyMinisign` for a file of which only the BLAKE2b-512 hash is kept (an imported archive's metadata,
 * checked once its key is known): a prehashed signature verifies as it would over the file; a legacy
 * one, which signs the bytes themselves, cannot be checked (MinisignError).
 */
export function verifyMinisignDigest(key: PublicKey, digest: Uint8Array, signatureFile: string): { trustedComment: string } {
  return checkMinisign(key, signatureFile, (algorithm) => {
    if (algorithm !== PREHASHED_ALGORITHM) throw new MinisignError('a legacy signature needs the file itself');
    return digest;
  });
}

function checkMinisign(key: PublicKey, signatureFile: string, signedBytes: (algorithm: string) => Uint8Array): { trustedComment: string } {
  const { bytes, algorithm, trustedLine, globalLine } = readSignature(signatureFile);
  if (!bytes.subarray(2, 2 + KEY_ID_BYTES).equals(key.keyIdBytes)) throw new MinisignError('signed with another key');
  const signature = bytes.subarray(2 + KEY_ID_BYTES);
  const publicKey = publicKeyObject(key);
  if (!verify(null, signedBytes(algorithm), publicKey, signature)) throw new MinisignError('the signature does not match the content');
  const trustedComment = trustedLine.slice('trusted comment: '.length);
  const globalSignature = Buffer.from(globalLine.trim(), 'base64');
  if (
    globalSignature.length !== SIGNATURE_BYTES ||
    !verify(null, Buffer.concat([signature, Buffer.from(trustedComment, 'utf8')]), publicKey, globalSignature)
  ) {
    throw new MinisignError('the trusted comment does not match its signature');
  }
  return { trustedComment };
}

/** Whether two public keys are the same key. */
export function sameKey(a: PublicKey, b: PublicKey): boolean {
  return a.keyIdBytes.equals(b.keyIdBytes) && a.publicKeyBytes.equals(b.publicKeyBytes);
}
