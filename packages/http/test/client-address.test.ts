import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { clientAddress, trustedProxyHops } from '../src/client-address.js';

// Issue 29 item 5: which address a request's per-address buckets are keyed
// on, behind zero, one or more trusted proxies.

/** A request from `peer` with the given X-Forwarded-For (Node joins repeated headers with ", "). */
const request = (peer: string | undefined, forwardedFor?: string) =>
  ({
    socket: { remoteAddress: peer },
    headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
  }) as unknown as IncomingMessage;

describe('clientAddress', () => {
  it('without trusted proxies, the TCP peer, whatever X-Forwarded-For says', () => {
    expect(clientAddress(request('10.0.0.2', '203.0.113.1'), 0)).toBe('10.0.0.2');
    expect(clientAddress(request(undefined), 0)).toBe('unknown');
  });

  it('behind one proxy, the address it appended (the right-most), not what the client wrote before it', () => {
    expect(clientAddress(request('10.0.0.2', '203.0.113.1'), 1)).toBe('203.0.113.1');
    expect(clientAddress(request('10.0.0.2', '198.51.100.9, 203.0.113.1'), 1)).toBe('203.0.113.1');
    expect(clientAddress(request('10.0.0.2', ' 198.51.100.9 ,203.0.113.1 '), 1)).toBe('203.0.113.1');
  });

  it('behind two, the second from the right (the outer proxy appended the client, the inner one the outer proxy)', () => {
    expect(clientAddress(request('10.0.0.2', 'forged, 203.0.113.1, 192.0.2.7'), 2)).toBe('203.0.113.1');
  });

  it('IPv6 addresses are kept, in lower case', () => {
    expect(clientAddress(request('10.0.0.2', '2001:DB8::1'), 1)).toBe('2001:db8::1');
    expect(clientAddress(request('10.0.0.2', '::ffff:203.0.113.1'), 1)).toBe('::ffff:203.0.113.1');
  });

  it('a header with no address where the proxy writes, or none at all, counts as the peer', () => {
    for (const header of [
      undefined,
      '',
      'garbage',
      '203.0.113.1:4711',
      '[2001:db8::1]',
      '203.0.113.1,',
      'unknown',
      `${'1.1.1.1,'.repeat(200)}203.0.113.1`,
    ]) {
      expect(clientAddress(request('10.0.0.2', header), 1), String(header)).toBe('10.0.0.2');
    }
    // Two proxies trusted, one entry: the outer proxy's is missing.
    expect(clientAddress(request('10.0.0.2', '203.0.113.1'), 2)).toBe('10.0.0.2');
  });
});

describe('trustedProxyHops (TRUST_PROXY)', () => {
  it('reads off, one, or a number of proxies', () => {
    expect([undefined, '', '0', 'false', 'FALSE', ' 0 '].map(trustedProxyHops)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(['1', 'true', 'True'].map(trustedProxyHops)).toEqual([1, 1, 1]);
    expect(['2', '9'].map(trustedProxyHops)).toEqual([2, 9]);
  });

  it('refuses anything else, naming the variable', () => {
    for (const value of ['yes', 'on', '-1', '10', '01', '1.5', '2 proxies']) {
      expect(() => trustedProxyHops(value), value).toThrow(`TRUST_PROXY "${value}" must be 0 (no proxy)`);
    }
  });
});
