import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, expectData, expectError } from './support/http.js';
import { startInProcess } from './support/in-process.js';
import { refresh, registerApp, tokensFor } from './support/oauth-app.js';
import { setUserPassword, TestBrowser } from './support/oauth-browser.js';
import { HOST } from './support/oauth-test-server.js';
import { type TestSchema, testSchema } from './support/postgres.js';
import type { TestServer } from './support/serve.js';
import { writeWorkspace } from './support/serve.js';
import { buildWorkspace } from './support/workspace.js';

// Issue 15 on the scale-out store: two server processes on one PostgreSQL
// behind a balancer that sends each request to the other one. Every step of
// the flow (registration, sign-in, the consent form, the code exchange, the
// API call, a refresh, the revocation) lands on a different process than
// the step before, so each must find what the other one stored: the
// interaction, the session, the signed cookies (the cookie key is shared
// through the database), the code, the tokens.

/** A balancer that alternates between the servers, request by request, and counts where each went. */
function alternatingBalancer(targets: () => readonly string[]) {
  let next = 0;
  const served = [0, 0];
  const server = createServer((req, res) => {
    const i = next++ % 2;
    served[i] = (served[i] ?? 0) + 1;
    const target = new URL(req.url ?? '/', targets()[i]);
    const upstream = request(target, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  return { server, served };
}

describe('the OAuth flow across two server processes on one PostgreSQL', () => {
  const schema: TestSchema = testSchema();
  const servers: TestServer[] = [];
  let balancer: ReturnType<typeof alternatingBalancer>;
  let origin = '';

  beforeAll(async () => {
    balancer = alternatingBalancer(() => servers.map((s) => s.url));
    await new Promise<void>((resolve) => balancer.server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(balancer.server.address() as AddressInfo).port}`;
    const fixture = buildWorkspace();
    fixture.workspace.limits = {
      anonymous_per_minute: 1000,
      oauth_register_per_minute: 1000,
      oauth_pages_per_minute: 1000,
      sign_in_per_minute: 1000,
    };
    const workspace = writeWorkspace(fixture.workspace);
    // Both know themselves by the balancer's address, as a deployment behind one name does.
    const env = { PUBLIC_URL: origin, TOKEN_CACHE_MS: '0' };
    servers.push(await startInProcess({ workspace, db: schema.dbUrl }, env));
    servers.push(await startInProcess({ workspace, db: schema.dbUrl }, env));
    await setUserPassword(schema.dbUrl, HOST.username, HOST.password);
  });

  afterAll(async () => {
    await new Promise((resolve) => balancer?.server.close(resolve));
    await Promise.all(servers.map((s) => s.stop()));
    await schema.drop();
  });

  it('registers, signs in, consents, exchanges, calls, refreshes and revokes, each step on the other process', async () => {
    const app = await registerApp(origin);
    const tokens = await tokensFor(new TestBrowser(origin), origin, app, HOST);
    expect(tokens.scope).toBe('bookings:read slots:read');

    // The token works on both processes.
    for (const server of servers)
      expect(expectData(await api(server.url, '/v1/bookings', { token: tokens.access_token }))).toBeInstanceOf(Array);

    const refreshed = await refresh(origin, app, tokens.refresh_token);
    expect(refreshed.status, refreshed.text).toBe(200);
    const next = refreshed.body as { access_token: string; refresh_token: string };
    // The retired refresh token, used on either process, ends the grant for both.
    const reused = await refresh(origin, app, tokens.refresh_token);
    expect(reused.status).toBe(400);
    expect(reused.body).toMatchObject({ error: 'invalid_grant' });
    for (const server of servers) expectError(await api(server.url, '/v1/bookings', { token: next.access_token }), 401, 'unauthorized', {});
    // Every request went through the balancer, alternating: both processes served the flow.
    expect(Math.abs((balancer.served[0] ?? 0) - (balancer.served[1] ?? 0))).toBeLessThanOrEqual(1);
    expect(balancer.served[0]).toBeGreaterThan(5);
  });
});
