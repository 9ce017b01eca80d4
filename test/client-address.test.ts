import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from './support/http.js';
import { movableClock, startInProcess } from './support/in-process.js';
import { INITIALIZE } from './support/mcp-client.js';
import { rawRequest } from './support/oauth-app.js';
import { formOf, setUserPassword, TestBrowser } from './support/oauth-browser.js';
import { exhaustBucket } from './support/rate-limit.js';
import { type TestServer, tempDir, writeWorkspace } from './support/serve.js';
import { buildWorkspace } from './support/workspace.js';

// Issue 29 item 5: behind a proxy every request comes from the proxy's
// address, so buckets keyed on the TCP peer are one bucket for everyone: one
// anonymous client could block every sign-in and every token refresh. With
// TRUST_PROXY the buckets are keyed on the address the proxy appended to
// X-Forwarded-For (docs/api/requests.md "Rate limits"). The proxy is played
// by the test: each request carries the header a proxy would have sent on.

const LIMITS = { anonymous_per_minute: 3, oauth_token_per_minute: 3, sign_in_per_minute: 2 };
const PASSWORD = 'olivia-password-1';

/** What a proxy sends on for a client at `client` that itself sent `forged` (if anything). */
const forwarded = (client: string, forged?: string) => ({ 'x-forwarded-for': forged ? `${forged}, ${client}` : client });

describe('per-address buckets behind a trusted proxy', () => {
  let proxied: TestServer;
  let direct: TestServer;
  let twoHops: TestServer;
  const clock = movableClock();

  beforeAll(async () => {
    const start = async (env: Record<string, string>) => {
      const db = join(tempDir(), 'schedule.db');
      const server = await startInProcess({ workspace: writeWorkspace(buildWorkspace({ limits: LIMITS }).workspace), db, clock }, env);
      await setUserPassword(db, 'olivia', PASSWORD);
      return server;
    };
    [proxied, direct, twoHops] = await Promise.all([start({ TRUST_PROXY: '1' }), start({}), start({ TRUST_PROXY: '2' })]);
  });

  afterAll(async () => {
    await Promise.all([proxied?.stop(), direct?.stop(), twoHops?.stop()]);
  });

  const anonymous = (server: TestServer, headers: Record<string, string>) =>
    api(server.url, '/v1/bookings', { headers: { authorization: 'Bearer not-a-token', ...headers } });

  it('two clients behind one proxy have a bucket each: one exhausted, the other is still answered', async () => {
    const { refused } = await exhaustBucket(3, () => anonymous(proxied, forwarded('203.0.113.1')), 'anonymous:203.0.113.1');
    expect(refused.status).toBe(429);
    const other = await anonymous(proxied, forwarded('203.0.113.2'));
    expect(other.status).toBe(401);
    expect(other.headers.get('x-ratelimit-remaining')).toBe('2');
  });

  it('a client that forges the left of X-Forwarded-For gains nothing: the bucket is the address the proxy appended', async () => {
    const { refused } = await exhaustBucket(
      3,
      (i) => anonymous(proxied, forwarded('203.0.113.3', `198.51.100.${i + 1}`)),
      'anonymous:203.0.113.3',
    );
    expect(refused.status).toBe(429);
  });

  it('/mcp without a token counts in the same per-client bucket as the API', async () => {
    const mcp = (client: string) =>
      rawRequest(`${proxied.url}/mcp`, {
        method: 'POST',
        headers: { ...forwarded(client), 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify(INITIALIZE),
      });
    await exhaustBucket(3, () => mcp('203.0.113.4'), 'anonymous:203.0.113.4');
    expect((await mcp('203.0.113.5')).status).toBe(401);
  });

  it('the token endpoint: one client past its limit does not stop another client’s refreshes', async () => {
    const token = (client: string) =>
      rawRequest(`${proxied.url}/v1/oauth/token`, {
        method: 'POST',
        headers: { ...forwarded(client), 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'no-such-token', client_id: 'no-such-client' }).toString(),
      });
    await exhaustBucket(3, () => token('203.0.113.6'), 'oauth_token:203.0.113.6');
    const other = await token('203.0.113.7');
    expect(other.status).toBe(401);
    expect(other.body).toEqual({ error: 'invalid_client', error_description: 'client authentication failed' });
  });

  it('password tries are counted per client address: another client behind the proxy still signs in', async () => {
    const tryFrom = async (client: string, password: string) => {
      const b = new TestBrowser(proxied.url, forwarded(client));
      const form = await b.open('/oauth/sign-in');
      return b.request('/oauth/sign-in', { form: { csrf: formOf(form).csrf, username: 'oscar', password } });
    };
    // A fresh window far from the real time, so the tries cannot straddle a minute; restored for the other cases.
    clock.set(Math.floor(Date.now() / 60_000) * 60_000 + 10 * 60_000 + 100);
    try {
      // Guesses at oscar from one address, past the limit of 2: that address is refused.
      expect((await tryFrom('203.0.113.8', 'guess-one')).status).toBe(401);
      expect((await tryFrom('203.0.113.8', 'guess-two')).status).toBe(401);
      expect((await tryFrom('203.0.113.8', 'guess-three')).status).toBe(429);
      // Olivia, behind the same proxy, signs in.
      const b = new TestBrowser(proxied.url, forwarded('203.0.113.9'));
      const form = await b.open('/oauth/sign-in');
      const res = await b.request('/oauth/sign-in', { form: { csrf: formOf(form).csrf, username: 'olivia', password: PASSWORD } });
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe('/oauth/apps');
    } finally {
      clock.set(Date.now());
    }
  });

  it('TRUST_PROXY=2: the client is the second address from the right (the first proxy appended it, the second its own peer)', async () => {
    await exhaustBucket(
      3,
      (i) => anonymous(twoHops, { 'x-forwarded-for': `10.9.9.${i}, 203.0.113.10, 192.0.2.1` }),
      'anonymous:203.0.113.10',
    );
    expect((await anonymous(twoHops, { 'x-forwarded-for': '203.0.113.11, 192.0.2.1' })).status).toBe(401);
  });

  it('a header that names no address where the proxy writes (garbage, a port, too few entries) counts as the proxy itself', async () => {
    const malformed = ['not-an-address', '203.0.113.12:4711', '', '203.0.113.13,', `${'1.2.3.4, '.repeat(200)}203.0.113.14`];
    await exhaustBucket(3, (i) => anonymous(proxied, { 'x-forwarded-for': malformed[i % malformed.length] ?? '' }), 'anonymous:127.0.0.1');
    // Two proxies trusted, one entry sent: the entry the outer proxy should have written is missing, so none is trusted.
    await exhaustBucket(3, () => anonymous(twoHops, { 'x-forwarded-for': '203.0.113.15' }), 'anonymous:127.0.0.1');
  });

  it('without TRUST_PROXY the header is not read: every caller is its TCP peer', async () => {
    await exhaustBucket(3, (i) => anonymous(direct, forwarded(`203.0.113.${20 + i}`)), 'anonymous:127.0.0.1');
  });
});

describe('TRUST_PROXY', () => {
  it('a value that is not 0, true or a number of proxies up to 9 stops the server at start, naming the variable', async () => {
    for (const value of ['yes', '-1', '10', '1.5']) {
      await expect(startInProcess({ db: ':memory:' }, { TRUST_PROXY: value })).rejects.toThrow(
        `TRUST_PROXY "${value}" must be 0 (no proxy), 1 (or true) for one proxy, or the number of proxies in front of the server (up to 9).`,
      );
    }
  });
});
