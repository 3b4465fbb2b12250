import { spawn } from 'node:child_process';
import { access, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createConnection, createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { DirectoryConfig } from '../departments/directoryConfig.js';

/**
 * A real OpenLDAP server for tests: Debian's slapd on a free loopback port, from a temporary slapd.conf
 * (core, cosine, inetorgperson and nis schemas; back_mdb) and a database loaded with slapadd, stopped by
 * its pidfile. Like a company directory it refuses anonymous reads and answers an unpaged search with at
 * most 500 entries (slapd's default size limit), while paged searches may read everything.
 */
export const SLAPD = '/usr/sbin/slapd';
const SLAPADD = '/usr/sbin/slapadd';
const LDAPMODIFY = '/usr/bin/ldapmodify';
const SCHEMA_DIR = '/etc/ldap/schema';

export const DIRECTORY_SUFFIX = 'dc=eln,dc=test';
export const DIRECTORY_ROOT = { dn: `cn=admin,${DIRECTORY_SUFFIX}`, password: 'root-secret-for-tests' };
/** The account the notebook binds with: it may read, not write. */
export const DIRECTORY_READER = { dn: `cn=notebook,${DIRECTORY_SUFFIX}`, password: 'reader-secret-for-tests' };
export const DEPARTMENT_BASE = `ou=departments,${DIRECTORY_SUFFIX}`;
export const PEOPLE_BASE = `ou=people,${DIRECTORY_SUFFIX}`;

export interface SeedDepartment {
  code: string;
  name: string;
  parentCode: string | null;
}

export interface SeedPerson {
  uid: string;
  /** Absent: the entry has no mail (the sync leaves it out). */
  mail: string | null;
  name: string;
  employeeNo: string;
  phone: string;
  departmentCode: string;
}

export interface DirectorySeed {
  departments: SeedDepartment[];
  /** Entries under ou=departments whose `ou` is no usable code (left out by the sync). */
  unusableDepartments: string[];
  people: SeedPerson[];
}

const DEPARTMENTS: SeedDepartment[] = [
  { code: 'RND', name: 'Research & Development', parentCode: null },
  { code: 'RND-CHEM', name: 'Chemistry', parentCode: 'RND' },
  { code: 'RND-CHEM-ORG', name: 'Organic Synthesis', parentCode: 'RND-CHEM' },
  { code: 'RND-CHEM-ANA', name: 'Analytical Chemistry', parentCode: 'RND-CHEM' },
  { code: 'RND-BIO', name: 'Cell Biology', parentCode: 'RND' },
  { code: 'QA', name: 'Quality Assurance', parentCode: null },
  { code: 'QA-LAB', name: 'QC Laboratory', parentCode: 'QA' },
  { code: 'OPS', name: 'Operations', parentCode: null },
  { code: 'ADM', name: 'Administration', parentCode: null },
];

const FAMILY = ['Kim', 'Lee', 'Park', 'Choi', 'Jung', 'Sato', 'Suzuki', 'Tanaka', 'Smith', 'Garcia', 'Müller', 'Rossi'];
const GIVEN = ['Minji', 'Jisoo', 'Hyun', 'Yuna', 'Haruto', 'Yui', 'Ren', 'Emma', 'Noah', 'Lucas', 'Sofia', 'Mateo'];

/** A company of `count` people spread over nested departments, plus one unusable department and one person without mail. */
export function companyDirectory(count: number): DirectorySeed {
  const people: SeedPerson[] = [];
  for (let i = 1; i <= count; i += 1) {
    const n = String(i).padStart(4, '0');
    people.push({
      uid: `p${n}`,
      mail: `person${n}@lab.example`,
      name: `${FAMILY[i % FAMILY.length]} ${GIVEN[Math.floor(i / FAMILY.length) % GIVEN.length]} ${n}`,
      employeeNo: `E${n}`,
      phone: `010-${String(1000 + (i % 9000)).padStart(4, '0')}-${n}`,
      departmentCode: DEPARTMENTS[i % DEPARTMENTS.length]!.code,
    });
  }
  people.push({ uid: 'nomail', mail: null, name: 'Shared Lab Account', employeeNo: 'E9999', phone: '02-555-0000', departmentCode: 'OPS' });
  return { departments: DEPARTMENTS.map((d) => ({ ...d })), unusableDepartments: ['Temporary Task Force'], people };
}

export function departmentDn(code: string, departments: readonly SeedDepartment[]): string {
  const chain: string[] = [];
  let current = departments.find((d) => d.code === code);
  while (current) {
    chain.push(`ou=${current.code}`);
    const parentCode = current.parentCode;
    current = parentCode ? departments.find((d) => d.code === parentCode) : undefined;
  }
  return `${chain.join(',')},${DEPARTMENT_BASE}`;
}

export const personDn = (uid: string) => `uid=${uid},${PEOPLE_BASE}`;

/** The LDIF of one person entry (for ldapadd-style changes). */
export function personLdif(person: SeedPerson): string {
  return [
    `dn: ${personDn(person.uid)}`,
    'objectClass: inetOrgPerson',
    `uid: ${person.uid}`,
    `cn: ${person.name}`,
    `sn: ${person.name.split(' ')[0]}`,
    ...(person.mail ? [`mail: ${person.mail}`] : []),
    `employeeNumber: ${person.employeeNo}`,
    `telephoneNumber: ${person.phone}`,
    `departmentNumber: ${person.departmentCode}`,
    '',
  ].join('\n');
}

function seedLdif(seed: DirectorySeed): string {
  const entries = [
    [`dn: ${DIRECTORY_SUFFIX}`, 'objectClass: dcObject', 'objectClass: organization', 'o: ELN Test Company', 'dc: eln', ''].join('\n'),
    [
      `dn: ${DIRECTORY_READER.dn}`,
      'objectClass: organizationalRole',
      'objectClass: simpleSecurityObject',
      'cn: notebook',
      `userPassword: ${DIRECTORY_READER.password}`,
      '',
    ].join('\n'),
    [`dn: ${DEPARTMENT_BASE}`, 'objectClass: organizationalUnit', 'ou: departments', ''].join('\n'),
    [`dn: ${PEOPLE_BASE}`, 'objectClass: organizationalUnit', 'ou: people', ''].join('\n'),
  ];
  // Parents before children: slapadd checks that each entry's parent exists.
  const depth = (d: SeedDepartment) => departmentDn(d.code, seed.departments).split(',').length;
  for (const d of [...seed.departments].sort((a, b) => depth(a) - depth(b))) {
    entries.push(
      [
        `dn: ${departmentDn(d.code, seed.departments)}`,
        'objectClass: organizationalUnit',
        `ou: ${d.code}`,
        `description: ${d.name}`,
        '',
      ].join('\n'),
    );
  }
  for (const name of seed.unusableDepartments)
    entries.push([`dn: ou=${name},${DEPARTMENT_BASE}`, 'objectClass: organizationalUnit', `ou: ${name}`, ''].join('\n'));
  for (const person of seed.people) entries.push(personLdif(person));
  return `${entries.join('\n')}\n`;
}

export interface TestDirectory {
  url: string;
  port: number;
  seed: DirectorySeed;
  /** The notebook's directory settings for this server (reader bind, the seed's layout); short timeouts. */
  config(overrides?: Partial<DirectoryConfig>): DirectoryConfig;
  /** Applies LDIF changes as the directory's administrator (ldapmodify; `changetype: add/delete/modify`). */
  modify(ldif: string): Promise<void>;
  /** Starts slapd again on the same port and data (after stop or kill). */
  start(): Promise<void>;
  /** Stops slapd by its pidfile and waits until it has gone. */
  stop(): Promise<void>;
  /** Ends slapd at once (SIGKILL), as a crash would; synchronous so it can strike between two answers. */
  kill(): void;
  /** Freezes slapd (SIGSTOP): it still accepts connections but answers nothing, like a hung server. */
  freeze(): void;
  thaw(): void;
  /** Stops slapd and removes its files. */
  dispose(): Promise<void>;
}

/** Starts a private slapd loaded with the seed. Fails with a clear message when slapd is not installed. */
export async function startTestDirectory(seed: DirectorySeed): Promise<TestDirectory> {
  for (const tool of [SLAPD, SLAPADD, LDAPMODIFY]) {
    await access(tool).catch(() => {
      throw new Error(`${tool} is missing: the directory tests need a real OpenLDAP (Debian: apt-get install slapd ldap-utils)`);
    });
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'eln-slapd-'));
  await mkdir(path.join(dir, 'db'));
  const conf = path.join(dir, 'slapd.conf');
  const pidFile = path.join(dir, 'slapd.pid');
  await writeFile(conf, slapdConf(dir, pidFile));
  await writeFile(path.join(dir, 'seed.ldif'), seedLdif(seed));
  await run(SLAPADD, ['-q', '-f', conf, '-l', path.join(dir, 'seed.ldif')]);
  const port = await freePort();
  const url = `ldap://127.0.0.1:${port}`;
  let pid: number | null = null;

  // slapd forks and its parent answers at once: a child that fails (its port taken meanwhile, say) leaves
  // no pidfile and says nothing. It is started once more before giving up.
  const start = async () => {
    for (let attempt = 1; ; attempt += 1) {
      await run(SLAPD, ['-f', conf, '-h', `${url}/`]);
      try {
        pid = await waitForPid(pidFile, attempt === 1 ? 20_000 : 30_000);
        break;
      } catch (error) {
        if (attempt === 2) throw error;
      }
    }
    await waitForPort(port);
  };
  const signal = (name: NodeJS.Signals) => {
    if (pid !== null) process.kill(pid, name);
  };
  const stop = async () => {
    if (pid === null) return;
    const stopping = pid;
    signal('SIGCONT');
    signal('SIGTERM');
    await waitForExit(stopping);
    pid = null;
    await rm(pidFile, { force: true });
  };
  await start();

  return {
    url,
    port,
    seed,
    config: (overrides = {}) => ({
      url,
      bindDn: DIRECTORY_READER.dn,
      bindPassword: DIRECTORY_READER.password,
      departments: {
        baseDn: DEPARTMENT_BASE,
        filter: '(objectClass=organizationalUnit)',
        attributes: { code: 'ou', name: 'description', parent: null },
      },
      users: {
        baseDn: PEOPLE_BASE,
        filter: '(objectClass=inetOrgPerson)',
        attributes: { userId: 'mail', name: 'cn', employeeNo: 'employeeNumber', phone: 'telephoneNumber', department: 'departmentNumber' },
      },
      pageSize: 250,
      connectTimeoutMs: 2_000,
      operationTimeoutMs: 2_000,
      intervalMs: null,
      tls: { startTls: false, ca: null, rejectUnauthorized: true },
      ...overrides,
    }),
    modify: (ldif) => run(LDAPMODIFY, ['-x', '-H', url, '-D', DIRECTORY_ROOT.dn, '-w', DIRECTORY_ROOT.password], ldif),
    start,
    stop,
    kill() {
      const killed = pid;
      signal('SIGKILL');
      pid = null;
      // The pidfile stays behind after a kill; a later start writes a new one.
      if (killed !== null) void rm(pidFile, { force: true });
    },
    freeze: () => signal('SIGSTOP'),
    thaw: () => signal('SIGCONT'),
    async dispose() {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

function slapdConf(dir: string, pidFile: string): string {
  return [
    ...['core', 'cosine', 'inetorgperson', 'nis'].map((name) => `include ${SCHEMA_DIR}/${name}.schema`),
    `pidfile ${pidFile}`,
    `argsfile ${path.join(dir, 'slapd.args')}`,
    'modulepath /usr/lib/ldap',
    'moduleload back_mdb',
    'loglevel none',
    // slapd's default: an unpaged search answers at most 500 entries; paged searches may read them all.
    'sizelimit size.soft=500 size.prtotal=unlimited',
    'database mdb',
    'maxsize 104857600',
    `suffix "${DIRECTORY_SUFFIX}"`,
    `rootdn "${DIRECTORY_ROOT.dn}"`,
    `rootpw ${DIRECTORY_ROOT.password}`,
    `directory ${path.join(dir, 'db')}`,
    'access to attrs=userPassword by anonymous auth by * none',
    'access to * by users read by * none',
    '',
  ].join('\n');
}

/** Runs a tool to its end (slapd returns once it has forked), with `input` on its stdin; fails with its output. */
function run(command: string, args: string[], input?: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${path.basename(command)} exited with ${code}: ${output.trim()}`)),
    );
    child.stdin.end(input ?? '');
  });
}

/**
 * A free port below the kernel's ephemeral range (32768 and up on Linux), so that after a kill no outgoing
 * connection of another test can be given slapd's port before it starts again.
 */
async function freePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const free = await new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    });
    if (free) return port;
  }
}

/**
 * A bound that catches a slapd that never comes up, not a slow one: on a loaded 2-core machine a restart
 * once took over 10 s to write its pidfile.
 */
async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`slapd: ${what} did not happen within ${timeoutMs} ms`);
}

async function waitForPid(pidFile: string, timeoutMs?: number): Promise<number> {
  let pid = 0;
  await waitFor(
    'writing its pidfile',
    async () => {
      pid = Number((await readFile(pidFile, 'utf8').catch(() => '')).trim());
      return pid > 0;
    },
    timeoutMs,
  );
  return pid;
}

function waitForPort(port: number): Promise<void> {
  return waitFor(
    `listening on port ${port}`,
    () =>
      new Promise((resolve) => {
        const socket = createConnection({ port, host: '127.0.0.1' });
        socket.once('connect', () => {
          socket.destroy();
          resolve(true);
        });
        socket.once('error', () => resolve(false));
      }),
  );
}

function waitForExit(pid: number): Promise<void> {
  return waitFor(`process ${pid} ending`, async () => {
    try {
      process.kill(pid, 0);
      return false;
    } catch {
      return true;
    }
  });
}
