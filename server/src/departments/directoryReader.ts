import type { ConnectionOptions } from 'node:tls';
import {
  Client,
  InappropriateAuthError,
  InsufficientAccessError,
  InvalidCredentialsError,
  NoSuchObjectError,
  ResultCodeError,
  UnwillingToPerformError,
  type Entry,
} from 'ldapts';
import { ERR, type DirectorySyncPhase, type ErrorCode } from '@eln/shared';
import type { DirectoryConfig } from './directoryConfig.js';

/** One directory entry as read: its DN and its attributes' values as text, attribute names lower-case. */
export interface DirectoryEntry {
  dn: string;
  attributes: ReadonlyMap<string, readonly string[]>;
}

export interface DirectoryRead {
  departments: DirectoryEntry[];
  users: DirectoryEntry[];
}

export type ProgressListener = (phase: DirectorySyncPhase, entriesRead: number) => void | Promise<void>;

/** A sync that failed for a reason the product names (spec §8): the code, and the directory's own words. */
export class DirectorySyncError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly detail: string | null,
  ) {
    super(detail ?? code);
    this.name = 'DirectorySyncError';
  }
}

const DETAIL_MAX = 300;

/**
 * Reads every department and every person under the configured base DNs with paged searches (a
 * directory answers an unpaged search with at most its size limit: slapd 500, Active Directory 1,000).
 * Each answer must come within the operation timeout, so a dead or hung server fails in seconds.
 * Nothing is written anywhere: applying what was read is the caller's, in one transaction.
 */
export async function readDirectory(config: DirectoryConfig, onProgress: ProgressListener): Promise<DirectoryRead> {
  const client = connect(config);
  let stage: 'connect' | 'bind' | 'departments' | 'users' = 'connect';
  try {
    await onProgress('connecting', 0);
    if (config.tls.startTls) await client.startTLS(tlsOptionsOf(config));
    stage = 'bind';
    if (config.bindDn) {
      // An empty password makes a simple bind anonymous (RFC 4513 5.1.2): refuse it rather than read as nobody.
      if (!config.bindPassword) throw new DirectorySyncError(ERR.directoryBindRefused, 'LDAP_BIND_DN is set without a password');
      await client.bind(config.bindDn, config.bindPassword);
    }
    stage = 'departments';
    const { code, name, parent } = config.departments.attributes;
    const departments = await searchAll(
      client,
      config,
      config.departments.baseDn,
      config.departments.filter,
      [code, name, ...(parent ? [parent] : [])],
      (n) => onProgress('departments', n),
    );
    stage = 'users';
    const attributes = Object.values(config.users.attributes).filter((a): a is string => a !== null);
    const users = await searchAll(client, config, config.users.baseDn, config.users.filter, attributes, (n) =>
      onProgress('users', departments.length + n),
    );
    return { departments, users };
  } catch (error) {
    throw asSyncError(error, stage);
  } finally {
    await client.unbind().catch(() => undefined);
  }
}

function connect(config: DirectoryConfig): Client {
  let url: URL;
  try {
    url = new URL(config.url);
  } catch {
    throw new DirectorySyncError(ERR.directoryUrl, `${config.url} is not a URL`);
  }
  if ((url.protocol !== 'ldap:' && url.protocol !== 'ldaps:') || !url.hostname || (url.pathname && url.pathname !== '/')) {
    throw new DirectorySyncError(ERR.directoryUrl, `${config.url}: use ldap://host[:port] or ldaps://host[:port]`);
  }
  if (url.protocol === 'ldaps:' && config.tls.startTls)
    throw new DirectorySyncError(ERR.directoryUrl, 'StartTLS is for ldap:// URLs; ldaps:// is TLS already');
  try {
    return new Client({
      url: config.url,
      connectTimeout: config.connectTimeoutMs,
      timeout: config.operationTimeoutMs,
      // Given for ldap:// too, these options would make ldapts speak TLS from the first byte.
      tlsOptions: url.protocol === 'ldaps:' ? tlsOptionsOf(config) : undefined,
    });
  } catch (error) {
    throw new DirectorySyncError(ERR.directoryUrl, messageOf(error));
  }
}

function tlsOptionsOf(config: DirectoryConfig): ConnectionOptions {
  return { rejectUnauthorized: config.tls.rejectUnauthorized, ...(config.tls.ca ? { ca: config.tls.ca } : {}) };
}

async function searchAll(
  client: Client,
  config: DirectoryConfig,
  baseDn: string,
  filter: string,
  attributes: string[],
  onPage: (entriesSoFar: number) => void | Promise<void>,
): Promise<DirectoryEntry[]> {
  const entries: DirectoryEntry[] = [];
  const pages = client.searchPaginated(baseDn, { scope: 'sub', filter, attributes, paged: { pageSize: config.pageSize } });
  for await (const page of pages) {
    for (const entry of page.searchEntries) entries.push(toDirectoryEntry(entry));
    await onPage(entries.length);
  }
  return entries;
}

function toDirectoryEntry(entry: Entry): DirectoryEntry {
  const attributes = new Map<string, string[]>();
  for (const [key, value] of Object.entries(entry)) {
    if (key === 'dn') continue;
    const values = (Array.isArray(value) ? value : [value]).map((v) => (Buffer.isBuffer(v) ? v.toString('utf8') : v));
    attributes.set(key.toLowerCase(), values);
  }
  return { dn: entry.dn, attributes };
}

/** The product's code for what went wrong at which stage; the detail keeps the directory's own words. */
function asSyncError(error: unknown, stage: 'connect' | 'bind' | 'departments' | 'users'): DirectorySyncError {
  if (error instanceof DirectorySyncError) return error;
  const detail = messageOf(error);
  const refusedBind =
    error instanceof InvalidCredentialsError || error instanceof InappropriateAuthError || error instanceof UnwillingToPerformError;
  if (stage === 'bind' && (refusedBind || error instanceof InsufficientAccessError))
    return new DirectorySyncError(ERR.directoryBindRefused, detail);
  if (error instanceof NoSuchObjectError && stage === 'departments') return new DirectorySyncError(ERR.noDepartment, detail);
  if (error instanceof NoSuchObjectError && stage === 'users') return new DirectorySyncError(ERR.noUsers, detail);
  return new DirectorySyncError(ERR.departmentSync, detail);
}

function messageOf(error: unknown): string {
  const text = error instanceof ResultCodeError ? resultText(error) : error instanceof Error ? error.message || error.name : String(error);
  return text.length > DETAIL_MAX ? `${text.slice(0, DETAIL_MAX - 1)}…` : text;
}

/** An LDAP result as `InvalidCredentialsError (LDAP result 49): the server's words`; ldapts adds a hex code to the words. */
function resultText(error: ResultCodeError): string {
  const words = error.message.replace(/\s*Code: 0x[0-9a-f]+$/i, '').trim();
  return `${error.name} (LDAP result ${error.code})${words ? `: ${words}` : ''}`;
}
