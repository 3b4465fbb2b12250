import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DEBIAN_PACKAGES,
  DEFAULT_TEST_DATABASE_URL,
  DEFAULT_TEST_REDIS_URL,
  ensureDebianPackages,
  missingPackages,
  packagePlan,
  testServices,
  type Machine,
} from './setup/prerequisites.js';
import { preparePostgres, type PostgresServer } from './setup/postgres.js';

/** What `npm test` decides from what the machine answers (tests/setup/): packages, then servers. */

const files = DEBIAN_PACKAGES.flatMap((pkg) => ('file' in pkg ? [pkg.file] : []));
const fonts = DEBIAN_PACKAGES.flatMap((pkg) => ('font' in pkg ? [pkg.font] : []));
/** fc-list's listing on a machine with every font (families as fc-list prints them). */
const allFonts = 'Liberation Sans\nNanumGothic,나눔고딕\nIPAexGothic,IPAexゴシック\nNoto Sans CJK JP,Noto Sans CJK JP Regular\n';

const machine = (over: Partial<Machine> = {}): Machine => ({
  hasFile: (file) => files.includes(file),
  fontFamilies: allFonts,
  asRoot: true,
  hasApt: true,
  ...over,
});
const names = (packages: ReturnType<typeof missingPackages>) => packages.map((pkg) => pkg.name);

describe('the Debian packages the tests need', () => {
  it('finds none missing where every file and font is there', () => {
    expect(missingPackages(machine())).toEqual([]);
    expect(packagePlan([], machine())).toEqual({ kind: 'ready' });
  });

  it('finds each one missing by its own file or font', () => {
    expect(names(missingPackages(machine({ hasFile: (file) => file !== '/usr/sbin/slapd' && file !== '/usr/bin/gs' })))).toEqual([
      'ghostscript',
      'slapd',
    ]);
    expect(names(missingPackages(machine({ fontFamilies: allFonts.replace('NanumGothic', 'Nanum Myeongjo') })))).toEqual(['fonts-nanum']);
  });

  it('on a fresh machine (no files, no fc-list) finds all of them missing', () => {
    const fresh = missingPackages(machine({ hasFile: () => false, fontFamilies: '' }));
    expect(names(fresh)).toEqual(DEBIAN_PACKAGES.map((pkg) => pkg.name));
    expect(fonts).toHaveLength(4);
  });

  it('as root with apt, installs what is missing', () => {
    const missing = missingPackages(machine({ hasFile: (file) => file !== '/usr/sbin/slapd' }));
    expect(packagePlan(missing, machine())).toEqual({ kind: 'install', packages: ['slapd'] });
  });

  it('otherwise fails naming each missing package, what needs it, and the one command to run', () => {
    const missing = missingPackages(machine({ hasFile: (file) => file !== '/usr/sbin/slapd' && file !== '/usr/bin/gs' }));
    const plan = packagePlan(missing, machine({ asRoot: false }));
    expect(plan.kind).toBe('fail');
    const message = plan.kind === 'fail' ? plan.message : '';
    expect(message).toContain('ghostscript: the PDF/A-2b copy');
    expect(message).toContain('slapd: the directory synchronisation tests');
    expect(message.trim().split('\n').at(-1)).toBe('  sudo apt-get install -y ghostscript slapd');
    // Without apt, it still fails and names them.
    const noApt = packagePlan(missing, machine({ asRoot: true, hasApt: false }));
    expect(noApt.kind === 'fail' && noApt.message).toMatch(/ghostscript[\s\S]*slapd[\s\S]*package manager/);
  });

  it('stops with the plan’s message when it cannot install, and installs nothing', () => {
    expect(() => ensureDebianPackages(() => machine({ asRoot: false, hasFile: () => false }))).toThrow(
      /sudo apt-get install -y chromium fontconfig/,
    );
    expect(() => ensureDebianPackages(() => machine())).not.toThrow();
  });

  it('is the list CI installs from (.ci/run runs the same file)', () => {
    const ci = readFileSync(path.join(import.meta.dirname, '../.ci/run'), 'utf8');
    expect(ci).toContain('npm run test:prerequisites');
    const scripts = (
      JSON.parse(readFileSync(path.join(import.meta.dirname, '../package.json'), 'utf8')) as { scripts: Record<string, string> }
    ).scripts;
    expect(scripts['test:prerequisites']).toBe('node tests/setup/prerequisites.ts');
    // No second list of packages in CI.
    expect(ci).not.toMatch(/apt-get install/);
  });
});

