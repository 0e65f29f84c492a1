import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions, type LookupOneOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { badRequest } from '../../platform/errors.ts';

/*
 * A webhook URL is chosen by a user but fetched by the server: without a guard it would let anyone
 * with an account probe the server's own network (SSRF). Names are checked where they are resolved,
 * inside the connection's own lookup, so a name that resolves to a public address when saved and to
 * 127.0.0.1 at delivery time (DNS rebinding) is still refused, with no window between check and use.
 */

export const PRIVATE_ADDRESS_MESSAGE =
  'Webhook receivers on loopback, private, link-local or otherwise internal addresses are refused; an administrator can allow them with WEBHOOK_ALLOW_PRIVATE=true';

/** Thrown at delivery time (the lookup refused every address); its message is recorded on the delivery. */
export class PrivateAddressRefused extends Error {
  override name = 'PrivateAddressRefused';
  constructor(address: string) {
    super(`${PRIVATE_ADDRESS_MESSAGE} (${address})`);
  }
}

const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network", 0.0.0.0 reaches the local host on Linux
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // CGNAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata services
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['100::', 64], // discard-only
  ['2001::', 32], // Teredo: tunnels to an IPv4 address we cannot check
  ['2001:db8::', 32],
  ['fc00::', 7], // unique local (ULA)
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

/** The eight 16-bit groups of an IPv6 address (with an embedded dotted quad, a zone id), or null. */
function ipv6Groups(address: string): number[] | null {
  let text = address.replace(/%.*$/, '');
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (quad) {
    const bytes = quad[1]!.split('.').map(Number);
    text = `${text.slice(0, quad.index)}${((bytes[0]! << 8) | bytes[1]!).toString(16)}:${((bytes[2]! << 8) | bytes[3]!).toString(16)}`;
  }
  const [head, tail, extra] = text.split('::');
  if (extra !== undefined) return null;
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? missing !== 0 : missing < 1) return null;
  const groups = [...left, ...Array<string>(tail === undefined ? 0 : missing).fill('0'), ...right].map((group) => parseInt(group, 16));
  return groups.length === 8 && groups.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff) ? groups : null;
}

const dotted = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;

/** The IPv4 address an IPv6 one carries (mapped, compatible, SIIT, NAT64, 6to4), so its own rules apply. */
function embeddedIpv4(groups: number[]): string | null {
  const [a, b, c, d, e, f, g, h] = groups as [number, number, number, number, number, number, number, number];
  const zeros = (...parts: number[]) => parts.every((part) => part === 0);
  if (zeros(a, b, c, d, e) && (f === 0xffff || f === 0) && !(f === 0 && zeros(g) && h <= 1)) return dotted(g, h); // ::ffff:a.b.c.d, ::a.b.c.d
  if (zeros(a, b, c, d) && e === 0xffff && f === 0) return dotted(g, h); // ::ffff:0:a.b.c.d
  if (a === 0x64 && b === 0xff9b) return dotted(g, h); // NAT64 64:ff9b::/96 and 64:ff9b:1::/48
  if (a === 0x2002) return dotted(b, c); // 6to4
  return null;
}

/** Whether a literal IPv4 or IPv6 address is loopback, private, link-local, ULA, CGNAT or otherwise not public. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address.replace(/%.*$/, ''));
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family !== 6) return true; // not an address at all: never connect to it
  const groups = ipv6Groups(address);
  if (!groups) return true;
  const inner = embeddedIpv4(groups);
  if (inner !== null) return blocked.check(inner, 'ipv4');
  return blocked.check(groups.map((group) => group.toString(16)).join(':'), 'ipv6');
}

/** A URL's host as an address or a name: brackets of IPv6 literals removed, the trailing dot of a FQDN too. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '').toLowerCase();
}

/**
 * What can be told without resolving: an address literal on a private range, or a name that is
 * always the local machine. Names are resolved (and checked) only when something is sent.
 */
export function isPrivateHost(host: string): boolean {
  if (isIP(host)) return isPrivateAddress(host);
  return host === 'localhost' || host.endsWith('.localhost') || !host.includes('.');
}

/** Refuses, with the 400 naming WEBHOOK_ALLOW_PRIVATE, a URL whose host is private by its looks. */
export function assertPublicUrl(url: string, allowPrivate: boolean): void {
  if (!allowPrivate && isPrivateHost(hostOf(new URL(url)))) throw badRequest(PRIVATE_ADDRESS_MESSAGE);
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for node:http that refuses names resolving to any private address. Every address is
 * checked, not only the one used: the connection may fall back to another (happy eyeballs).
 */
export function guardedLookup(hostname: string, options: LookupOneOptions | LookupAllOptions, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const refused = addresses.find((entry) => isPrivateAddress(entry.address));
    if (refused) return callback(Object.assign(new PrivateAddressRefused(`${hostname} resolves to ${refused.address}`), { code: 'EPRIVATE' }), []);
    if (options.all) return callback(null, addresses);
    const first = addresses[0];
    if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), []);
    callback(null, first.address, first.family);
  });
}
