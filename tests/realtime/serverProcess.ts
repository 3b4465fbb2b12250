import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import type { CallAnswer, CallInput, CallSpec } from '@eln/shared';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
/** An API call that has not answered by then fails its test's step rather than its whole timeout. */
const CALL_TIMEOUT_MS = 30_000;
/** How much of what a server process printed is kept for a failing test's report. */
const OUTPUT_KEPT = 8_000;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * The real server as its own process (server/src/main.ts), on a database that outlives it: PGlite in a
 * temporary folder, or (ELN_TEST_DB=postgres) a fresh database on TEST_DATABASE_URL's server.
 */
export class ServerProcess {
  private child: ChildProcess | null = null;
  /** What the process printed (errors only, at LOG_LEVEL=error), over all its starts, the latest OUTPUT_KEPT characters. */
  private output = '';
  private starts = 0;
  private constructor(
    readonly port: number,
    /** Its environment: its database (DATA_DIR or DATABASE_URL) and settings, for other processes of a test on the same database. */
    readonly env: NodeJS.ProcessEnv,
    private readonly cleanup: () => Promise<void>,
  ) {}

  static readonly adminPassword = 'durability-admin-password';

  /**
   * `shared`: a database (and anything else, e.g. REDIS_URL) given by the caller, who creates and drops
   * it, so that several processes can share it. `settings`: more environment (SMTP_URL, say).
   */
  static async create(
    shared?: { env: NodeJS.ProcessEnv & { DATABASE_URL: string } },
    settings: NodeJS.ProcessEnv = {},
  ): Promise<ServerProcess> {
    const port = await freePort();
    const base = {
      ...settings,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'error',
      ELN_ADMIN_PASSWORD: ServerProcess.adminPassword,
      CLIENT_DIST: '/nonexistent',
      ELN_CHECK_ANSWERS: '1',
    };
    if (shared) return new ServerProcess(port, { ...base, ...shared.env }, async () => undefined);
    if (process.env.ELN_TEST_DB === 'postgres') {
      const url = process.env.TEST_DATABASE_URL;
      if (!url) throw new Error('ELN_TEST_DB=postgres needs TEST_DATABASE_URL');
      const name = `eln_dur_${randomBytes(4).toString('hex')}`;
      const admin = postgres(url, { max: 1, onnotice: () => undefined });
      await admin.unsafe(`CREATE DATABASE ${name}`);
      await admin.end();
      const dbUrl = new URL(url);
      dbUrl.pathname = `/${name}`;
      return new ServerProcess(port, { ...base, DATABASE_URL: dbUrl.toString() }, async () => {
        const client = postgres(url, { max: 1, onnotice: () => undefined });
        await client.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await client.end();
      });
    }
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'eln-durability-'));
    return new ServerProcess(port, { ...base, DATA_DIR: dataDir }, () => rm(dataDir, { recursive: true, force: true }));
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
      cwd: root,
      env: { ...process.env, ...this.env, DATABASE_URL: this.env.DATABASE_URL ?? '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      this.keep(chunk);
    });
    child.stdout?.on('data', (chunk: Buffer) => this.keep(chunk));
    this.starts += 1;
    this.keep(`-- start ${this.starts}\n`);
    this.child = child;
    const until = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}: ${stderr}`);
      try {
        const response = await fetch(`${this.url}/healthz`);
        if (response.ok) return;
      } catch {
        // not listening yet
      }
      if (Date.now() > until) throw new Error(`server did not start: ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  private keep(chunk: Buffer | string): void {
    this.output = (this.output + chunk.toString()).slice(-OUTPUT_KEPT);
  }

  /** The end of what the process printed over all its starts (its logged errors), for a failing test's report. */
  recentOutput(): string {
    return this.output;
  }

  /** Makes a call of the route table; answers the data, or throws with the path, status and message. */
  async call<C extends CallSpec>(spec: C, body: CallInput<C>, token?: string): Promise<CallAnswer<C>> {
    const response = await fetch(`${this.url}/server${spec.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
    const answer = (await response.json()) as { status: string; message: string; data: CallAnswer<C> };
    if (answer.status !== '0000') throw new Error(`${spec.path}: ${answer.status} ${answer.message}`);
    return answer.data;
  }

  /** Stops the process with a signal and waits until it is gone. */
  async stop(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await exited;
    this.child = null;
  }

  async dispose(): Promise<void> {
    await this.stop('SIGKILL');
    await this.cleanup();
  }
}
