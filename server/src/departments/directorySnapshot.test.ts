import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDirectoryConfig, type DirectoryConfig } from './directoryConfig.js';
import type { DirectoryEntry } from './directoryReader.js';
import { normalisedDn, snapshotOf } from './directorySnapshot.js';

const BASE = { LDAP_URL: 'ldap://127.0.0.1:389', LDAP_DEPARTMENT_BASE_DN: 'ou=groups,dc=x', LDAP_USER_BASE_DN: 'ou=people,dc=x' };
const config = (env: Record<string, string> = {}): DirectoryConfig => loadDirectoryConfig({ ...BASE, ...env })!;

const entry = (dn: string, attributes: Record<string, string | string[]>): DirectoryEntry => ({
  dn,
  attributes: new Map(Object.entries(attributes).map(([key, value]) => [key.toLowerCase(), Array.isArray(value) ? value : [value]])),
});

describe('directory settings', () => {
  it('are off without LDAP_URL, and take the documented defaults with it', () => {
    expect(loadDirectoryConfig({})).toBeNull();
    expect(config()).toMatchObject({
      bindDn: null,
      bindPassword: null,
      departments: { filter: '(objectClass=organizationalUnit)', attributes: { code: 'ou', name: 'description', parent: null } },
      users: {
        filter: '(objectClass=inetOrgPerson)',
        attributes: { userId: 'mail', name: 'cn', employeeNo: 'employeeNumber', phone: 'telephoneNumber', department: 'departmentNumber' },
      },
      pageSize: 250,
      connectTimeoutMs: 5_000,
      operationTimeoutMs: 30_000,
      intervalMs: null,
      tls: { startTls: false, ca: null, rejectUnauthorized: true },
    });
    expect(
      config({ LDAP_USER_DEPARTMENT_ATTRIBUTE: '', LDAP_DEPARTMENT_PARENT_ATTRIBUTE: 'parentCode', LDAP_SYNC_INTERVAL_MINUTES: '15' }),
    ).toMatchObject({
      users: { attributes: { department: null } },
      departments: { attributes: { parent: 'parentCode' } },
      intervalMs: 900_000,
    });
  });

  it('refuse a start with base DNs missing, two passwords or a filter no directory understands', () => {
    expect(() => loadDirectoryConfig({ LDAP_URL: 'ldap://x' })).toThrow(/LDAP_DEPARTMENT_BASE_DN and LDAP_USER_BASE_DN/);
    expect(() => config({ LDAP_BIND_PASSWORD: 'a', LDAP_BIND_PASSWORD_FILE: '/x' })).toThrow(/not both/);
    expect(() => config({ LDAP_USER_FILTER: '(objectClass=inetOrgPerson' })).toThrow(/LDAP_USER_FILTER is not an LDAP filter/);
  });

  it('read the bind password from a file, without its final newline', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'eln-ldap-'));
    try {
      await writeFile(path.join(dir, 'pw'), 's3cret pass\n');
      expect(config({ LDAP_BIND_PASSWORD_FILE: path.join(dir, 'pw') }).bindPassword).toBe('s3cret pass');
    } finally {
      await rm(dir, { recursive: true });
    }
  });
});

