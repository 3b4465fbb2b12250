import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  commentLine,
  displayKeyId,
  generateSigningKey,
  MinisignError,
  minisignPublicKeyFile,
  minisignSignature,
  parseMinisignPublicKey,
  sameKey,
  verifyMinisign,
} from './minisign.js';

const run = promisify(execFile);
const MINISIGN = '/usr/bin/minisign';

/** Runs Debian's minisign -V; answers its exit code and output. */
async function minisignVerify(dir: string, file: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(MINISIGN, ['-V', '-p', path.join(dir, 'key.pub'), '-m', path.join(dir, file)]);
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof failed.code === 'number' ? failed.code : -1, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

describe('minisign format', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'eln-minisign-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('needs Debian minisign for the offline check', () => {
    expect(existsSync(MINISIGN), `${MINISIGN} is missing: apt-get install minisign`).toBe(true);
  });

  it('signs so that minisign -V verifies, and refuses a changed byte, a changed trusted comment and another key', async () => {
    const key = generateSigningKey();
    const content = Buffer.from('{"@context":"https://w3id.org/ro/crate/1.2/context","name":"실험 ノート"}\n');
    await writeFile(path.join(dir, 'key.pub'), minisignPublicKeyFile(key));
    await writeFile(path.join(dir, 'meta.json'), content);
    const signature = minisignSignature(key, content, {
      untrusted: 'signature from the notebook',
      trusted: 'project:12 촉매 スクリーニング\texporter:kim',
    });
    await writeFile(path.join(dir, 'meta.json.minisig'), signature);

    const good = await minisignVerify(dir, 'meta.json');
    expect(good.code, good.output).toBe(0);
    expect(good.output).toContain('Signature and comment signature verified');
    expect(good.output).toContain('project:12 촉매 スクリーニング');
    expect(verifyMinisign(key, content, signature).trustedComment).toBe('project:12 촉매 スクリーニング\texporter:kim');

    // One byte of the file changed.
    const changed = Buffer.from(content);
    changed[10] = changed[10]! ^ 0x01;
    await writeFile(path.join(dir, 'meta.json'), changed);
    expect((await minisignVerify(dir, 'meta.json')).code).not.toBe(0);
    expect(() => verifyMinisign(key, changed, signature)).toThrow(MinisignError);

    // The trusted comment changed: the global signature no longer matches.
    await writeFile(path.join(dir, 'meta.json'), content);
    const forgedComment = signature.replace('project:12', 'project:13');
    await writeFile(path.join(dir, 'meta.json.minisig'), forgedComment);
    expect((await minisignVerify(dir, 'meta.json')).code).not.toBe(0);
    expect(() => verifyMinisign(key, content, forgedComment)).toThrow(/trusted comment/);

    // Another key with the same id cannot verify it either.
    const other = { ...generateSigningKey(), keyIdBytes: key.keyIdBytes };
    expect(() => verifyMinisign(other, content, signature)).toThrow(/does not match/);
    expect(() => verifyMinisign(generateSigningKey(), content, signature)).toThrow(/another key/);
  });

  it('reads back its own public key file, with the key id minisign prints', () => {
    const key = generateSigningKey();
    const file = minisignPublicKeyFile(key);
    const read = parseMinisignPublicKey(file);
    expect(sameKey(read, key)).toBe(true);
    expect(file.split('\n')[0]).toBe(`untrusted comment: minisign public key ${key.keyId}`);
    expect(displayKeyId(Buffer.from([1, 2, 3, 4, 5, 6, 7, 0xab]))).toBe('AB07060504030201');
    expect(() => parseMinisignPublicKey('untrusted comment: x\nAAAA\n')).toThrow(MinisignError);
  });

  it('keeps comments on one line and within what minisign reads', () => {
    expect(commentLine('a\nb\r\nc')).toBe('a b c');
    const long = commentLine('가'.repeat(1000));
    expect(Buffer.byteLength(long)).toBeLessThanOrEqual(900);
    expect(long).toBe('가'.repeat(300));
  });
});
