import { describe, expect, it } from 'vitest';
import { loopbackAliasesOf, mcpResources, originReached, resourcesOf } from '../src/resources.js';

describe('loopbackAliasesOf: the other name of a loopback origin', () => {
  it('127.0.0.1 and [::1] are also localhost, at the same port', () => {
    expect(loopbackAliasesOf('http://127.0.0.1:3000')).toEqual(['http://localhost:3000']);
    expect(loopbackAliasesOf('http://[::1]:3000')).toEqual(['http://localhost:3000']);
  });

  it('any other address has none (0.0.0.0 is not a name a client reaches)', () => {
    expect(loopbackAliasesOf('http://0.0.0.0:3000')).toEqual([]);
    expect(loopbackAliasesOf('http://192.168.1.20:3000')).toEqual([]);
    expect(loopbackAliasesOf('https://schedule.example.com')).toEqual([]);
  });
});

describe('originReached: the origin a request reached, by its Host', () => {
  const resources = resourcesOf('http://127.0.0.1:3000', ['http://localhost:3000']);

  it('an alias, in any case, is that alias', () => {
    expect(originReached(resources, 'localhost:3000')).toBe('http://localhost:3000');
    expect(originReached(resources, 'LOCALHOST:3000')).toBe('http://localhost:3000');
  });

  it('anything else is the public origin: another port, a rebound name, no Host, a Host that is no host', () => {
    for (const host of ['127.0.0.1:3000', 'localhost:3001', 'localhost', 'evil.example:3000', undefined, '', '[', 'a b']) {
      expect(originReached(resources, host)).toBe('http://127.0.0.1:3000');
    }
  });

  it('/mcp is a resource at each origin; the public origin is never listed as its own alias', () => {
    expect(mcpResources(resources)).toEqual(['http://127.0.0.1:3000/mcp', 'http://localhost:3000/mcp']);
    expect(resourcesOf('http://127.0.0.1:3000', ['http://127.0.0.1:3000']).aliases).toEqual([]);
  });
});
