import { BlockList, isIP } from 'node:net';

/**
 * The addresses a webhook must not reach unless the operator allows it
 * (docs/webhooks.md "Safety"): a target inside the server's own network
 * would let any token holder make the server call its neighbours (SSRF).
 */
const PRIVATE = new BlockList();
// IPv4: "this network", private (RFC 1918), shared address space for carrier NAT (RFC 6598), loopback, link-local.
PRIVATE.addSubnet('0.0.0.0', 8, 'ipv4');
PRIVATE.addSubnet('10.0.0.0', 8, 'ipv4');
PRIVATE.addSubnet('100.64.0.0', 10, 'ipv4');
PRIVATE.addSubnet('127.0.0.0', 8, 'ipv4');
PRIVATE.addSubnet('169.254.0.0', 16, 'ipv4');
PRIVATE.addSubnet('172.16.0.0', 12, 'ipv4');
PRIVATE.addSubnet('192.168.0.0', 16, 'ipv4');
// IPv6: unspecified (connects to the host itself, as 0.0.0.0 does), loopback, unique local, link-local.
PRIVATE.addAddress('::', 'ipv6');
PRIVATE.addAddress('::1', 'ipv6');
PRIVATE.addSubnet('fc00::', 7, 'ipv6');
PRIVATE.addSubnet('fe80::', 10, 'ipv6');

/**
 * True when `ip`, an IPv4 or IPv6 address as text, lies in a private,
 * loopback, link-local, shared (100.64/10) or "this network" (0/8) range.
 * An IPv4-mapped IPv6 address (`::ffff:127.0.0.1`, `::ffff:7f00:1`) is judged
 * as the IPv4 address it carries, since connecting to it reaches that
 * address. A zone index (`fe80::1%eth0`) is ignored. Anything that is not an
 * IP address (a host name) is false: names are judged by the address they
 * resolve to, at connect time.
 */
export function isPrivateAddress(ip: string): boolean {
  const address = ip.replace(/%.*$/, '');
  const version = isIP(address);
  if (version === 0) return false;
  return PRIVATE.check(address, version === 4 ? 'ipv4' : 'ipv6');
}
