import path from 'node:path';
import { z } from 'zod';
import { TOKEN_LIMITS } from '@eln/shared';
import type { DatabaseTarget } from './db/client.js';
import { DEFAULT_SOCKET_LIMITS, type SocketLimits } from './collab/connections/socketLimits.js';
import { PRODUCTION_LICENCE_KEY, type VendorKey } from './licence/vendorKeys.js';
import { loadDirectoryConfig, type DirectoryConfig } from './departments/directoryConfig.js';
import { loadSsoConfig, type SsoConfig } from './auth/sso/ssoConfig.js';

/**
 * Every environment variable the server reads, parsed once. The README's configuration table mirrors
 * this list.
 */
const env = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z.string().optional(),
  DATA_DIR: z.string().default('./data'),
  FILES_DIR: z.string().optional(),
  REDIS_URL: z.string().optional(),
  REDIS_PREFIX: z.string().default('eln'),
  ELN_ADMIN_EMAIL: z.string().default('admin@eln.local'),
  ELN_ADMIN_PASSWORD: z.string().optional(),
  ELN_ADMIN_NAME: z.string().default('Administrator'),
  JWT_SECRET: z.string().min(32).optional(),
  PUBLIC_URL: z.string().optional(),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('ELN <no-reply@eln.local>'),
  TRUST_PROXY: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  CLIENT_DIST: z.string().optional(),
  COMPANY_CODE: z.string().default('ELN'),
  COMPANY_NAME: z.string().default('ELN Laboratories'),
  OTHER_COMPANY_CODE: z.string().optional(),
  MAIN_HOSTS: z.string().default(''),
  TIME_ZONE: z.string().default('UTC'),
  AUDIT_HEAD_LOG_MINUTES: z.coerce.number().positive().default(60),
  AUDIT_ANCHOR_FILE: z.string().optional(),
  COLLAB_SOCKETS_PER_ADDRESS: z.coerce.number().int().min(1).default(DEFAULT_SOCKET_LIMITS.perAddress),
  CHROMIUM_PATH: z.string().default('/usr/bin/chromium'),
  ELN_METRICS: z
    .enum(['0', '1'])
    .default('0')
    .transform((value) => value === '1'),
  TOKEN_CALLS_PER_MINUTE: z.coerce.number().int().min(1).default(TOKEN_LIMITS.callsPerMinute),
  WEBHOOKS_ALLOW_LOCAL: z
    .enum(['0', '1'])
    .default('0')
    .transform((value) => value === '1'),
  ELN_CHECK_ANSWERS: z
    .enum(['0', '1'])
    .default('0')
    .transform((value) => value === '1'),
});

export interface ThrottlePolicy {
  /** Failures inside one window before answers start to slow down. */
  slowAfter: number;
  /** Extra delay per failure beyond slowAfter, capped by maxDelayMs. */
  delayStepMs: number;
  maxDelayMs: number;
  /** Failures inside one window that lock an account for lockMs. */
  accountLockAfter: number;
  /** Failures inside one window that lock a client address for lockMs. */
  addressLockAfter: number;
  windowMs: number;
  lockMs: number;
}

export interface ServerConfig {
  port: number;
  host: string;
  database: DatabaseTarget;
  dataDir: string;
  filesDir: string;
  redisUrl: string | null;
  /** Channel and key prefix in Redis, so that several notebooks can share one Redis. */
  redisPrefix: string;
  admin: { email: string; password: string | null; name: string };
  jwtSecret: string | null;
  publicUrl: string;
  smtpUrl: string | null;
  mailFrom: string;
  /** Fastify's trustProxy: the proxies' addresses/subnets (comma-separated), or true (every hop; discouraged). */
  trustProxy: boolean | string;
  logLevel: string;
  clientDist: string | null;
  throttle: ThrottlePolicy;
  company: { code: string; name: string; otherCode: string; mainHosts: string[] };
  /** Zone in which list date filters (sd, ed) are read, e.g. Asia/Seoul. */
  timeZone: string;
  /** How often the server logs the audit chain's head (it also does at start). */
  auditHeadLogMs: number;
  /** The file outside the database where the server writes the audit chain's head as records are appended. */
  auditAnchorFile: string;
  /** Limits of the live-editing websocket per client address and before authentication. */
  socketLimits: SocketLimits;
  /** Vendor keys whose licence keys this server accepts: the production key (tests add the test key). */
  trustedLicenceKeys: readonly VendorKey[];
  /** The chromium the PDF export prints with (Debian's by default; no browser is downloaded). */
  chromiumPath: string;
  /**
   * Check every answer against its route-table schema before sending it (an answer that differs fails
   * as unexpected). On in the tests' servers, so the route table documents what the server answers.
   */
  checkAnswers: boolean;
  /** Serve `/metrics` in Prometheus's text format (ELN_METRICS=1); off by default. */
  metrics: boolean;
  /**
   * WEBHOOKS_ALLOW_LOCAL: webhooks may reach private, loopback and link-local addresses, and plain http:// to
   * loopback ones (a receiver on this machine). Off, only https:// to public addresses (SSRF).
   */
  webhooksAllowLocal: boolean;
  /** The LDAP directory departments and people are synchronised from (LDAP_* variables), or null. */
  directory: DirectoryConfig | null;
  /** Single sign-on through an OpenID Connect provider (OIDC_* variables), or null. */
  sso: SsoConfig | null;
  /** Calls one personal access token may make per minute (TOKEN_CALLS_PER_MINUTE). */
  tokenCallsPerMinute: number;
}

