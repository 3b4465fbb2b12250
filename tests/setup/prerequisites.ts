/**
 * What the test suites need besides the npm packages, in one place: the Debian packages (found and, as
 * root, installed), and which PostgreSQL and Redis servers the tests use. `npm test` runs `setup` below
 * before any test (vitest.config.ts's globalSetup) and CI runs this file (`npm run test:prerequisites`)
 * before its suites, so both install the same list.
 *
 * It runs under Node.js's own type stripping (CI starts it before anything is built): node: imports only,
 * and only TypeScript that erases to JavaScript (no enums, no parameter properties).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

type Need = { file: string } | { font: string };
export type DebianPackage = { name: string; usedBy: string } & Need;

/** Each package with what shows it is there: a file it installs, or a font family fc-list lists. */
export const DEBIAN_PACKAGES: readonly DebianPackage[] = [
  { name: 'chromium', file: '/usr/bin/chromium', usedBy: 'the browser tests and the PDF export' },
  { name: 'fontconfig', file: '/usr/bin/fc-list', usedBy: 'finding the fonts' },
  { name: 'fonts-liberation', font: 'Liberation Sans', usedBy: 'PDF export: Latin text' },
  { name: 'fonts-nanum', font: 'NanumGothic', usedBy: 'PDF export: Korean text' },
  { name: 'fonts-ipaexfont-gothic', font: 'IPAexGothic', usedBy: 'PDF export: Japanese text' },
  { name: 'fonts-noto-cjk', font: 'Noto Sans CJK', usedBy: 'PDF export and the screens: the fallback font' },
  { name: 'poppler-utils', file: '/usr/bin/pdftotext', usedBy: 'the PDF tests read the exported PDFs' },
  { name: 'qpdf', file: '/usr/bin/qpdf', usedBy: 'the PDF tests check the merged project file' },
  { name: 'ghostscript', file: '/usr/bin/gs', usedBy: 'the PDF/A-2b copy' },
  { name: 'minisign', file: '/usr/bin/minisign', usedBy: 'the .eln tests check signatures as an inspector would' },
  { name: 'unzip', file: '/usr/bin/unzip', usedBy: 'the .eln tests unpack archives' },
  { name: 'zip', file: '/usr/bin/zip', usedBy: 'the .eln tests build tampered archives' },
  { name: 'curl', file: '/usr/bin/curl', usedBy: "the README's API examples are run as written" },
  { name: 'jq', file: '/usr/bin/jq', usedBy: "the README's API examples build and read JSON with it" },
  {
    name: 'python3-requests',
    file: '/usr/lib/python3/dist-packages/requests/__init__.py',
    usedBy: "the README's Python examples are run as written (Debian's /usr/bin/python3)",
  },
  // Noninteractive: slapd's postinst takes its defaults and asks nothing.
  { name: 'slapd', file: '/usr/sbin/slapd', usedBy: 'the directory synchronisation tests start their own LDAP server' },
  { name: 'ldap-utils', file: '/usr/bin/ldapmodify', usedBy: 'the directory synchronisation tests change it' },
];

/** What the machine answers about the packages. */
export interface Machine {
  hasFile(path: string): boolean;
  /** fc-list's output (font families), empty without fc-list. */
  fontFamilies: string;
  asRoot: boolean;
  hasApt: boolean;
}

export function missingPackages(machine: Pick<Machine, 'hasFile' | 'fontFamilies'>): DebianPackage[] {
  const fonts = machine.fontFamilies.toLowerCase();
  return DEBIAN_PACKAGES.filter((pkg) => ('file' in pkg ? !machine.hasFile(pkg.file) : !fonts.includes(pkg.font.toLowerCase())));
}

export type PackagePlan = { kind: 'ready' } | { kind: 'install'; packages: string[] } | { kind: 'fail'; message: string };