describe('what the directory says, shaped for the notebook', () => {
  const departments = [
    entry('ou=groups,dc=x', { ou: 'groups' }),
    entry('ou=RND,ou=groups,dc=x', { ou: 'RND', description: 'Research' }),
    entry('OU=CHEM, OU=RND, ou=groups, DC=x', { ou: 'CHEM', description: 'Chemistry' }),
    entry('ou=Bad Code,ou=groups,dc=x', { ou: 'Bad Code' }),
    entry('ou=RND2,ou=groups,dc=x', { ou: 'RND' }),
  ];

  it('finds parents in the directory tree, leaves out the base entry, bad and duplicate codes', () => {
    const snapshot = snapshotOf({ departments, users: [entry('uid=a,ou=people,dc=x', { mail: 'A@Lab.Example', cn: 'A' })] }, config());
    expect(snapshot.departments).toEqual([
      { code: 'RND', name: 'Research', parentCode: null, dn: 'ou=RND,ou=groups,dc=x' },
      { code: 'CHEM', name: 'Chemistry', parentCode: 'RND', dn: 'OU=CHEM, OU=RND, ou=groups, DC=x' },
    ]);
    expect(snapshot.read).toEqual({ departments: 4, users: 1 });
    expect(snapshot.skipped.departments).toBe(2);
    expect(snapshot.notes.kept).toEqual([
      { entry: 'ou=Bad Code,ou=groups,dc=x', reason: 'departmentCodeInvalid' },
      { entry: 'ou=RND2,ou=groups,dc=x', reason: 'departmentCodeDuplicate' },
    ]);
    expect(snapshot.users[0]?.userId).toBe('a@lab.example');
  });

  it('takes parents from an attribute when told, by code or DN, breaking a loop', () => {
    const flat = [
      entry('ou=A,ou=groups,dc=x', { ou: 'A', parent: 'B' }),
      entry('ou=B,ou=groups,dc=x', { ou: 'B', parent: 'ou=A, ou=groups, dc=x' }),
      entry('ou=C,ou=groups,dc=x', { ou: 'C', parent: 'A' }),
      entry('ou=D,ou=groups,dc=x', { ou: 'D', parent: 'NOWHERE' }),
    ];
    const snapshot = snapshotOf({ departments: flat, users: [] }, config({ LDAP_DEPARTMENT_PARENT_ATTRIBUTE: 'parent' }));
    const parents = Object.fromEntries(snapshot.departments.map((d) => [d.code, d.parentCode]));
    // Walking up from A, B's parent would close the loop: B goes to the top.
    expect(parents).toEqual({ A: 'B', B: null, C: 'A', D: null });
  });

  it('maps people: email lower-case, phone only in the notebook’s format, department by code, DN or tree', () => {
    const people = [
      entry('uid=p1,ou=people,dc=x', {
        mail: 'P1@lab.example',
        cn: 'Kim Minji',
        employeeNumber: 'E1',
        telephoneNumber: '010-1234-5678',
        departmentNumber: 'CHEM',
      }),
      entry('uid=p2,ou=people,dc=x', {
        mail: 'p2@lab.example',
        cn: 'Sato Ren',
        telephoneNumber: '+82 2 555 1234',
        departmentNumber: 'ou=rnd,ou=groups,dc=x',
      }),
      entry('uid=p3,ou=people,dc=x', { mail: 'p3@lab.example', cn: 'Lee', departmentNumber: 'LOCAL-ONLY' }),
      entry('uid=p4,ou=people,dc=x', { mail: 'not an email', cn: 'Nobody' }),
      entry('uid=p5,ou=people,dc=x', { mail: 'p1@LAB.example', cn: 'Twin' }),
    ];
    const snapshot = snapshotOf({ departments, users: people }, config());
    expect(snapshot.users.map(({ dn: _dn, ...u }) => u)).toEqual([
      { userId: 'p1@lab.example', name: 'Kim Minji', employeeNo: 'E1', phone: '010-1234-5678', departmentRef: 'CHEM' },
      { userId: 'p2@lab.example', name: 'Sato Ren', employeeNo: null, phone: null, departmentRef: 'RND' },
      { userId: 'p3@lab.example', name: 'Lee', employeeNo: null, phone: null, departmentRef: 'LOCAL-ONLY' },
    ]);
    expect(snapshot.skipped.users).toBe(2);
    expect(snapshot.notes.kept.slice(2)).toEqual([
      { entry: 'p2@lab.example', reason: 'phoneFormat' },
      { entry: 'uid=p4,ou=people,dc=x', reason: 'userIdInvalid' },
      { entry: 'uid=p5,ou=people,dc=x', reason: 'userIdDuplicate' },
    ]);

    const underDepartments = [entry('uid=p6,ou=CHEM,ou=RND,ou=groups,dc=x', { mail: 'p6@lab.example', cn: 'Park' })];
    const tree = snapshotOf({ departments, users: underDepartments }, config({ LDAP_USER_DEPARTMENT_ATTRIBUTE: '' }));
    expect(tree.users[0]?.departmentRef).toBe('CHEM');
  });

  it('compares DNs without case or spaces around separators, keeping escaped commas', () => {
    expect(normalisedDn('OU=Lab , DC=Example')).toBe('ou=lab,dc=example');
    expect(normalisedDn('cn=Doe\\, John,ou=People')).toBe('cn=doe\\, john,ou=people');
  });
});
