import { createOAuthClient, listGrants, revokeOAuthClient } from '@schedule/core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApiResponse } from './support/http.js';
import { INITIALIZE } from './support/mcp-client.js';
import {
  authorizeUrl,
  codeFor,
  exchangeCode,
  type OAuthApp,
  pkce,
  postForm,
  rawRequest,
  redirectParams,
  refresh,
  registerApp,
  tokensFor,
} from './support/oauth-app.js';
import { formOf, type PageResponse, TestBrowser } from './support/oauth-browser.js';
import {
  type Answer,
  bodyOf,
  expectPage,
  htmlOf,
  RAISED_LIMITS,
  type StoreServer,
  sessionCookieOf,
  startOnStore,
} from './support/oauth-pages.js';
import { exhaustBucket } from './support/rate-limit.js';

// Issue 15: everything the authorization server must refuse, and how. Each
// refusal is asserted exactly: the status, the RFC 6749 `error` of the token,
// revocation, introspection and registration endpoints, our error envelope
// for rate limits, the HTML page (with its status) for what a browser sees,
// and where no redirect may happen, that none does. Every case runs on
// SQLite and on PostgreSQL.

const PASSWORD = 'olivia-password-1';
const HOST = { username: 'olivia', password: PASSWORD };
const OWNER_ID = 'b1000000-0000-4000-8000-000000000001';
/** The rate-limit server's: the defaults (register 5 a minute) but for a small token bucket and two password tries. */
const TIGHT = { oauth_token_per_minute: 3, sign_in_per_minute: 2 };
const ADDRESS = '127.0.0.1';
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SESSION_COOKIE = /^schedule_session=[A-Za-z0-9_-]{43}; Path=\/oauth; HttpOnly; SameSite=Lax; Max-Age=86400$/;
const SECURE_SESSION_COOKIE = /^schedule_session=[A-Za-z0-9_-]{43}; Path=\/oauth; HttpOnly; SameSite=Lax; Max-Age=86400; Secure$/;
const FORGED = 'The form is missing its anti-forgery token; reload the page and try again.';
/** The error page's body for an authorization request from a client the server does not know. */
const UNKNOWN_CLIENT_PAGE =
  '<h1>This request cannot be authorized</h1><p><strong>error</strong>: invalid_client</p><p><strong>error_description</strong>: client is invalid</p>';
/** What oidc-provider answers for any code or refresh token it will not honour: it does not say which check failed. */
const INVALID_GRANT = { error: 'invalid_grant', error_description: 'grant request is invalid' };

/**
 * An RFC 6749 error answer (section 5.2) of an OAuth endpoint: JSON, exactly
 * `body`, never a redirect, and (but at the revocation endpoint, whose
 * answers carry no token) never cached.
 */