/** What to do about the missing packages: nothing, install them (as root, with apt), or stop and say what to run. */
export function packagePlan(missing: readonly DebianPackage[], machine: Pick<Machine, 'asRoot' | 'hasApt'>): PackagePlan {
  if (missing.length === 0) return { kind: 'ready' };
  const names = missing.map((pkg) => pkg.name);
  if (machine.asRoot && machine.hasApt) return { kind: 'install', packages: names };
  const listed = missing.map((pkg) => `  ${pkg.name}: ${pkg.usedBy}`).join('\n');
  const how = machine.hasApt
    ? `Install them, then run the tests again:\n  sudo apt-get install -y ${names.join(' ')}`
    : 'Install them (these are their Debian names) with the system’s package manager, then run the tests again.';
  return { kind: 'fail', message: `The tests need packages this machine lacks:\n${listed}\n${how}` };
}

function readMachine(): Machine {
  const fcList = spawnSync('fc-list', [':', 'family'], { encoding: 'utf8' });
  const apt = spawnSync('apt-get', ['--version'], { stdio: 'ignore' });
  return {
    hasFile: existsSync,
    fontFamilies: fcList.status === 0 ? fcList.stdout : '',
    asRoot: process.getuid?.() === 0,
    hasApt: apt.status === 0,
  };
}

function aptGet(args: string[]): void {
  // Waits for another apt run (another test run installing too) instead of failing on its lock.
  const result = spawnSync('apt-get', ['-qq', '-o', 'DPkg::Lock::Timeout=600', ...args], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (result.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed (exit code ${result.status ?? result.signal})`);
}

/** Makes sure the packages are there: installs the missing ones as root, else throws saying what to run. */
export function ensureDebianPackages(machine: () => Machine = readMachine): void {
  const found = machine();
  const plan = packagePlan(missingPackages(found), found);
  if (plan.kind === 'ready') return;
  if (plan.kind === 'fail') throw new Error(plan.message);
  console.log(`Installing the Debian packages the tests need: ${plan.packages.join(' ')}`);
  aptGet(['update']);
  aptGet(['install', '-y', ...plan.packages]);
  const still = missingPackages(machine());
  if (still.length) throw new Error(`Still missing after apt-get install: ${still.map((pkg) => pkg.name).join(' ')}`);
}

export const DEFAULT_TEST_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/eln_test';
export const DEFAULT_TEST_REDIS_URL = 'redis://127.0.0.1:6379';
/** The value of TEST_DATABASE_URL or TEST_REDIS_URL that runs the tests without that server. */
export const WITHOUT = 'none';

export interface TestServices {
  /** null: left out on purpose (TEST_DATABASE_URL=none). */
  postgresUrl: string | null;
  redisUrl: string | null;
  /** What does not run, and why: printed, never silent. */
  notices: string[];
}

/**
 * The servers the tests use: those the environment names, else the local defaults, or none when it says
 * `none`. A named or default server that does not answer fails the tests that need it, saying so.
 */
export function testServices(env: Record<string, string | undefined>): TestServices {
  const notices: string[] = [];
  const chosen = (variable: string, fallback: string, leftOut: string): string | null => {
    const value = env[variable]?.trim();
    if (value?.toLowerCase() !== WITHOUT) return value || fallback;
    notices.push(`${variable}=${WITHOUT}: ${leftOut}`);
    return null;
  };
  const postgresUrl = chosen(
    'TEST_DATABASE_URL',
    DEFAULT_TEST_DATABASE_URL,
    'the API tests run on embedded PGlite only; the PostgreSQL-only tests and the multi-process suite do not run.',
  );
  const redisUrl = chosen('TEST_REDIS_URL', DEFAULT_TEST_REDIS_URL, 'the scale-out tests through Redis do not run.');
  return { postgresUrl, redisUrl, notices };
}

/** vitest's global setup: the packages, before any test file starts. */
export function setup(): void {
  ensureDebianPackages();
}

// `node tests/setup/prerequisites.ts` (npm run test:prerequisites): the packages alone, for CI.
const started = process.argv[1];
if (started && existsSync(started) && realpathSync(started) === fileURLToPath(import.meta.url)) {
  try {
    ensureDebianPackages();
  } catch (error) {
    console.error((error as Error).message);
    process.exitCode = 1;
  }
}