export const DEFAULT_THROTTLE: ThrottlePolicy = {
  slowAfter: 3,
  delayStepMs: 500,
  maxDelayMs: 4000,
  accountLockAfter: 10,
  addressLockAfter: 50,
  windowMs: 15 * 60 * 1000,
  lockMs: 15 * 60 * 1000,
};

export function loadConfig(source: NodeJS.ProcessEnv = process.env): ServerConfig {
  const e = env.parse(source);
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    port: e.PORT,
    host: e.HOST,
    database: e.DATABASE_URL ? { kind: 'postgres', url: e.DATABASE_URL } : { kind: 'pglite', dataDir: path.join(dataDir, 'pg') },
    dataDir,
    filesDir: path.resolve(e.FILES_DIR ?? path.join(dataDir, 'files')),
    redisUrl: e.REDIS_URL ?? null,
    redisPrefix: e.REDIS_PREFIX,
    admin: { email: e.ELN_ADMIN_EMAIL.toLowerCase(), password: e.ELN_ADMIN_PASSWORD ?? null, name: e.ELN_ADMIN_NAME },
    jwtSecret: e.JWT_SECRET ?? null,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    smtpUrl: e.SMTP_URL ?? null,
    mailFrom: e.MAIL_FROM,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    logLevel: e.LOG_LEVEL,
    clientDist: e.CLIENT_DIST ?? null,
    throttle: DEFAULT_THROTTLE,
    company: {
      code: e.COMPANY_CODE,
      name: e.COMPANY_NAME,
      otherCode: e.OTHER_COMPANY_CODE ?? e.COMPANY_CODE,
      mainHosts: e.MAIN_HOSTS.split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
    },
    timeZone: e.TIME_ZONE,
    auditHeadLogMs: e.AUDIT_HEAD_LOG_MINUTES * 60_000,
    auditAnchorFile: path.resolve(e.AUDIT_ANCHOR_FILE ?? path.join(dataDir, 'audit-chain-head.json')),
    socketLimits: { ...DEFAULT_SOCKET_LIMITS, perAddress: e.COLLAB_SOCKETS_PER_ADDRESS },
    trustedLicenceKeys: [PRODUCTION_LICENCE_KEY],
    chromiumPath: e.CHROMIUM_PATH,
    checkAnswers: e.ELN_CHECK_ANSWERS,
    metrics: e.ELN_METRICS,
    webhooksAllowLocal: e.WEBHOOKS_ALLOW_LOCAL,
    directory: loadDirectoryConfig(source),
    sso: loadSsoConfig(source, e.PUBLIC_URL ?? `http://localhost:${e.PORT}`),
    tokenCallsPerMinute: e.TOKEN_CALLS_PER_MINUTE,
  };
}

/**
 * TRUST_PROXY as Fastify reads it: the proxies' addresses or subnets (comma-separated), whose additions to
 * X-Forwarded-For are believed. A hop count is refused: Fastify (5.12+) cannot tell a proxy from a
 * direct client by counting and trusts nothing then, which would record the proxy as every client.
 * `true` trusts every hop, so any client can forge its address (discouraged).
 */
export function parseTrustProxy(value: string | undefined): boolean | string {
  const text = value?.trim();
  if (!text || text === 'false') return false;
  if (text === 'true') return true;
  if (/^\d+$/.test(text)) {
    throw new Error(
      `TRUST_PROXY=${text}: a hop count is not supported; name the proxy's address or subnet (e.g. 172.30.0.10 or 10.0.0.0/8)`,
    );
  }
  return text;
}
