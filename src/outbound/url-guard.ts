import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Where an outbound webhook may be sent. A customer chooses the URL, so without these checks the sender could be
 * pointed at the service's own network (databases, the Temporal frontend, a cloud metadata service). The URL
 * is checked when it is registered and again, after resolving DNS, before every attempt; the request then goes
 * to the address that was checked, so a DNS answer that changes in between cannot swap it.
 */
export const MAX_URL_LENGTH = 2048;

const METADATA_HOSTS = new Set(['metadata.google.internal', 'metadata.goog', 'metadata']);

export class UnsafeUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnsafeUrlError';
  }
}

/**
 * Why an address may not be called, or null when it may. Only globally routable unicast is called: ipaddr.js
 * classifies every address by the IANA special-purpose registries (private, loopback, link-local, shared and
 * documentation ranges, benchmarking, multicast, reserved; in IPv6 also unique-local, site-local, discard,
 * NAT64, 6to4, Teredo, IPv4-translated), so a range is refused by name rather than by a hand-kept list. An
 * IPv4-mapped IPv6 address (`::ffff:10.0.0.1`, also written `::10.0.0.1`) is judged as the IPv4 address it is;
 * the other forms that embed an IPv4 address (NAT64, 6to4, Teredo) are refused whatever they embed.
 */
export function refusedAddress(address: string, allowLoopback: boolean): string | null {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return `${address} is not an IP address`;
  }
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  const range = parsed.range();
  if (range === 'unicast') return null;
  if (range === 'loopback') return allowLoopback ? null : `${address} is a loopback address`;
  return `${address} is not a public address (${range}): private, link-local, reserved, documentation, metadata and tunnelling ranges are refused`;
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
  const host = url.hostname
    .replace(/^\[|\]$/g, '')
    .toLowerCase()
    .replace(/\.$/, '');
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
export async function resolveSafely(
  url: URL,
  allowLoopback: boolean,
  resolve: Resolver = systemResolver,
): Promise<{ address: string; family: 4 | 6 }> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await resolve(host);
  if (addresses.length === 0) throw new UnsafeUrlError(`${host} does not resolve`);
  for (const a of addresses) {
    const why = refusedAddress(a.address, allowLoopback);
    if (why) throw new UnsafeUrlError(`${host} resolves to ${why}`);
  }
  return { address: addresses[0]!.address, family: addresses[0]!.family === 6 ? 6 : 4 };
}
