import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { fromOwnPage } from '../src/same-origin.js';

// fromOwnPage: Sec-Fetch-Site when sent, else Origin against the public address or the Host the request came to.

const PUBLIC = 'https://book.example.com';
const request = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;
const own = (headers: Record<string, string>) => fromOwnPage(request(headers), PUBLIC);

describe('fromOwnPage', () => {
  it('takes Sec-Fetch-Site when sent: same-origin alone passes, whatever Origin says', () => {
    expect(own({ 'sec-fetch-site': 'same-origin' })).toBe(true);
    expect(own({ 'sec-fetch-site': 'same-origin', origin: 'https://evil.test' })).toBe(true);
    for (const site of ['cross-site', 'same-site', 'none', '', 'SAME-ORIGIN']) {
      expect(own({ 'sec-fetch-site': site, origin: PUBLIC, host: 'book.example.com' })).toBe(false);
    }
  });

  it('without Sec-Fetch-Site, passes an Origin of the public address or of the Host, over http or https', () => {
    expect(own({ origin: PUBLIC })).toBe(true);
    expect(own({ origin: 'http://127.0.0.1:8080', host: '127.0.0.1:8080' })).toBe(true);
    expect(own({ origin: 'https://other.name', host: 'other.name' })).toBe(true);
  });

  it('refuses any other Origin, one that only contains the right one, and the Host on another port or scheme', () => {
    expect(own({ origin: 'https://evil.test', host: 'book.example.com' })).toBe(false);
    expect(own({ origin: `${PUBLIC}.evil.test` })).toBe(false);
    expect(own({ origin: `${PUBLIC}/` })).toBe(false);
    expect(own({ origin: 'http://book.example.com:8080', host: 'book.example.com' })).toBe(false);
    expect(own({ origin: 'ftp://book.example.com', host: 'book.example.com' })).toBe(false);
    expect(own({ origin: 'null' })).toBe(false);
    // No Host: only the public address passes.
    expect(own({ origin: 'http://undefined' })).toBe(false);
    expect(own({ origin: 'https://undefined' })).toBe(false);
  });

  it('passes a client that sends neither header: no browser is being misused', () => {
    expect(own({})).toBe(true);
    expect(own({ host: 'book.example.com' })).toBe(true);
  });
});
