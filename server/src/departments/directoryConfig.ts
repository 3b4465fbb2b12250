import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { FilterParser } from 'ldapts';

/**
 * Where the company directory is and how its entries map onto departments and people: the LDAP_*
 * environment variables (README, "Directory synchronisation"). No LDAP_URL means no synchronisation.
 */
export interface DirectoryConfig {
  /** As configured; an unusable URL is reported by the sync (6002), not at start-up. */
  url: string;
  /** Null binds anonymously. */
  bindDn: string | null;
  bindPassword: string | null;
  departments: {
    baseDn: string;
    filter: string;
    attributes: {
      code: string;
      name: string;
      /** Null: a department's parent is the department it sits under in the directory tree. */
      parent: string | null;
    };
  };
  users: {
    baseDn: string;
    filter: string;
    attributes: {
      /** The notebook's user ID: an email, stored lower-case. */
      userId: string;
      name: string;
      employeeNo: string;
      phone: string;
      /** Names the user's department (its code or DN). Null: the department the entry sits under. */
      department: string | null;
    };
  };
  /** Entries asked for per page of a paged search (servers cap unpaged searches, slapd at 500). */
  pageSize: number;
  connectTimeoutMs: number;
  /** Longest wait for any one answer of the directory (bind, each page). */
  operationTimeoutMs: number;
  /** Null: only administrators start a sync. */
  intervalMs: number | null;
  tls: {
    /** Upgrade an ldap:// connection with StartTLS before binding. */
    startTls: boolean;
    /** PEM text of the certificate authorities to trust (instead of the system's). */
    ca: string | null;
    rejectUnauthorized: boolean;
  };
}

const optionalText = z
  .string()
  .optional()
  .transform((value) => (value?.trim() ? value.trim() : null));
/** An attribute name, or empty for "from the directory tree". */
const treeOrAttribute = (fallback: string) =>
  z
    .string()
    .optional()
    .transform((value) => (value ?? fallback).trim() || null);
const flag = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .optional()
    .transform((value) => (value === undefined ? fallback : ['true', '1', 'yes'].includes(value)));

const env = z.object({
  LDAP_URL: optionalText,
  LDAP_BIND_DN: optionalText,
  LDAP_BIND_PASSWORD: z.string().optional(),
  LDAP_BIND_PASSWORD_FILE: optionalText,
  LDAP_DEPARTMENT_BASE_DN: optionalText,
  LDAP_DEPARTMENT_FILTER: z.string().default('(objectClass=organizationalUnit)'),
  LDAP_DEPARTMENT_CODE_ATTRIBUTE: z.string().default('ou'),
  LDAP_DEPARTMENT_NAME_ATTRIBUTE: z.string().default('description'),
  LDAP_DEPARTMENT_PARENT_ATTRIBUTE: treeOrAttribute(''),
  LDAP_USER_BASE_DN: optionalText,
  LDAP_USER_FILTER: z.string().default('(objectClass=inetOrgPerson)'),
  LDAP_USER_ID_ATTRIBUTE: z.string().default('mail'),
  LDAP_USER_NAME_ATTRIBUTE: z.string().default('cn'),
  LDAP_USER_EMPLOYEE_NO_ATTRIBUTE: z.string().default('employeeNumber'),
  LDAP_USER_PHONE_ATTRIBUTE: z.string().default('telephoneNumber'),
  LDAP_USER_DEPARTMENT_ATTRIBUTE: treeOrAttribute('departmentNumber'),
  LDAP_PAGE_SIZE: z.coerce.number().int().min(1).max(10_000).default(250),
  LDAP_CONNECT_TIMEOUT_SECONDS: z.coerce.number().positive().max(600).default(5),
  LDAP_TIMEOUT_SECONDS: z.coerce.number().positive().max(3600).default(30),
  LDAP_SYNC_INTERVAL_MINUTES: z.coerce.number().positive().optional(),
  LDAP_STARTTLS: flag(false),
  LDAP_TLS_CA_FILE: optionalText,
  LDAP_TLS_REJECT_UNAUTHORIZED: flag(true),
});

/** The directory settings of the environment, or null when LDAP_URL is not set. */
export function loadDirectoryConfig(source: NodeJS.ProcessEnv): DirectoryConfig | null {
  const e = env.parse(source);
  if (!e.LDAP_URL) return null;
  if (!e.LDAP_DEPARTMENT_BASE_DN || !e.LDAP_USER_BASE_DN) {
    throw new Error(
      'LDAP_URL is set: LDAP_DEPARTMENT_BASE_DN and LDAP_USER_BASE_DN must be set too (where the departments and the people are)',
    );
  }
  if (e.LDAP_BIND_PASSWORD !== undefined && e.LDAP_BIND_PASSWORD_FILE) {
    throw new Error('Set LDAP_BIND_PASSWORD or LDAP_BIND_PASSWORD_FILE, not both');
  }
  checkFilter('LDAP_DEPARTMENT_FILTER', e.LDAP_DEPARTMENT_FILTER);
  checkFilter('LDAP_USER_FILTER', e.LDAP_USER_FILTER);
  const bindPassword = e.LDAP_BIND_PASSWORD_FILE
    ? readFileSync(e.LDAP_BIND_PASSWORD_FILE, 'utf8').replace(/\r?\n$/, '')
    : (e.LDAP_BIND_PASSWORD ?? null);
  return {
    url: e.LDAP_URL,
    bindDn: e.LDAP_BIND_DN,
    bindPassword,
    departments: {
      baseDn: e.LDAP_DEPARTMENT_BASE_DN,
      filter: e.LDAP_DEPARTMENT_FILTER,
      attributes: {
        code: e.LDAP_DEPARTMENT_CODE_ATTRIBUTE,
        name: e.LDAP_DEPARTMENT_NAME_ATTRIBUTE,
        parent: e.LDAP_DEPARTMENT_PARENT_ATTRIBUTE,
      },
    },
    users: {
      baseDn: e.LDAP_USER_BASE_DN,
      filter: e.LDAP_USER_FILTER,
      attributes: {
        userId: e.LDAP_USER_ID_ATTRIBUTE,
        name: e.LDAP_USER_NAME_ATTRIBUTE,
        employeeNo: e.LDAP_USER_EMPLOYEE_NO_ATTRIBUTE,
        phone: e.LDAP_USER_PHONE_ATTRIBUTE,
        department: e.LDAP_USER_DEPARTMENT_ATTRIBUTE,
      },
    },
    pageSize: e.LDAP_PAGE_SIZE,
    connectTimeoutMs: Math.round(e.LDAP_CONNECT_TIMEOUT_SECONDS * 1000),
    operationTimeoutMs: Math.round(e.LDAP_TIMEOUT_SECONDS * 1000),
    intervalMs: e.LDAP_SYNC_INTERVAL_MINUTES ? Math.round(e.LDAP_SYNC_INTERVAL_MINUTES * 60_000) : null,
    tls: {
      startTls: e.LDAP_STARTTLS,
      ca: e.LDAP_TLS_CA_FILE ? readFileSync(e.LDAP_TLS_CA_FILE, 'utf8') : null,
      rejectUnauthorized: e.LDAP_TLS_REJECT_UNAUTHORIZED,
    },
  };
}

/** A filter the directory could never understand stops the start, naming the variable. */
function checkFilter(name: string, filter: string): void {
  try {
    FilterParser.parseString(filter);
  } catch (error) {
    throw new Error(`${name} is not an LDAP filter (RFC 4515): ${(error as Error).message}`);
  }
}
