import { describe, expect, it } from 'vitest';
import { isPrivateAddress } from '../src/webhooks/private-address.js';

// docs/webhooks.md "Safety": the addresses a webhook must not reach by
// default, judged on the address text alone (the deliverer calls this with
// each address a name resolves to, the management API with a literal host).

describe('isPrivateAddress', () => {
  it.each([
    ['0.0.0.0', '"this network", 0/8'],
    ['0.255.255.255', 'the top of 0/8'],
    ['10.0.0.1', '10/8'],
    ['10.255.255.255', 'the top of 10/8'],
    ['100.64.0.0', 'shared address space, 100.64/10'],
    ['100.127.255.255', 'the top of 100.64/10'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'the top of 127/8'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['172.16.0.1', '172.16/12'],
    ['172.31.255.255', 'the top of 172.16/12'],
    ['192.168.0.1', '192.168/16'],
    ['::', 'IPv6 unspecified'],
    ['::1', 'IPv6 loopback'],
    ['fc00::1', 'unique local fc00::/7'],
    ['fdff:ffff::1', 'the top half of fc00::/7'],
    ['fe80::1', 'link-local fe80::/10'],
    ['febf::1', 'the top of fe80::/10'],
    ['fe80::1%eth0', 'link-local with a zone index'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback, dotted'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback, in hex'],
    ['::ffff:10.1.2.3', 'IPv4-mapped 10/8'],
    ['::FFFF:A9FE:A9FE', 'IPv4-mapped link-local, upper case'],
    ['fec0::1', 'deprecated site-local fec0::/10, still routed privately by some networks'],
    ['::2', 'IPv4-compatible ::/96, deprecated and not public'],
    // Fail closed: the deliverer asks about addresses only, so anything else is a bug upstream, not a target.
    ['localhost', 'a name, not an address'],
    ['example.com', 'a name, not an address'],
    ['', 'nothing'],
    ['999.1.1.1', 'not an address'],
  ])('refuses %s (%s)', (ip) => {
    expect(isPrivateAddress(ip)).toBe(true);
  });

  it.each([
    ['1.1.1.1', 'public'],
    ['9.255.255.255', 'just below 10/8'],
    ['11.0.0.0', 'just above 10/8'],
    ['100.63.255.255', 'just below 100.64/10'],
    ['100.128.0.0', 'just above 100.64/10'],
    ['128.0.0.1', 'just above 127/8'],
    ['169.253.255.255', 'just below 169.254/16'],
    ['172.15.255.255', 'just below 172.16/12'],
    ['172.32.0.0', 'just above 172.16/12'],
    ['192.167.255.255', 'just below 192.168/16'],
    ['2001:4860:4860::8888', 'public IPv6'],
    ['fbff::1', 'just below fc00::/7'],
    ['::ffff:8.8.8.8', 'IPv4-mapped public'],
    ['fe00::1', 'just below fe80::/10, outside fc00::/7'],
  ])('allows %s (%s)', (ip) => {
    expect(isPrivateAddress(ip)).toBe(false);
  });
});
