import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Where an outbound webhook may be sent. A customer chooses the URL, so without these checks the sender could be
 * pointed at the service's own network (databases, the Temporal frontend, a cloud metadata service). The URL
 * is checked when it is registered and again, after resolving DNS, before every attempt; the request then goes
 * to the address that was checked, so a DNS answer that changes in between cannot swap it.
 */
export const MAX_URL_LENGTH = 2048;

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, includes the 169.254.169.254 metadata service
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved and broadcast
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7], // unique-local, includes the fd00:ec2::254 metadata service
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
  ['64:ff9b::', 96], // NAT64 can reach IPv4 private space
  ['2002::', 16], // 6to4 likewise
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}
const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

const METADATA_HOSTS = new Set(['metadata.google.internal', 'metadata.goog', 'metadata']);

export class UnsafeUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnsafeUrlError';
  }
}

/** IPv4-mapped IPv6 (`::ffff:10.0.0.1`) is checked as the IPv4 address it is. */
function normalise(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const lower = address.toLowerCase();
  const mapped = lower.startsWith('::ffff:') ? lower.slice(7) : null;
  if (mapped && isIP(mapped) === 4) return { address: mapped, family: 'ipv4' };
  return { address: lower, family: isIP(lower) === 6 ? 'ipv6' : 'ipv4' };
}

/** Why an address may not be called, or null when it may. */
export function refusedAddress(address: string, allowLoopback: boolean): string | null {
  const { address: a, family } = normalise(address);
  if (allowLoopback && loopback.check(a, family)) return null;
  if (loopback.check(a, family)) return `${address} is a loopback address`;
  if (blocked.check(a, family)) return `${address} is a private, link-local, reserved or metadata address`;
  return null;
}

/** Syntax and literal-address checks, without DNS. Throws UnsafeUrlError saying what is wrong. */
export function checkUrl(raw: string, allowLoopback: boolean): URL {
  if (raw.length > MAX_URL_LENGTH) throw new UnsafeUrlError(`url is longer than ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UnsafeUrlError('url is not a valid absolute URL');
  }
  if (url.protocol !== 'https:' && !(allowLoopback && url.protocol === 'http:')) {
    throw new UnsafeUrlError(allowLoopback ? 'url must use https or http' : 'url must use https');
  }
  if (url.username || url.password) throw new UnsafeUrlError('url must not carry credentials');
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase().replace(/\.$/, '');
  if (METADATA_HOSTS.has(host)) throw new UnsafeUrlError(`${host} is a cloud metadata service`);
  if (isIP(host)) {
    const why = refusedAddress(host, allowLoopback);
    if (why) throw new UnsafeUrlError(why);
  }
  return url;
}

export type Resolver = (host: string) => Promise<{ address: string; family: number }[]>;
const systemResolver: Resolver = (host) => lookup(host, { all: true, verbatim: true });

/** Resolves the URL's host and checks every address; returns the one to connect to. */
export async function resolveSafely(url: URL, allowLoopback: boolean, resolve: Resolver = systemResolver): Promise<{ address: string; family: 4 | 6 }> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await resolve(host);
  if (addresses.length === 0) throw new UnsafeUrlError(`${host} does not resolve`);
  for (const a of addresses) {
    const why = refusedAddress(a.address, allowLoopback);
    if (why) throw new UnsafeUrlError(`${host} resolves to ${why}`);
  }
  return { address: addresses[0]!.address, family: addresses[0]!.family === 6 ? 6 : 4 };
}