function expectOAuthError(res: ApiResponse, status: number, body: Record<string, unknown>, options: { noStore?: boolean } = {}): void {
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${res.text}`);
  expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  if (options.noStore !== false) expect(res.headers.get('cache-control')).toBe('no-store');
  expect(res.headers.get('location')).toBeNull();
  expect(res.body).toEqual(body);
}

/** A refused client authentication (RFC 6749 section 5.2): 401 invalid_client with a Basic challenge, as the client tried Basic. */
function expectInvalidClient(res: ApiResponse, issuer: string, options: { noStore?: boolean } = {}): void {
  expectOAuthError(res, 401, { error: 'invalid_client', error_description: 'client authentication failed' }, options);
  expect(res.headers.get('www-authenticate')).toBe(
    `Basic realm="${issuer}", error="invalid_client", error_description="client authentication failed"`,
  );
}

/** The redirect back to the app an error takes at the authorization endpoint (RFC 6749 section 4.1.2.1, RFC 9207 `iss`). */
function expectErrorRedirect(res: Answer, app: OAuthApp, params: Record<string, string>): void {
  if (res.status !== 303) throw new Error(`expected a redirect, got ${res.status}: ${htmlOf(res).slice(0, 600)}`);
  expect(redirectParams(app, new URL(res.headers.get('location') ?? ''))).toEqual(params);
}

const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

describe.each([
  ['SQLite', 'sqlite'],
  ['PostgreSQL', 'postgres'],
] as const)('OAuth refusals on %s', (_, backend) => {
  let main: StoreServer;
  let tight: StoreServer;
  /** A public app and a confidential one, registered once on the main server. */
  let app: OAuthApp;
  let confidential: OAuthApp;
  /** An app the operator registered: the one whose authorization errors are redirected (oauth-hardening.test.ts has the others). */
  let operator: OAuthApp;
  let origin: string;

  beforeAll(async () => {
    [main, tight] = await Promise.all([
      // TOKEN_CACHE_MS=0: a revoked token must be refused at once, not after the cache's seconds.
      // TRUST_PROXY=1: one case sends X-Forwarded-Proto: https as a TLS-terminating proxy would.
      startOnStore(backend, {
        limits: RAISED_LIMITS,
        env: { TOKEN_CACHE_MS: '0', TRUST_PROXY: '1', LOG_LEVEL: 'info' },
        passwords: { olivia: PASSWORD },
      }),
      startOnStore(backend, { limits: TIGHT, env: { TOKEN_CACHE_MS: '0' }, passwords: { olivia: PASSWORD } }),
    ]);
    origin = main.server.url;
    app = await registerApp(origin, { name: 'Public refusal app' });
    confidential = await registerApp(origin, { name: 'Confidential refusal app', confidential: true });
    const registered = await createOAuthClient(
      main.store.db,
      { clock: main.clock },
      { client_name: 'Operator refusal app', redirect_uris: ['https://operator.example/callback'] },
    );
    operator = { clientId: registered.client_id, redirectUri: 'https://operator.example/callback' };
  });

  afterAll(async () => {
    await Promise.all([main?.stop(), tight?.stop()]);
  });

  /** A browser with no session yet: each case gets its own, so a grant one case revokes is no other case's. */
  const browser = () => new TestBrowser(origin);
  const resourceCall = (path: string, token: string) => rawRequest(`${origin}${path}`, bearer(token));
  const mcpCall = (token: string) =>
    rawRequest(`${origin}/mcp`, {
      method: 'POST',
      headers: { ...bearer(token).headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(INITIALIZE),
    });
  const apiChallenge = () =>
    `Bearer realm="schedule", resource_metadata="${origin}/.well-known/oauth-protected-resource", error="invalid_token", error_description="The access token is not valid here."`;

  /** The API's 401 for a token it does not honour (here, or any more), with the RFC 6750 and RFC 9728 challenge. */
  function expectTokenRefused(res: ApiResponse, challenge = apiChallenge()): void {
    if (res.status !== 401) throw new Error(`expected 401, got ${res.status}: ${res.text}`);
    expect(res.headers.get('www-authenticate')).toBe(challenge);
    expect(res.body).toEqual({
      error: {
        code: 'unauthorized',
        message: expect.any(String),
        details: {},
        request_id: expect.stringMatching(UUID_RE),
      },
    });
  }

  /** A token the API honours: GET /v1/me answers who it acts for. */
  async function expectTokenWorks(token: string): Promise<void> {
    const res = await resourceCall('/v1/me', token);
    if (res.status !== 200) throw new Error(`expected the token to work, got ${res.status}: ${res.text}`);
    expect(res.body.data.user_id).toBe(OWNER_ID);
  }

  /** The ids of the grants hosts have given a client, read from the database. */
  const grantIdsOf = async (client: OAuthApp) => (await listGrants(main.store.db, { clientId: client.clientId })).map((g) => g.grant_id);

  /** Opens an authorization request in `b` up to its sign-in page. */
  async function signInPageOf(b: TestBrowser, client: OAuthApp = app): Promise<PageResponse> {
    const page = await b.open(authorizeUrl(origin, client, pkce()));
    expectPage(page, 200, 'Sign in to schedule');
    return page;
  }

  /** Signs in through an authorization request in `b`: its consent page, and the sign-in page before it. */
  async function consentPageOf(b: TestBrowser, client: OAuthApp = app): Promise<{ consent: PageResponse; signIn: PageResponse }> {
    const signIn = await signInPageOf(b, client);
    const consent = await b.submit(signIn, HOST);
    expectPage(consent, 200, 'Allow');
    expect(consent.body).toContain('name="decision" value="allow"');
    return { consent, signIn };
  }

  describe('PKCE is required, S256 only', () => {
    it('an authorization request without code_challenge is sent back to the app with invalid_request', async () => {
      const request = pkce();
      const res = await rawRequest(
        authorizeUrl(origin, operator, request, { code_challenge: undefined, code_challenge_method: undefined }),
      );
      // RFC 7636 section 4.4.1: the redirect_uri is registered, so the error goes back to the app (with RFC 9207 `iss`).
      expectErrorRedirect(res, operator, {
        error: 'invalid_request',
        error_description: 'Authorization Server policy requires PKCE to be used for this request',
        state: request.state,
        iss: origin,
      });
    });

    it('code_challenge_method=plain is refused the same way', async () => {
      const request = pkce();
      const res = await rawRequest(
        authorizeUrl(origin, operator, request, { code_challenge: request.verifier, code_challenge_method: 'plain' }),
      );
      expectErrorRedirect(res, operator, {
        error: 'invalid_request',
        error_description: 'not supported value of code_challenge_method',
        state: request.state,
        iss: origin,
      });
    });

    it('a token request with the wrong code_verifier gets invalid_grant', async () => {
      const { code } = await codeFor(browser(), origin, app, HOST);
      expectOAuthError(await exchangeCode(origin, app, code, pkce().verifier), 400, INVALID_GRANT);
    });

    it('a token request without code_verifier gets invalid_grant', async () => {
      const { code } = await codeFor(browser(), origin, app, HOST);
      expectOAuthError(await exchangeCode(origin, app, code, undefined), 400, INVALID_GRANT);
    });
  });

  describe('who may be redirected to', () => {
    it('a redirect_uri the client did not register gets the error page, never a redirect', async () => {
      const res = await rawRequest(authorizeUrl(origin, app, pkce(), { redirect_uri: 'https://attacker.example/callback' }));
      expectPage(res, 400);
      expect(bodyOf(res)).toBe(
        '<h1>This request cannot be authorized</h1><p><strong>error</strong>: invalid_redirect_uri</p>' +
          '<p><strong>error_description</strong>: redirect_uri did not match any of the client&#39;s registered redirect_uris</p>',
      );
    });

    it('an unknown client_id gets the error page, never a redirect', async () => {
      const res = await rawRequest(authorizeUrl(origin, { ...app, clientId: 'no-such-client' }, pkce()));
      expectPage(res, 400);
      expect(bodyOf(res)).toBe(UNKNOWN_CLIENT_PAGE);
    });
  });

  describe('authorization codes', () => {
    it('a code used twice gets invalid_grant, and the token the first use gave stops working', async () => {
      const { code, request } = await codeFor(browser(), origin, app, HOST);
      const first = await exchangeCode(origin, app, code, request.verifier);
      expect(first.status).toBe(200);
      await expectTokenWorks(first.body.access_token);

      expectOAuthError(await exchangeCode(origin, app, code, request.verifier), 400, INVALID_GRANT);
      // RFC 6749 section 4.1.2: a replayed code revokes what it was exchanged for, so a thief's replay also ends the victim's tokens.
      expectTokenRefused(await resourceCall('/v1/me', first.body.access_token));
      expectOAuthError(await refresh(origin, app, first.body.refresh_token), 400, INVALID_GRANT);
    });

    it('a code exchanged after its 60 seconds gets invalid_grant (one exchanged at 50 seconds still works)', async () => {
      const early = await codeFor(browser(), origin, app, HOST);
      const late = await codeFor(browser(), origin, app, HOST);
      const base = Date.now();
      // oidc-provider reads Date.now(); our stored expiry reads the server's clock. The movableClock is Date.now()
      // plus its offset, so faking Date moves both by the same amount (checked below) and neither can disagree.
      vi.useFakeTimers({ toFake: ['Date'] });
      try {
        vi.setSystemTime(base + 50_000);
        expect(main.clock.now()).toBe(base + 50_000);
        const ok = await exchangeCode(origin, app, early.code, early.request.verifier);
        expect(ok.status).toBe(200);

        vi.setSystemTime(base + 61_000);
        expect(main.clock.now()).toBe(base + 61_000);
        expectOAuthError(await exchangeCode(origin, app, late.code, late.request.verifier), 400, INVALID_GRANT);
      } finally {
        vi.useRealTimers();
      }
    });
  });

  describe('refresh tokens', () => {
    it('a refresh token used again after rotation gets invalid_grant and ends the grant: the newer tokens stop working', async () => {
      const before = await grantIdsOf(app);
      const tokens = await tokensFor(browser(), origin, app, HOST);
      const [grantId] = (await grantIdsOf(app)).filter((id) => !before.includes(id));
      expect(grantId).toBeDefined();
      const rotated = await refresh(origin, app, tokens.refresh_token);
      expect(rotated.status).toBe(200);
      expect(rotated.body.refresh_token).not.toBe(tokens.refresh_token);
      await expectTokenWorks(rotated.body.access_token);

      expectOAuthError(await refresh(origin, app, tokens.refresh_token), 400, INVALID_GRANT);
      // Reuse means one of two parties holds a stolen token; which one cannot be told, so both lose the grant.
      expectOAuthError(await refresh(origin, app, rotated.body.refresh_token), 400, INVALID_GRANT);
      expectTokenRefused(await resourceCall('/v1/me', rotated.body.access_token));
      expectTokenRefused(await resourceCall('/v1/me', tokens.access_token));
      expect(await grantIdsOf(app)).not.toContain(grantId);
    });

    it('a refresh asking for more scope than was granted gets invalid_scope, and the token keeps exactly the granted scope', async () => {
      const tokens = await tokensFor(browser(), origin, confidential, HOST, {
        params: { scope: 'bookings:read slots:read series:write' },
        untick: ['slots:read', 'series:write'],
      });
      expect(tokens.scope).toBe('bookings:read');

      expectOAuthError(await refresh(origin, confidential, tokens.refresh_token, 'bookings:read series:write'), 400, {
        error: 'invalid_scope',
        error_description: 'refresh token missing requested scope',
        scope: 'series:write',
      });

      const introspected = await postForm(origin, '/v1/oauth/introspect', { token: tokens.access_token }, confidential);
      expect(introspected.status).toBe(200);
      expect(introspected.body).toMatchObject({ active: true, client_id: confidential.clientId, scope: 'bookings:read', aud: origin });
      expect((await resourceCall('/v1/bookings', tokens.access_token)).status).toBe(200);
      const slots = await resourceCall('/v1/slots', tokens.access_token);
      expect(slots.status).toBe(403);
      expect(slots.body.error).toMatchObject({ code: 'insufficient_scope', details: { required_scope: 'slots:read' } });
      expect(slots.headers.get('www-authenticate')).toBe(
        `Bearer realm="schedule", resource_metadata="${origin}/.well-known/oauth-protected-resource", error="insufficient_scope", scope="slots:read"`,
      );

      // The refused escalation used nothing up: the same refresh token, asking for no more, still rotates.
      const narrower = await refresh(origin, confidential, tokens.refresh_token);
      expect(narrower.status).toBe(200);
      expect(narrower.body.scope).toBe('bookings:read');
    });
  });

  describe('resources (RFC 8707)', () => {
    it('a token issued for /mcp is refused by the API, and an API token by /mcp', async () => {
      const mcpTokens = await tokensFor(browser(), origin, app, HOST, { params: { resource: `${origin}/mcp` } });
      const apiTokens = await tokensFor(browser(), origin, app, HOST);
      // Each works where it was issued for.
      expect((await mcpCall(mcpTokens.access_token)).status).toBe(200);
      await expectTokenWorks(apiTokens.access_token);

      expectTokenRefused(await resourceCall('/v1/bookings', mcpTokens.access_token));
      expectTokenRefused(
        await mcpCall(apiTokens.access_token),
        `Bearer realm="schedule", resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp", error="invalid_token", error_description="The access token is not valid here."`,
      );
    });

    it('a resource this server does not serve is sent back to the app as invalid_target', async () => {
      const request = pkce();
      const res = await rawRequest(authorizeUrl(origin, operator, request, { resource: 'https://elsewhere.example/' }));
      expectErrorRedirect(res, operator, {
        error: 'invalid_target',
        error_description: 'unknown resource https://elsewhere.example/',
        state: request.state,
        iss: origin,
      });
    });
  });

  describe('revocation, introspection and registration', () => {
    it('a wrong client secret gets 401 invalid_client at the token, revocation and introspection endpoints', async () => {
      const impostor = { ...confidential, clientSecret: 'sec_not-the-secret' };
      const tokens = await tokensFor(browser(), origin, confidential, HOST);
      expectInvalidClient(await refresh(origin, impostor, tokens.refresh_token), origin);
      expectInvalidClient(await postForm(origin, '/v1/oauth/revoke', { token: tokens.access_token }, impostor), origin, { noStore: false });
      expectInvalidClient(await postForm(origin, '/v1/oauth/introspect', { token: tokens.access_token }, impostor), origin);
      // Nothing was revoked by the impostor.
      await expectTokenWorks(tokens.access_token);
      expect((await refresh(origin, confidential, tokens.refresh_token)).status).toBe(200);
    });

    it('a client cannot revoke another client’s token (RFC 7009 section 2.1), and the token keeps working', async () => {
      const tokens = await tokensFor(browser(), origin, app, HOST);
      const res = await postForm(origin, '/v1/oauth/revoke', { token: tokens.access_token }, confidential);
      expectOAuthError(
        res,
        400,
        { error: 'invalid_request', error_description: 'client is not authorized to revoke the presented token' },
        { noStore: false },
      );
      await expectTokenWorks(tokens.access_token);
    });

    it('introspection: no client is invalid_request; a public client, or another client’s token, learns only active:false', async () => {
      const tokens = await tokensFor(browser(), origin, app, HOST);
      expectOAuthError(await postForm(origin, '/v1/oauth/introspect', { token: tokens.access_token }), 400, {
        error: 'invalid_request',
        error_description: 'no client authentication mechanism provided',
      });
      expectOAuthError(await postForm(origin, '/v1/oauth/introspect', {}, confidential), 400, {
        error: 'invalid_request',
        error_description: "missing required parameter 'token'",
      });
      // The token is live (it works on the API), yet neither caller may learn anything about it.
      for (const caller of [app, confidential]) {
        const res = await postForm(origin, '/v1/oauth/introspect', { token: tokens.access_token }, caller);
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ active: false });
      }
      await expectTokenWorks(tokens.access_token);
    });

    it('a registration without usable redirect URIs, or not in JSON, is refused with the RFC 7591 error', async () => {
      const register = (body: string, type = 'application/json') =>
        rawRequest(`${origin}/v1/oauth/register`, { method: 'POST', headers: { 'content-type': type }, body });
      expectOAuthError(await register('{}'), 400, {
        error: 'invalid_redirect_uri',
        error_description: 'redirect_uris is mandatory property',
      });
      expectOAuthError(await register(JSON.stringify({ redirect_uris: ['not a url'] })), 400, {
        error: 'invalid_redirect_uri',
        error_description: 'redirect_uris must only contain valid uris',
      });
      expectOAuthError(await register('{}', 'text/plain'), 400, {
        error: 'invalid_request',
        error_description: 'only application/json content-type bodies are supported on POST /v1/oauth/register',
      });
    });
  });

  it('a revoked client: its tokens get 401, and it cannot ask again', async () => {
    const doomed = await registerApp(origin, { name: 'Doomed app' });
    const tokens = await tokensFor(browser(), origin, doomed, HOST);
    await expectTokenWorks(tokens.access_token);

    // What `schedule oauth revoke` does, from another process on the same database.
    expect(await revokeOAuthClient(main.store.db, doomed.clientId)).toEqual({ grants: 1 });

    expectTokenRefused(await resourceCall('/v1/me', tokens.access_token));
    // The client is gone, so it can no longer authenticate at the token endpoint.
    expectOAuthError(await refresh(origin, doomed, tokens.refresh_token), 401, {
      error: 'invalid_client',
      error_description: 'client authentication failed',
    });
    const again = await rawRequest(authorizeUrl(origin, doomed, pkce()));
    expectPage(again, 400);
    expect(bodyOf(again)).toBe(UNKNOWN_CLIENT_PAGE);
  });

  describe('forms need their anti-forgery token', () => {
    it('the sign-in form without csrf, or with another form’s, is refused 403 and signs nobody in', async () => {
      const b = browser();
      const page = await signInPageOf(b);
      const { action } = formOf(page);
      // A real token, but bound to the other sign-in form (/oauth/sign-in), not to this interaction.
      const other = formOf(await rawRequestPage(`${origin}/oauth/sign-in`)).csrf;
      for (const csrf of [undefined, other, 'A'.repeat(43)]) {
        const res = await b.request(action, { form: { ...HOST, ...(csrf === undefined ? {} : { csrf }) } });
        expectPage(res, 403, FORGED);
        expect(sessionCookieOf(res)).toBeUndefined();
      }
      expect(b.hasCookie('schedule_session')).toBe(false);
      // The interaction is still at its sign-in step: nothing moved it on.
      expectPage(await b.request(new URL(action, origin).pathname.replace(/\/sign-in$/, '')), 200, 'Sign in to schedule');
    });

    it('the consent form without csrf, or with the sign-in form’s, is refused 403 and grants nothing', async () => {
      const b = browser();
      const { consent, signIn } = await consentPageOf(b, confidential);
      const { action } = formOf(consent);
      const uid = /\/oauth\/interaction\/([^/]+)\/consent$/.exec(action)?.[1] ?? '';
      const before = await grantIdsOf(confidential);
      // The sign-in step's token is real and from this same flow, but bound to that step (and its interaction): refused.
      for (const csrf of [undefined, formOf(signIn).csrf, 'A'.repeat(43)]) {
        const res = await b.request(action, {
          form: { scope: 'bookings:read', decision: 'allow', ...(csrf === undefined ? {} : { csrf }) },
        });
        expectPage(res, 403, FORGED);
      }
      expect(await grantIdsOf(confidential)).toEqual(before);
      // Still at consent, and no code went to the app.
      const still = await b.request(`/oauth/interaction/${uid}`);
      expectPage(still, 200, 'Allow');
      expect(formOf(still).action).toBe(action);
    });

    it('the connected-apps revoke form without csrf, or with another session’s, is refused 403 and the app stays connected', async () => {
      const b = browser();
      const tokens = await tokensFor(b, origin, app, HOST);
      const apps = await b.request('/oauth/apps');
      expectPage(apps, 200, 'Connected apps');
      const grantId = /name="grant_id" value="([^"]+)"/.exec(apps.body)?.[1] ?? '';
      // Another signed-in browser's token: valid, but bound to that session.
      const otherBrowser = browser();
      const signIn = await otherBrowser.open('/oauth/sign-in');
      const otherApps = await otherBrowser.submit(signIn, HOST);
      const otherCsrf = formOf(otherApps).csrf;
      for (const csrf of [undefined, otherCsrf]) {
        const res = await b.request('/oauth/apps/revoke', { form: { grant_id: grantId, ...(csrf === undefined ? {} : { csrf }) } });
        expectPage(res, 403, FORGED);
      }
      await expectTokenWorks(tokens.access_token);
      expect((await listGrants(main.store.db, { userId: OWNER_ID })).map((g) => g.grant_id)).toContain(grantId);
    });
  });

  describe('sign-in and consent', () => {
    it('denying on the consent page sends the app access_denied with state and iss', async () => {
      const b = browser();
      const request = pkce();
      const before = await grantIdsOf(app);
      const signIn = await b.open(authorizeUrl(origin, app, request));
      const consent = await b.submit(signIn, HOST);
      const denied = await b.submit(consent, { scope: ['bookings:read', 'slots:read'], decision: 'deny' });
      expect(await grantIdsOf(app)).toEqual(before);
      expect(denied.status).toBe(303);
      expect(redirectParams(app, new URL(denied.url))).toEqual({
        error: 'access_denied',
        error_description: 'The user did not allow access.',
        state: request.state,
        iss: origin,
      });
    });

    it('a wrong password gets the sign-in page again with 401, and no session cookie', async () => {
      const b = browser();
      const page = await signInPageOf(b);
      const res = await b.request(formOf(page).action, {
        form: { csrf: formOf(page).csrf, username: 'olivia', password: 'not-her-password' },
      });
      expectPage(res, 401, 'The username or password is not right.');
      expect(res.body).toContain('name="password"');
      expect(sessionCookieOf(res)).toBeUndefined();
      expect(b.hasCookie('schedule_session')).toBe(false);
    });

    it('the session cookie is HttpOnly, SameSite=Lax, Path=/oauth, and not Secure over plain http', async () => {
      const b = browser();
      const page = await signInPageOf(b);
      const res = await b.request(formOf(page).action, { form: { csrf: formOf(page).csrf, ...HOST } });
      expect(res.status).toBe(303);
      expect(sessionCookieOf(res)).toMatch(SESSION_COOKIE);
    });

    it('behind a trusted proxy that says https (TRUST_PROXY=1, X-Forwarded-Proto: https) the cookie is Secure', async () => {
      const res = await signInDirectly(origin, { 'x-forwarded-proto': 'https' });
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe('/oauth/apps');
      expect(sessionCookieOf(res)).toMatch(SECURE_SESSION_COOKIE);
    });

    it('a server that does not trust proxies ignores X-Forwarded-Proto: no Secure flag over plain http', async () => {
      const res = await signInDirectly(tight.server.url, { 'x-forwarded-proto': 'https' });
      expect(res.status).toBe(303);
      expect(sessionCookieOf(res)).toMatch(SESSION_COOKIE);
    });
  });

  describe('rate limits', () => {
    it('the 6th registration from one address in a minute gets 429 rate_limited (default limit 5)', async () => {
      const register = () =>
        rawRequest(`${tight.server.url}/v1/oauth/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ redirect_uris: ['https://app.example/callback'], token_endpoint_auth_method: 'none' }),
        });
      const { responses } = await exhaustBucket(5, register, `oauth_register:${ADDRESS}`);
      for (const res of responses.slice(0, -1)) expect(res.status).toBe(201);
    });

    it('the token endpoint is refused 429 past its configured limit (3)', async () => {
      const attempt = () => postForm(tight.server.url, '/v1/oauth/token', { grant_type: 'authorization_code', code: 'no-such-code' });
      const { responses } = await exhaustBucket(3, attempt, `oauth_token:${ADDRESS}`);
      // Below the limit the endpoint answered for itself (no client was named).
      for (const res of responses.slice(0, -1)) expect(res.body).toMatchObject({ error: 'invalid_request' });
    });

    it('password tries past sign_in_per_minute (2) get the 429 page with Retry-After, the right password too', async () => {
      const operator = await createOAuthClient(
        tight.store.db,
        { clock: tight.clock },
        {
          client_name: 'Operator app',
          redirect_uris: ['https://app.example/callback'],
        },
      );
      // A fresh 60-second window far from the real time: the two allowed tries and the refusals all fall in it, and no
      // other case's tries do. Restored afterwards, so the other rate-limit cases compare their reset with the real time.
      // Set before the page is opened: the sign-in interaction lives ten minutes of this clock, and one opened before
      // the jump (of up to ten minutes) could expire between two tries, answering a page with no Retry-After.
      tight.clock.set(Math.floor(Date.now() / 60_000) * 60_000 + 10 * 60_000 + 100);
      // The clock runs on from there, and password checks are slow on purpose: under load the four
      // tries can take seconds, and Retry-After counts down with them.
      const setAtMs = Date.now();
      try {
        const b = new TestBrowser(tight.server.url);
        const page = await b.open(
          authorizeUrl(tight.server.url, { clientId: operator.client_id, redirectUri: 'https://app.example/callback' }, pkce(), {
            resource: tight.server.url,
          }),
        );
        expectPage(page, 200, 'Sign in to schedule');
        const { action, csrf } = formOf(page);
        for (let i = 0; i < 2; i++) {
          expectPage(await b.request(action, { form: { csrf, username: 'olivia', password: 'guess-number-one' } }), 401);
        }
        const refused = await b.request(action, { form: { csrf, username: 'olivia', password: 'guess-number-three' } });
        const rightOne = await b.request(action, { form: { csrf, ...HOST } });
        const elapsedSeconds = (Date.now() - setAtMs) / 1000;
        for (const res of [refused, rightOne]) {
          const retryAfter = Number(res.headers.get('retry-after'));
          expect(retryAfter).toBeGreaterThanOrEqual(Math.min(58, Math.floor(59.9 - elapsedSeconds)));
          expect(retryAfter).toBeLessThanOrEqual(60);
          expectPage(res, 429, `Too many sign-in attempts; wait ${retryAfter} seconds and try again.`);
          expect(sessionCookieOf(res)).toBeUndefined();
        }
        expect(b.hasCookie('schedule_session')).toBe(false);
      } finally {
        tight.clock.set(Date.now());
      }
    });
  });

  describe('bad input is refused, never a 500', () => {
    it('a sign-in form over 8 KiB gets the 413 page, declared or streamed', async () => {
      const b = browser();
      const page = await signInPageOf(b);
      const { action, csrf } = formOf(page);
      const big = new URLSearchParams({ csrf, username: 'olivia', password: 'x'.repeat(9 * 1024) }).toString();
      const declared = await rawRequest(new URL(action, origin).toString(), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: big,
      });
      expectPage(declared, 413, 'The form is too large.');
      // Chunked, with no Content-Length to refuse it by: counted as it arrives.
      const streamed = await fetch(new URL(action, origin), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new Blob([big]).stream(),
        duplex: 'half',
      } as RequestInit);
      expectPage(
        { status: streamed.status, headers: streamed.headers, url: action, body: await streamed.text() },
        413,
        'The form is too large.',
      );
    });

    it('a form in another content type gets the 415 page', async () => {
      const b = browser();
      const { action } = formOf(await signInPageOf(b));
      for (const type of ['application/json', 'multipart/form-data; boundary=x', undefined]) {
        const res = await rawRequest(new URL(action, origin).toString(), {
          method: 'POST',
          headers: type ? { 'content-type': type } : {},
          body: type === 'application/json' ? JSON.stringify(HOST) : 'username=olivia',
        });
        expectPage(res, 415, 'The form must be sent as application/x-www-form-urlencoded.');
      }
    });

    it('malformed JSON to the registration endpoint gets invalid_request', async () => {
      const res = await rawRequest(`${origin}/v1/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"redirect_uris": [',
      });
      expectOAuthError(res, 400, { error: 'invalid_request', error_description: 'failed to parse the request body' });
    });

    it('an unknown path under /oauth/ gets the 404 page', async () => {
      expectPage(await rawRequest(`${origin}/oauth/no-such-page`), 404, 'There is no such page.');
      expectPage(await rawRequest(`${origin}/oauth/interaction/abc/unknown-step`), 404, 'There is no such page.');
    });

    it('an oversized token or registration request gets invalid_request', async () => {
      const huge = 'x'.repeat(200_000);
      const body = { error: 'invalid_request', error_description: 'failed to parse the request body' };
      expectOAuthError(await refresh(origin, app, huge), 400, body);
      const res = await rawRequest(`${origin}/v1/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ redirect_uris: ['https://app.example/callback'], client_name: huge }),
      });
      expectOAuthError(res, 400, body);
    });

    // As every other /v1 path the server does not serve (docs/openapi.json, "Other paths"), not the library's bare 404.
    it('an unknown path under /v1/oauth/ gets the 404 not_found envelope', async () => {
      const res = await rawRequest(`${origin}/v1/oauth/no-such-endpoint`);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.body?.error?.code).toBe('not_found');
    });

    // The API's convention for a known path and another method: 405 method_not_allowed with Allow.
    it('a method an OAuth endpoint does not take gets 405 with Allow', async () => {
      const res = await rawRequest(`${origin}/v1/oauth/token`);
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
    });

    it('a grant type the server does not support gets unsupported_grant_type', async () => {
      const res = await postForm(origin, '/v1/oauth/token', { grant_type: 'password', username: 'olivia', password: PASSWORD }, app);
      expectOAuthError(res, 400, { error: 'unsupported_grant_type', error_description: 'unsupported grant_type requested' });
    });
  });

  it('no secret reaches the log: access and refresh tokens, code, verifier, password, client secret', async () => {
    const b = browser();
    const { code, request } = await codeFor(b, origin, confidential, HOST);
    const exchanged = await exchangeCode(origin, confidential, code, request.verifier);
    expect(exchanged.status).toBe(200);
    const rotated = await refresh(origin, confidential, exchanged.body.refresh_token);
    expect(rotated.status).toBe(200);
    await expectTokenWorks(rotated.body.access_token);
    expect((await postForm(origin, '/v1/oauth/introspect', { token: rotated.body.access_token }, confidential)).status).toBe(200);
    expect((await postForm(origin, '/v1/oauth/revoke', { token: rotated.body.refresh_token }, confidential)).status).toBe(200);

    const log = main.server.output().stderr;
    // The flow was logged (LOG_LEVEL=info), so finding nothing below means something.
    expect(log).toContain('"route":"POST /v1/oauth/token","status":200');
    expect(log).toContain('"route":"POST /oauth/interaction/:uid/sign-in","status":303');
    const secrets = {
      code,
      verifier: request.verifier,
      password: PASSWORD,
      clientSecret: confidential.clientSecret ?? '',
      accessToken: exchanged.body.access_token,
      refreshToken: exchanged.body.refresh_token,
      rotatedAccessToken: rotated.body.access_token,
      rotatedRefreshToken: rotated.body.refresh_token,
    };
    for (const [name, secret] of Object.entries(secrets)) {
      expect(secret.length, name).toBeGreaterThan(8);
      expect(log.includes(secret), `${name} is in the log`).toBe(false);
    }
  });
});

/** A GET read as a page. */
async function rawRequestPage(url: string): Promise<PageResponse> {
  const res = await rawRequest(url);
  return { status: res.status, url, headers: res.headers, body: res.text };
}

/** Signs in on /oauth/sign-in (the connected-apps sign-in) with extra request headers; no redirect followed. */
async function signInDirectly(base: string, headers: Record<string, string>): Promise<ApiResponse> {
  const form = await rawRequestPage(`${base}/oauth/sign-in`);
  expectPage(form, 200, 'Sign in to schedule');
  // The form's token is bound to the cookie the page set (the pre-session), which a browser sends back with the form.
  const preSession =
    form.headers
      .getSetCookie()
      .find((line) => line.startsWith('schedule_sign_in='))
      ?.split(';')[0] ?? '';
  return rawRequest(`${base}/oauth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: preSession, ...headers },
    body: new URLSearchParams({ csrf: formOf(form).csrf, ...HOST }).toString(),
  });
}