describe('the servers the tests use', () => {
  it('are the local PostgreSQL and Redis unless the environment names others', () => {
    expect(testServices({})).toEqual({ postgresUrl: DEFAULT_TEST_DATABASE_URL, redisUrl: DEFAULT_TEST_REDIS_URL, notices: [] });
    expect(testServices({ TEST_DATABASE_URL: '', TEST_REDIS_URL: ' ' })).toMatchObject({
      postgresUrl: DEFAULT_TEST_DATABASE_URL,
      redisUrl: DEFAULT_TEST_REDIS_URL,
    });
    expect(testServices({ TEST_DATABASE_URL: 'postgres://ci@db:5433/other', TEST_REDIS_URL: 'redis://cache:6380' })).toEqual({
      postgresUrl: 'postgres://ci@db:5433/other',
      redisUrl: 'redis://cache:6380',
      notices: [],
    });
  });

  it('are left out only when the environment says none, and then it is said', () => {
    const without = testServices({ TEST_DATABASE_URL: 'none', TEST_REDIS_URL: 'NONE' });
    expect(without.postgresUrl).toBeNull();
    expect(without.redisUrl).toBeNull();
    expect(without.notices).toEqual([
      expect.stringMatching(/^TEST_DATABASE_URL=none: .*PostgreSQL-only tests and the multi-process suite do not run/),
      expect.stringMatching(/^TEST_REDIS_URL=none: .*Redis do not run/),
    ]);
  });
});

describe('the PostgreSQL database the tests use', () => {
  /** A server that holds `databases`, recording what it was asked. */
  function server(databases: string[]) {
    const asked: string[] = [];
    const opened: string[] = [];
    const open = async (url: string): Promise<PostgresServer> => {
      opened.push(url);
      return {
        databaseExists: async (name) => databases.includes(name),
        createDatabase: async (name) => void asked.push(`create ${name}`),
        end: async () => void asked.push('end'),
      };
    };
    return { open, asked, opened };
  }

  it('is created through the server’s postgres database when missing', async () => {
    const fresh = server(['postgres', 'test']);
    await preparePostgres('postgres://postgres@127.0.0.1:5432/eln_test', fresh.open);
    expect(fresh.opened).toEqual(['postgres://postgres@127.0.0.1:5432/postgres']);
    expect(fresh.asked).toEqual(['create eln_test', 'end']);
  });

  it('is left as it is when there', async () => {
    const ready = server(['postgres', 'eln_test']);
    await preparePostgres('postgres://postgres@127.0.0.1:5432/eln_test', ready.open);
    expect(ready.asked).toEqual(['end']);
  });

  it('fails saying so, how to go on, and never the password, when the server does not answer', async () => {
    const refused = async (): Promise<PostgresServer> => {
      throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
    };
    await expect(preparePostgres('postgres://ci:secret@127.0.0.1:5432/eln_test', refused)).rejects.toThrow(
      'PostgreSQL does not answer at postgres://ci:***@127.0.0.1:5432/postgres (connect ECONNREFUSED 127.0.0.1:5432). The PostgreSQL tests need it: start it, name another server with TEST_DATABASE_URL, or set TEST_DATABASE_URL=none to run without them.',
    );
  });

  it('fails the same through a real connection to a port where nothing listens', async () => {
    await expect(preparePostgres('postgres://postgres@127.0.0.1:1/eln_test')).rejects.toThrow(
      /^PostgreSQL does not answer at .*ECONNREFUSED/,
    );
  });
});
