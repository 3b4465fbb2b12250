import {
  departmentCode,
  EMAIL_PATTERN,
  LIMITS,
  PHONE_PATTERN,
  UNSTORABLE_CHARACTER,
  DIRECTORY_NOTES_KEPT,
  type DirectoryNote,
  type DirectoryNoteReason,
} from '@eln/shared';
import type { DirectoryConfig } from './directoryConfig.js';
import type { DirectoryEntry, DirectoryRead } from './directoryReader.js';

export interface SnapshotDepartment {
  code: string;
  name: string;
  parentCode: string | null;
  dn: string;
}

export interface SnapshotUser {
  userId: string;
  name: string;
  employeeNo: string | null;
  phone: string | null;
  /**
   * The department as the directory names it: a code of the directory's departments, or (when it names
   * none of them) the value as given, which may be a department kept in the notebook alone. Null: none.
   */
  departmentRef: string | null;
  dn: string;
}

/** What the directory says, checked and shaped for the notebook; entries that cannot be used are counted out. */
export interface DirectorySnapshot {
  departments: SnapshotDepartment[];
  users: SnapshotUser[];
  /** Entries read (the department base entry itself not counted) and entries left out. */
  read: { departments: number; users: number };
  skipped: { departments: number; users: number };
  notes: NoteBook;
}

/** Notes on entries, at most DIRECTORY_NOTES_KEPT kept (all counted). */
export class NoteBook {
  readonly kept: DirectoryNote[] = [];
  total = 0;

  add(entry: string, reason: DirectoryNoteReason): void {
    this.total += 1;
    if (this.kept.length < DIRECTORY_NOTES_KEPT) this.kept.push({ entry, reason });
  }
}

/**
 * Turns the entries read into departments and people: codes and emails checked as the notebook checks
 * them (an entry that fails is left out and noted, never guessed at), the first of any duplicate kept,
 * parents and departments found by attribute or by the directory tree.
 */
export function snapshotOf(read: DirectoryRead, config: DirectoryConfig): DirectorySnapshot {
  const notes = new NoteBook();
  const departmentBase = normalisedDn(config.departments.baseDn);
  const departmentEntries = read.departments.filter((entry) => normalisedDn(entry.dn) !== departmentBase);
  const { departments, skipped: skippedDepartments, codeByDn } = departmentsOf(departmentEntries, config, notes);
  const { users, skipped: skippedUsers } = usersOf(read.users, config, codeByDn, new Set(departments.map((d) => d.code)), notes);
  return {
    departments,
    users,
    read: { departments: departmentEntries.length, users: read.users.length },
    skipped: { departments: skippedDepartments, users: skippedUsers },
    notes,
  };
}

function departmentsOf(entries: readonly DirectoryEntry[], config: DirectoryConfig, notes: NoteBook) {
  const { attributes } = config.departments;
  const byCode = new Map<string, SnapshotDepartment & { parentRef: string | null }>();
  const codeByDn = new Map<string, string>();
  let skipped = 0;
  for (const entry of entries) {
    const raw = firstValue(entry, attributes.code);
    const parsed = departmentCode.safeParse(raw ?? '');
    if (!parsed.success) {
      skipped += 1;
      notes.add(entry.dn, 'departmentCodeInvalid');
      continue;
    }
    const code = parsed.data;
    if (byCode.has(code)) {
      skipped += 1;
      notes.add(entry.dn, 'departmentCodeDuplicate');
      continue;
    }
    const name = clip(firstValue(entry, attributes.name) ?? code, LIMITS.departmentName) || code;
    const parentRef = attributes.parent ? (firstValue(entry, attributes.parent) ?? null) : null;
    byCode.set(code, { code, name, parentCode: null, dn: entry.dn, parentRef });
    codeByDn.set(normalisedDn(entry.dn), code);
  }
  for (const department of byCode.values()) {
    department.parentCode = attributes.parent
      ? resolveDepartment(department.parentRef, byCode, codeByDn)
      : nearestAncestor(department.dn, codeByDn);
    if (department.parentCode === department.code) department.parentCode = null;
  }
  breakCycles(byCode);
  const departments = [...byCode.values()].map(({ parentRef: _unused, ...department }) => department);
  return { departments, skipped, codeByDn };
}

