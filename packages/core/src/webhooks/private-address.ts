import { isIPv4, isIPv6 } from 'node:net';

// A webhook's URL is written by an account holder, and the server POSTs to
// it from inside the network it runs in. Without this rule a URL could reach
// the host's own services (127.0.0.1, a cloud metadata endpoint at
// 169.254.169.254) or the private network around it (docs/webhooks.md "Safety").

/** Why an address is not a public unicast address, in words for `last_error`. */
export type AddressKind =
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'shared (CGNAT)'
  | 'link-local'
  | 'unique-local'
  | 'multicast'
  | 'reserved'
  | 'not an IP address';

/** [first octets as a 32-bit number, prefix length, kind] */
const V4_RANGES: readonly (readonly [number, number, AddressKind])[] = [
  [v4('0.0.0.0'), 8, 'unspecified'], // "this network": 0.0.0.0 connects to the host itself on Linux
  [v4('10.0.0.0'), 8, 'private'],
  [v4('100.64.0.0'), 10, 'shared (CGNAT)'],
  [v4('127.0.0.0'), 8, 'loopback'],
  [v4('169.254.0.0'), 16, 'link-local'],
  [v4('172.16.0.0'), 12, 'private'],
  [v4('192.0.0.0'), 24, 'reserved'],
  [v4('192.168.0.0'), 16, 'private'],
  [v4('198.18.0.0'), 15, 'reserved'],
  [v4('224.0.0.0'), 4, 'multicast'],
  [v4('240.0.0.0'), 4, 'reserved'], // and 255.255.255.255, broadcast
];

function v4(text: string): number {
  return text.split('.').reduce((n, octet) => n * 256 + Number(octet), 0);
}

function v4Kind(n: number): AddressKind | undefined {
  for (const [base, bits, kind] of V4_RANGES) {
    const size = 2 ** (32 - bits);
    if (n >= base && n < base + size) return kind;
  }
  return undefined;
}

/** The eight 16-bit groups of an IPv6 address (zone id dropped, an embedded dotted quad folded in). */
function v6Groups(text: string): number[] {
  let address = text.split('%')[0]!;
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (quad) {
    const n = v4(quad[1]!);
    address = `${address.slice(0, quad.index)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, tail] = address.includes('::') ? address.split('::') : [address, undefined];
  const part = (s: string | undefined) => (s ? s.split(':').map((g) => Number.parseInt(g, 16)) : []);
  const front = part(head);
  const back = part(tail);
  const zeros = tail === undefined ? [] : new Array<number>(8 - front.length - back.length).fill(0);
  return [...front, ...zeros, ...back];
}

function v6Kind(groups: readonly number[]): AddressKind | undefined {
  const [g0 = 0, g1 = 0, , , , g5 = 0, g6 = 0, g7 = 0] = groups;
  const embeddedV4 = g6 * 65536 + g7;
  const zeroUpTo = (n: number) => groups.slice(0, n).every((g) => g === 0);
  if (zeroUpTo(8)) return 'unspecified';
  if (zeroUpTo(7) && g7 === 1) return 'loopback';
  // IPv4-mapped (::ffff:a.b.c.d) and the old IPv4-compatible (::a.b.c.d): the socket reaches the IPv4 address.
  if (zeroUpTo(5) && (g5 === 0xffff || g5 === 0)) return v4Kind(embeddedV4);
  // NAT64 (64:ff9b::/96) reaches the IPv4 address it embeds; 64:ff9b:1::/48 is for local use.
  if (g0 === 0x64 && g1 === 0xff9b && groups.slice(2, 6).every((g) => g === 0)) return v4Kind(embeddedV4);
  if (g0 === 0x64 && g1 === 0xff9b && groups[2] === 1) return 'private';
  // 6to4 (2002::/16) tunnels to the IPv4 address in groups 1 and 2.
  if (g0 === 0x2002) return v4Kind(g1 * 65536 + (groups[2] ?? 0));
  if ((g0 & 0xfe00) === 0xfc00) return 'unique-local';
  if ((g0 & 0xffc0) === 0xfe80) return 'link-local';
  if ((g0 & 0xffc0) === 0xfec0) return 'private'; // site-local, deprecated but still routed by some
  if ((g0 & 0xff00) === 0xff00) return 'multicast';
  if (g0 === 0x0100 && groups.slice(1, 4).every((g) => g === 0)) return 'reserved'; // discard-only 100::/64
  return undefined;
}

/** Why `ip` may not be a webhook's target, or undefined for a public unicast address. Anything not an IP is refused. */
export function privateAddressKind(ip: string): AddressKind | undefined {
  if (isIPv4(ip)) return v4Kind(v4(ip));
  if (isIPv6(ip)) return v6Kind(v6Groups(ip));
  return 'not an IP address';
}

/** True when `ip` is not a public unicast address: loopback, private, link-local, unique-local, CGNAT, unspecified and the like. */
export function isPrivateAddress(ip: string): boolean {
  return privateAddressKind(ip) !== undefined;
}
