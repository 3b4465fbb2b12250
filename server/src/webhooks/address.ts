import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { ERR } from '@eln/shared';
import { AppError } from '../http/errors.js';

/*
 * Where a webhook may be sent (SSRF): an https:// URL whose host resolves only to public addresses. With
 * the operator's WEBHOOKS_ALLOW_LOCAL, private, loopback and link-local addresses are allowed too, and
 * plain http:// to loopback addresses (a receiver on the same machine, as in tests). Checked when an
 * endpoint is registered or changed, and again at every delivery, which then connects to the address
 * checked (never resolving the name a second time: a name that changes its answer cannot slip past).
 */

/** Addresses a webhook may not reach unless the operator allows local ones. */
const LOCAL = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  LOCAL.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
  ['100::', 64],
] as const)
  LOCAL.addSubnet(network, prefix, 'ipv6');

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** The IPv4 address an IPv6 one carries (mapped `::ffff:a.b.c.d`, NAT64 `64:ff9b::`), else the address itself. */
function unwrap(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  if (isIP(address) === 4) return { address, family: 'ipv4' };
  const mapped = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return { address: mapped[1]!, family: 'ipv4' };
  const hexMapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (hexMapped) {
    const high = parseInt(hexMapped[1]!, 16);
    const low = parseInt(hexMapped[2]!, 16);
    return { address: `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`, family: 'ipv4' };
  }
  return { address, family: 'ipv6' };
}

export const isLocalAddress = (address: string) => {
  const { address: plain, family } = unwrap(address);
  return LOCAL.check(plain, family);
};
const isLoopbackAddress = (address: string) => {
  const { address: plain, family } = unwrap(address);
  return LOOPBACK.check(plain, family);
};

export interface CheckedTarget {
  url: URL;
  /** The address to connect to: one the check allowed. */
  address: string;
  family: 4 | 6;
}

/** Resolves a host name (tests replace it to give a name any address). */
export type Resolver = (host: string) => Promise<Array<{ address: string; family: number }>>;
export const systemResolver: Resolver = (host) => lookup(host, { all: true, verbatim: true });

/** A URL as typed: https (or http), no user name or password, no fragment; refused with 5203 otherwise. */
export function parseWebhookUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new AppError(ERR.webhookUrlInvalid);
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password || url.hash || !url.hostname)
    throw new AppError(ERR.webhookUrlInvalid);
  return url;
}

/**
 * Resolves the URL's host and checks every address it resolves to (one bad answer among good ones refuses
 * it: the connection could be made to any of them). Plain http:// only to loopback, and only with local
 * addresses allowed.
 */
export async function checkWebhookTarget(text: string, allowLocal: boolean, resolve: Resolver = systemResolver): Promise<CheckedTarget> {
  const url = parseWebhookUrl(text);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: Array<{ address: string; family: number }>;
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await resolve(host);
    } catch {
      throw new AppError(ERR.webhookUrlUnresolvable, { params: { host } });
    }
    if (addresses.length === 0) throw new AppError(ERR.webhookUrlUnresolvable, { params: { host } });
  }
  if (!allowLocal && addresses.some((a) => isLocalAddress(a.address))) throw new AppError(ERR.webhookUrlPrivate, { params: { host } });
  if (url.protocol === 'http:' && !(allowLocal && addresses.every((a) => isLoopbackAddress(a.address))))
    throw new AppError(ERR.webhookUrlInvalid);
  const first = addresses[0]!;
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}