function usersOf(
  entries: readonly DirectoryEntry[],
  config: DirectoryConfig,
  codeByDn: ReadonlyMap<string, string>,
  codes: ReadonlySet<string>,
  notes: NoteBook,
) {
  const { attributes } = config.users;
  const users: SnapshotUser[] = [];
  const seen = new Set<string>();
  let skipped = 0;
  for (const entry of entries) {
    const userId = firstValue(entry, attributes.userId)?.toLowerCase() ?? '';
    if (!EMAIL_PATTERN.test(userId) || userId.length > LIMITS.email) {
      skipped += 1;
      notes.add(entry.dn, 'userIdInvalid');
      continue;
    }
    if (seen.has(userId)) {
      skipped += 1;
      notes.add(entry.dn, 'userIdDuplicate');
      continue;
    }
    seen.add(userId);
    const phoneValue = firstValue(entry, attributes.phone);
    // The notebook's phone format is what find-ID matches on; another form is left out rather than stored unmatched.
    const phone = phoneValue && PHONE_PATTERN.test(phoneValue) ? phoneValue : null;
    if (phoneValue && !phone) notes.add(userId, 'phoneFormat');
    const departmentRef = attributes.department
      ? userDepartmentOf(firstValue(entry, attributes.department), codes, codeByDn)
      : nearestAncestor(entry.dn, codeByDn);
    users.push({
      userId,
      name: clip(firstValue(entry, attributes.name) ?? '', LIMITS.userName) || userId.slice(0, LIMITS.userName),
      employeeNo: clip(firstValue(entry, attributes.employeeNo) ?? '', LIMITS.employeeNo) || null,
      phone,
      departmentRef,
      dn: entry.dn,
    });
  }
  return { users, skipped };
}

/** A user's department attribute: a directory department's code or DN, else the value itself (maybe a local department). */
function userDepartmentOf(value: string | undefined, codes: ReadonlySet<string>, codeByDn: ReadonlyMap<string, string>): string | null {
  if (!value) return null;
  if (codes.has(value)) return value;
  return codeByDn.get(normalisedDn(value)) ?? value;
}

function resolveDepartment(ref: string | null, byCode: ReadonlyMap<string, unknown>, codeByDn: ReadonlyMap<string, string>): string | null {
  if (!ref) return null;
  if (byCode.has(ref)) return ref;
  return codeByDn.get(normalisedDn(ref)) ?? null;
}

/** The code of the closest department above an entry in the directory tree, or null. */
function nearestAncestor(dn: string, codeByDn: ReadonlyMap<string, string>): string | null {
  const rdns = splitDn(normalisedDn(dn));
  for (let i = 1; i < rdns.length; i += 1) {
    const code = codeByDn.get(rdns.slice(i).join(','));
    if (code) return code;
  }
  return null;
}

/** Parents named by attribute can loop (A under B under A): the department closing a loop goes to the top. */
function breakCycles(byCode: Map<string, { code: string; parentCode: string | null }>): void {
  for (const start of byCode.values()) {
    const path = new Set<string>([start.code]);
    let current = start;
    while (current.parentCode) {
      const parent = byCode.get(current.parentCode);
      if (!parent) break;
      if (path.has(parent.code)) {
        current.parentCode = null;
        break;
      }
      path.add(parent.code);
      current = parent;
    }
  }
}

function firstValue(entry: DirectoryEntry, attribute: string): string | undefined {
  const value = entry.attributes.get(attribute.toLowerCase())?.[0];
  const cleaned = value?.replace(new RegExp(UNSTORABLE_CHARACTER.source, 'g'), '').trim();
  return cleaned ? cleaned : undefined;
}

function clip(value: string, max: number): string {
  return [...value].slice(0, max).join('').trim();
}

/** DNs compare case-insensitively, without the spaces around separators (`OU=Lab, DC=x` = `ou=lab,dc=x`). */
export function normalisedDn(dn: string): string {
  return splitDn(dn)
    .map((rdn) =>
      rdn
        .replace(/\s*=\s*/, '=')
        .trim()
        .toLowerCase(),
    )
    .join(',');
}

/** RDNs of a DN, splitting on commas that are not escaped. */
function splitDn(dn: string): string[] {
  const parts: string[] = [];
  let current = '';
  for (let i = 0; i < dn.length; i += 1) {
    const char = dn[i]!;
    if (char === '\\' && i + 1 < dn.length) {
      current += char + dn[i + 1];
      i += 1;
    } else if (char === ',') {
      parts.push(current.trim());
      current = '';
    } else current += char;
  }
  if (current.trim()) parts.push(current.trim());
  return parts;
}
