import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '@eln/shared';
import { startTestServer, type TestServer } from '../testing/harness.js';

/*
 * The README's examples of the API (upload a file to a note and show it, add a table from a CSV file, read
 * a saved version), run as written against a real server so that they stay true: the `curl` ones with bash,
 * curl and jq, the Python one with Debian's python3 and its `requests` (tests/setup/prerequisites.ts). A
 * session's access token stands in for ELN_TOKEN. The tests run in order on one note: the Python example
 * reads the version the curl test saved.
 */

const run = promisify(execFile);
let server: TestServer;
let url: string;
let token: string;
let labNoteNo: number;
let workDir: string;
let readme: string;

beforeAll(async () => {
  server = await startTestServer();
  url = await server.listen();
  const writer = await server.createUser({ name: 'Script Writer' });
  token = (await server.signIn(writer.userId, writer.password)).accessToken;
  const call = server.callerWith(token);
  const projectNo = (await call(api.projects.create, { title: 'Instruments', signatureList: { department: '', user: writer.userId } })).body
    .data.projectNo;
  labNoteNo = (await call(api.notes.create, { projectNo, title: 'Plate reader' })).body.data.labNoteNo;
  workDir = await mkdtemp(path.join(tmpdir(), 'eln-readme-'));
  await writeFile(path.join(workDir, 'run7.txt'), 'Plate reader run 7: 96 wells, 450 nm.\n');
  await writeFile(path.join(workDir, 'plate.csv'), 'well,OD450\nA1,0.512\nA2,"1,204"\n');
  readme = await readFile(path.join(import.meta.dirname, '../../../README.md'), 'utf8');
});
afterAll(async () => {
  await server?.stop();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

/** The code block (shell, or `language`) after `<!-- example:<name> -->` in README.md. */
function example(name: string, language = 'sh'): string {
  const found = new RegExp(`<!-- example:${name} -->\\n\`\`\`${language}\\n([\\s\\S]*?)\\n\`\`\``).exec(readme);
  if (!found?.[1]) throw new Error(`README.md has no example:${name} block`);
  return found[1];
}

/** Runs a README example in bash as a reader would (stopping at the first failure); answers its output lines. */
async function runExample(name: string): Promise<string[]> {
  const { stdout } = await run('bash', ['-eo', 'pipefail', '-c', example(name)], {
    cwd: workDir,
    env: exampleEnv(),
  });
  return stdout.split('\n').filter(Boolean);
}

const exampleEnv = () => ({ PATH: process.env.PATH, ELN_URL: url, ELN_TOKEN: token, NOTE: String(labNoteNo) });

const lastBlocks = async () => (await server.callerWith(token)(api.notes.blockList, { labNoteNo })).body.data.blockList;

describe("README's API examples", () => {
  it('address the calls of the route table', () => {
    for (const spec of [api.files.upload, api.notes.appendBlock, api.noteHistory.list, api.noteHistory.detail])
      expect(readme).toContain(`/server${spec.path}`);
  });

  it('upload a file to a note and show it, add a table from CSV, and read the saved version, with curl', async () => {
    const uploaded = await runExample('upload');
    expect(uploaded.map((line) => (JSON.parse(line) as { status: string }).status)).toEqual(['0000']);
    const fileBlock = (await lastBlocks()).at(-1)!;
    expect([fileBlock.type, fileBlock.content.includes('run7.txt')]).toEqual(['file', true]);

    const table = JSON.parse((await runExample('table')).join('\n')) as { status: string; data: { rows: number; columns: number } };
    expect(table).toMatchObject({ status: '0000', data: { rows: 3, columns: 2 } });

    const call = server.callerWith(token);
    expect((await call(api.notes.saveVersion, { labNoteNo, version: 0, blockList: [] })).body.status).toBe('0000');
    const [version, ...blocks] = await runExample('version');
    expect(JSON.parse(version!)).toMatchObject({ version: 1 });
    const saved = blocks.map((line) => JSON.parse(line) as { type: string; blockTable: { header: Array<Array<{ text: string }>> } | null });
    expect(saved.map((block) => block.type).slice(-2)).toEqual(['file', 'table']);
    expect(saved.at(-1)!.blockTable!.header.map((row) => row.map((cell) => cell.text))).toEqual([['well', 'OD450']]);
  });

  it('do the same with Python and requests', async () => {
    const before = (await lastBlocks()).length;
    // Debian's python3, where python3-requests puts `requests` (a python3 earlier on PATH may lack it).
    const { stdout } = await run('/usr/bin/python3', ['-c', example('python', 'python')], { cwd: workDir, env: exampleEnv() });
    const added = (await lastBlocks()).slice(before);
    expect(added.map((block) => block.type)).toEqual(['file', 'table']);
    expect(added[0]!.content).toContain('run7.txt');
    const [version, ...blocks] = stdout.split('\n').filter(Boolean);
    expect(version).toMatch(/^1 \d{4}-\d\d-\d\dT/);
    expect(blocks.slice(-2)).toEqual(['file ', "table ['well', 'OD450']"]);
  });

  it('stop at a refusal (curl --fail-with-body), as on a note the token may not write', async () => {
    const other = await server.createUser({ name: 'Outsider' });
    const outsider = (await server.signIn(other.userId, other.password)).accessToken;
    const refused = run('bash', ['-eo', 'pipefail', '-c', example('table')], {
      cwd: workDir,
      env: { PATH: process.env.PATH, ELN_URL: url, ELN_TOKEN: outsider, NOTE: String(labNoteNo) },
    });
    await expect(refused).rejects.toMatchObject({ stdout: expect.stringContaining('"status":"2013"') });
  });
});
