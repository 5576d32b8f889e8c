/**
 * Where an outbound webhook may be sent. A customer chooses the URL, so without these checks the sender could be
 * pointed at the service's own network (databases, the Temporal frontend, a cloud metadata service). The URL
 * is checked when it is registered and again, after resolving DNS, before every attempt; the request then goes
 * to the address that was checked, so a DNS answer that changes in between cannot swap it. A URL is at most
 * MAX_URL_LENGTH long (the endpoint bodies' bound, src/contracts/bodies.ts).
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { MAX_URL_LENGTH } from '../contracts/bodies';

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
 * NAT64, 6to4, Teredo, IPv4-translated), so a range is refused by name rather than by a hand-kept list. The
 * NAT64, 6to4, Teredo and IPv4-translated forms are refused whatever IPv4 address they embed; the forms it does
 * not classify are judged by the IPv4 address they embed (see embeddedIPv4).
 */
export function refusedAddress(address: string, allowLoopback: boolean): string | null {
  const what = addressProblem(address, allowLoopback);
  return what === null ? null : `${address} ${what}`;
}

const LOOPBACK_SETTING = 'OUTBOUND_WEBHOOKS_ALLOW_LOOPBACK=true allows it, in development only';

// What is wrong with an address, as the end of a sentence that names it ("127.0.0.1 is a loopback address"), so
// that both the address itself and a host name that resolves to it can be the sentence's subject.
function addressProblem(address: string, allowLoopback: boolean): string | null {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return 'is not an IP address';
  }
  if (parsed.kind() === 'ipv6') {
    const v4 = embeddedIPv4(parsed as ipaddr.IPv6);
    const why = v4 ? refusedRange(v4.range(), allowLoopback) : null;
    if (why || (v4 && (parsed as ipaddr.IPv6).isIPv4MappedAddress())) return why;
  }
  return refusedRange(parsed.range(), allowLoopback);
}

function refusedRange(range: string, allowLoopback: boolean): string | null {
  if (range === 'unicast') return null;
  if (range === 'loopback') return allowLoopback ? null : `is a loopback address (${LOOPBACK_SETTING})`;
  return `is not a public address (${range}): private, link-local, reserved, documentation, metadata and tunnelling ranges are refused`;
}

/**
 * The IPv4 address an IPv6 address embeds in a form ipaddr.js does not refuse by range: IPv4-mapped
 * (`::ffff:a.b.c.d`, judged as the IPv4 address it is), IPv4-compatible (`::a.b.c.d`, RFC 4291 §2.5.5.1; a URL
 * parser writes `[::127.0.0.1]` as `[::7f00:1]`, which ipaddr.js calls unicast) and an ISATAP interface identifier
 * (`…:0:5efe:a.b.c.d`, RFC 5214 §6.1, the tunnel endpoint). `::` and `::1` are left to their own ranges.
 */
function embeddedIPv4(v6: ipaddr.IPv6): ipaddr.IPv4 | null {
  const p = v6.parts;
  const low = () => new ipaddr.IPv4([p[6]! >> 8, p[6]! & 0xff, p[7]! >> 8, p[7]! & 0xff]);
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address();
  if (p.slice(0, 6).every((x) => x === 0) && !(p[6] === 0 && p[7]! <= 1)) return low();
  // The u and g bits of the identifier may be set (0000, 0100, 0200, 0300).
  if ((p[4]! & 0xfcff) === 0 && p[5] === 0x5efe) return low();
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
    throw new UnsafeUrlError(
      allowLoopback ? 'url must use https or http' : `url must use https (http to a loopback receiver: ${LOOPBACK_SETTING})`,
    );
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
    const what = addressProblem(a.address, allowLoopback);
    if (what) throw new UnsafeUrlError(isIP(host) ? `${host} ${what}` : `${host} resolves to ${a.address}, which ${what}`);
  }
  return { address: addresses[0]!.address, family: addresses[0]!.family === 6 ? 6 : 4 };
}
