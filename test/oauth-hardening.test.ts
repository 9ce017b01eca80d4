import { createOAuthClient, listGrants, listOAuthClients } from '@schedule/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiResponse } from './support/http.js';
import {
  authorizeUrl,
  codeFor,
  exchangeCode,
  type OAuthApp,
  pkce,
  postForm,
  rawRequest,
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
import { USER_IDS } from './support/workspace.js';

// Issue 29 items 3, 4 and 6: attacks on the authorization server, each
// played as the test. A login CSRF signs a visitor in as the attacker; an
// open redirector bounces browsers through this server to any site that
// registered itself; a stranger holds a host's sign-in lockout; and the
// lesser holes around registration, the consent page and the flows offered.
// Every case runs on SQLite and on PostgreSQL. The server trusts one proxy
// (TRUST_PROXY=1), so a case can play a client at another address by the
// X-Forwarded-For its proxy would send.

const OLIVIA = { username: 'olivia', password: 'olivia-password-1' };
const OSCAR = { username: 'oscar', password: 'oscar-password-1' };
/** The lockout server's: three password tries a minute, the rest the defaults (anonymous 30, pages 60). */
const TIGHT = { sign_in_per_minute: 3 };
const ATTACKER_SITE = 'https://attacker.example';
const FORGED = 'The form is missing its anti-forgery token; reload the page and try again.';
const CROSS_SITE = 'This form was sent from another site. Open this server’s page yourself and send the form from there.';
const NO_PRE_SESSION = 'This browser did not send the sign-in page’s cookie; allow cookies for this site, reload the page and try again.';
const PRE_SESSION_COOKIE = /^schedule_sign_in=[A-Za-z0-9_-]{43}; Path=\/oauth\/sign-in; HttpOnly; SameSite=Strict; Max-Age=3600$/;
const SECURE_PRE_SESSION_COOKIE =
  /^schedule_sign_in=[A-Za-z0-9_-]{43}; Path=\/oauth\/sign-in; HttpOnly; SameSite=Strict; Max-Age=3600; Secure$/;
const KNOWN_COOKIE = /^schedule_known=[A-Za-z0-9_-]{43}; Path=\/oauth; HttpOnly; SameSite=Strict; Max-Age=31536000$/;
const SECURE_KNOWN_COOKIE = /^schedule_known=[A-Za-z0-9_-]{43}; Path=\/oauth; HttpOnly; SameSite=Strict; Max-Age=31536000; Secure$/;

/** The error page of the authorization endpoint (renderError): exactly this error, and no redirect anywhere. */
function expectErrorPage(answer: Answer, error: string, description: string): void {
  expectPage(answer, 400);
  expect(bodyOf(answer)).toBe(
    `<h1>This request cannot be authorized</h1><p><strong>error</strong>: ${error}</p>` +
      `<p><strong>error_description</strong>: ${description.replace(/'/g, '&#39;')}</p>`,
  );
}

/** The redirect back to the app with an error (RFC 6749 section 4.1.2.1, RFC 9207 `iss`), in the query or, for `token`, the fragment. */
function expectErrorRedirect(answer: Answer, app: OAuthApp, params: Record<string, string>, part: 'search' | 'hash' = 'search'): void {
  if (answer.status !== 303) throw new Error(`expected a redirect, got ${answer.status}: ${htmlOf(answer).slice(0, 600)}`);
  const to = new URL(answer.headers.get('location') ?? '');
  expect(`${to.origin}${to.pathname}`).toBe(app.redirectUri);
  expect(Object.fromEntries(new URLSearchParams(to[part].slice(1)))).toEqual(params);
}

const cookieLine = (answer: Answer, name: string) => answer.headers.getSetCookie().find((line) => line.startsWith(`${name}=`));

describe.each([
  ['SQLite', 'sqlite'],
  ['PostgreSQL', 'postgres'],
] as const)('OAuth hardening on %s', (_, backend) => {
  let main: StoreServer;
  let tight: StoreServer;
  let origin: string;
  /** A self-registered public app: anyone's, trusted with nothing. */
  let app: OAuthApp;
  /** An app the operator registered. */
  let operator: OAuthApp;

  beforeAll(async () => {
    const passwords = { [OLIVIA.username]: OLIVIA.password, [OSCAR.username]: OSCAR.password };
    [main, tight] = await Promise.all([
      startOnStore(backend, { limits: RAISED_LIMITS, env: { TOKEN_CACHE_MS: '0', TRUST_PROXY: '1' }, passwords }),
      startOnStore(backend, { limits: TIGHT, env: { TRUST_PROXY: '1' }, passwords }),
    ]);
    origin = main.server.url;
    app = await registerApp(origin, { name: 'Self-registered app' });
    const registered = await createOAuthClient(
      main.store.db,
      { clock: main.clock },
      { client_name: 'Operator app', redirect_uris: ['https://operator.example/callback'] },
    );
    operator = { clientId: registered.client_id, redirectUri: 'https://operator.example/callback' };
  });

  afterAll(async () => {
    await Promise.all([main?.stop(), tight?.stop()]);
  });

  const browser = (headers: Record<string, string> = {}) => new TestBrowser(origin, headers);

  /** A browser's sign-in form on /oauth/sign-in (its pre-session cookie kept) and the token in it. */
  async function signInForm(b: TestBrowser): Promise<string> {
    const page = await b.open('/oauth/sign-in');
    expectPage(page, 200, 'Sign in to schedule');
    return formOf(page).csrf;
  }

  describe('login CSRF (item 3): the sign-in form is bound to the browser that opened it', () => {
    it('a post from another site’s page is refused 403 and signs nobody in, though its token and cookie are right', async () => {
      const sentFromElsewhere: Record<string, string>[] = [
        { origin: ATTACKER_SITE },
        { 'sec-fetch-site': 'cross-site' },
        { 'sec-fetch-site': 'same-site' },
        { origin: 'null' },
      ];
      for (const sent of sentFromElsewhere) {
        const victim = browser();
        const csrf = await signInForm(victim);
        const res = await victim.request('/oauth/sign-in', { form: { csrf, ...OSCAR }, headers: sent });
        expectPage(res, 403, CROSS_SITE);
        expect(sessionCookieOf(res)).toBeUndefined();
        expect(victim.hasCookie('schedule_session')).toBe(false);
      }
    });

    it('the attacker’s own form, token and all, posted in the victim’s browser is refused 403: the token is bound to the attacker’s cookie', async () => {
      const attacker = browser();
      const csrf = await signInForm(attacker);
      // The victim's browser has a form of its own open (a cookie of its own), or has never been here (no cookie at all).
      const opened = browser();
      await signInForm(opened);
      const fresh = browser();
      const forged = await opened.request('/oauth/sign-in', { form: { csrf, ...OSCAR } });
      expectPage(forged, 403, FORGED);
      const cookieless = await fresh.request('/oauth/sign-in', { form: { csrf, ...OSCAR } });
      expectPage(cookieless, 403, NO_PRE_SESSION);
      for (const res of [forged, cookieless]) expect(sessionCookieOf(res)).toBeUndefined();
      // The same token in the browser it was made for still signs in: it is the binding that refused the others.
      const own = await attacker.request('/oauth/sign-in', { form: { csrf, ...OSCAR } });
      expect(own.status).toBe(303);
      expect(own.headers.get('location')).toBe('/oauth/apps');
    });

    it('this server’s own page, posted as a browser does (Origin and Sec-Fetch-Site same-origin), signs in', async () => {
      const b = browser();
      const csrf = await signInForm(b);
      const res = await b.request('/oauth/sign-in', { form: { csrf, ...OLIVIA }, headers: { origin, 'sec-fetch-site': 'same-origin' } });
      expect(res.status).toBe(303);
      const apps = await b.open('/oauth/apps');
      expectPage(apps, 200, 'Signed in as <strong>olivia</strong>');
    });

    it('the sign-in page’s cookie is HttpOnly, SameSite=Strict, only for /oauth/sign-in, an hour; Secure behind a proxy that says https', async () => {
      const plain = await rawRequest(`${origin}/oauth/sign-in`);
      expect(cookieLine(plain, 'schedule_sign_in')).toMatch(PRE_SESSION_COOKIE);
      const secure = await rawRequest(`${origin}/oauth/sign-in`, { headers: { 'x-forwarded-proto': 'https' } });
      expect(cookieLine(secure, 'schedule_sign_in')).toMatch(SECURE_PRE_SESSION_COOKIE);
    });

    it('the consent and connected-apps forms from another site are refused 403 whatever token they carry, and grant or revoke nothing', async () => {
      const b = browser();
      const signIn = await b.open(authorizeUrl(origin, operator, pkce()));
      const consent = await b.submit(signIn, OLIVIA);
      expectPage(consent, 200, 'Allow');
      const before = await listGrants(main.store.db, { clientId: operator.clientId });
      const { action, csrf } = formOf(consent);
      const res = await b.request(action, {
        form: { csrf, scope: 'bookings:read', decision: 'allow' },
        headers: { origin: ATTACKER_SITE, 'sec-fetch-site': 'cross-site' },
      });
      expectPage(res, 403, CROSS_SITE);
      expect(await listGrants(main.store.db, { clientId: operator.clientId })).toEqual(before);

      const revoke = await b.request('/oauth/apps/revoke', { form: { csrf: 'any', grant_id: 'any' }, headers: { origin: ATTACKER_SITE } });
      expectPage(revoke, 403, CROSS_SITE);
      const signOut = await b.request('/oauth/sign-out', { method: 'POST', headers: { 'sec-fetch-site': 'cross-site' } });
      expectPage(signOut, 403, CROSS_SITE);
      expect(b.hasCookie('schedule_session')).toBe(true);
    });
  });

  describe('errors at the authorization endpoint redirect only to apps the browser’s user trusts (item 4, RFC 9700 section 4.11.2)', () => {
    const CASES = [
      {
        name: 'no PKCE',
        params: { code_challenge: undefined, code_challenge_method: undefined },
        error: 'invalid_request',
        description: 'Authorization Server policy requires PKCE to be used for this request',
      },
      { name: 'prompt=none', params: { prompt: 'none' }, error: 'login_required', description: 'End-User authentication is required' },
      {
        name: 'a resource this server does not serve',
        params: { resource: 'https://elsewhere.example/' },
        error: 'invalid_target',
        description: 'unknown resource https://elsewhere.example/',
      },
      {
        name: 'response_type=token',
        params: { response_type: 'token' },
        error: 'unsupported_response_type',
        description: 'unsupported response_type requested',
        part: 'hash' as const,
      },
    ];
    /** Olivia's browser: she granted `app` through it, so the library's session there names her. */
    let granted: TestBrowser;
    /** Oscar's browser: signed in through an authorization of another app; he never granted `app`. */
    let otherHost: TestBrowser;

    beforeAll(async () => {
      granted = browser();
      await tokensFor(granted, origin, app, OLIVIA);
      otherHost = browser();
      await tokensFor(otherHost, origin, await registerApp(origin, { name: 'Oscar’s app' }), OSCAR);
    });

    describe.each(CASES)('$name', (c) => {
      it('a self-registered app nobody on this browser granted: the 400 error page, and the browser goes nowhere', async () => {
        expectErrorPage(await browser().request(authorizeUrl(origin, app, pkce(), c.params)), c.error, c.description);
        // Granted by olivia, not by oscar who is signed in here (who, signed in, fails prompt=none for want of consent).
        const signedIn = c.params.prompt === 'none' ? { error: 'consent_required', description: 'requested scopes not granted' } : c;
        expectErrorPage(await otherHost.request(authorizeUrl(origin, app, pkce(), c.params)), signedIn.error, signedIn.description);
      });

      it('an app the operator registered: the redirect to it with the error, state and iss', async () => {
        const request = pkce();
        const res = await browser().request(authorizeUrl(origin, operator, request, c.params));
        expectErrorRedirect(res, operator, { error: c.error, error_description: c.description, state: request.state, iss: origin }, c.part);
      });

      it('a self-registered app the host signed in on this browser granted before: the redirect to it with the error', async () => {
        const request = pkce();
        // Signed in, prompt=none fails only for what she has not granted yet: a scope she was never asked for.
        const more = c.params.prompt === 'none' ? { scope: 'series:write' } : {};
        const res = await granted.request(authorizeUrl(origin, app, request, { ...c.params, ...more }));
        const error = c.params.prompt === 'none' ? 'consent_required' : c.error;
        const description = c.params.prompt === 'none' ? 'requested scopes not granted' : c.description;
        expectErrorRedirect(res, app, { error, error_description: description, state: request.state, iss: origin }, c.part);
      });
    });

    it('an untrusted app still gets its code once the host has seen the pages and allowed', async () => {
      const { code, request } = await codeFor(browser(), origin, app, OLIVIA);
      expect((await exchangeCode(origin, app, code, request.verifier)).status).toBe(200);
    });
  });

  describe('lesser holes (item 6)', () => {
    /** Password tries in a fresh 60-second window of the tight server; the clock is put back after. */
    async function inFreshWindow(run: () => Promise<void>): Promise<void> {
      tight.clock.set(Math.floor(Date.now() / 60_000) * 60_000 + 10 * 60_000 + 100);
      try {
        await run();
      } finally {
        tight.clock.set(Date.now());
      }
    }

    /** A browser on the tight server, at a client address of its own behind the proxy. */
    const tightBrowser = (address: string) => new TestBrowser(tight.server.url, { 'x-forwarded-for': address });

    /** Signs in on /oauth/sign-in; `headers` for both requests (the browser moved to another address, say). */
    async function signInOn(
      b: TestBrowser,
      who: { username: string; password: string },
      headers: Record<string, string> = {},
    ): Promise<PageResponse> {
      const page = await b.request('/oauth/sign-in', { headers });
      return b.request('/oauth/sign-in', { form: { csrf: formOf(page).csrf, ...who }, headers });
    }

    it('a stranger who keeps the username bucket full does not lock the host out of the browser they signed in with before', async () => {
      const own = tightBrowser('198.51.100.7');
      await inFreshWindow(async () => {
        expect((await signInOn(own, OLIVIA)).status).toBe(303);
        // The attacker, from an address of theirs, spends the rest of olivia's tries for this minute.
        const attacker = tightBrowser('203.0.113.66');
        for (const guess of ['guess-one', 'guess-two'])
          expect((await signInOn(attacker, { username: 'olivia', password: guess })).status).toBe(401);
        expectPage(await signInOn(attacker, { username: 'olivia', password: 'guess-three' }), 429);
        // A browser olivia never signed in with waits, even with the right password: the lockout still guards her.
        const stranger = await signInOn(tightBrowser('192.0.2.44'), OLIVIA);
        expectPage(stranger, 429, 'Too many sign-in attempts');
        expect(sessionCookieOf(stranger)).toBeUndefined();
        // Her own browser, from wherever she is now, gets in.
        const back = await signInOn(own, OLIVIA, { 'x-forwarded-for': '192.0.2.45' });
        expect(back.status).toBe(303);
        expect(back.headers.get('location')).toBe('/oauth/apps');
      });
    });

    it('the mark of a browser the host signed in with is HttpOnly, SameSite=Strict, for /oauth, a year; Secure behind https', async () => {
      const plain = await signInOn(tightBrowser('198.51.100.8'), OLIVIA);
      expect(cookieLine(plain, 'schedule_known')).toMatch(KNOWN_COOKIE);
      const secure = await signInOn(
        new TestBrowser(tight.server.url, { 'x-forwarded-for': '198.51.100.9', 'x-forwarded-proto': 'https' }),
        OLIVIA,
      );
      expect(cookieLine(secure, 'schedule_known')).toMatch(SECURE_KNOWN_COOKIE);
    });

    it('the sign-in pages have a bucket of their own: an address out of anonymous requests still gets the sign-in page', async () => {
      const headers = { 'x-forwarded-for': '198.51.100.77' };
      await inFreshWindow(async () => {
        // An MCP client without a token polling discovery from the host's address, past the anonymous 30.
        let last: ApiResponse | undefined;
        for (let i = 0; i < 31; i++) last = await rawRequest(`${tight.server.url}/.well-known/oauth-authorization-server`, { headers });
        expect(last?.status).toBe(429);
        const page = await rawRequest(`${tight.server.url}/oauth/sign-in`, { headers });
        expectPage(page, 200, 'Sign in to schedule');
        expect(page.headers.get('x-ratelimit-limit')).toBe('60');
      });
    });

    it('only the code flow: the implicit and hybrid OpenID flows are refused, and there is no openid-configuration', async () => {
      for (const responseType of ['id_token', 'code id_token', 'id_token token', 'none']) {
        const request = pkce();
        const res = await browser().request(
          authorizeUrl(origin, operator, request, { response_type: responseType, scope: 'openid', nonce: 'n-1' }),
        );
        expect(res.status).toBe(303);
        const to = new URL(res.headers.get('location') ?? '');
        expect(`${to.origin}${to.pathname}`).toBe(operator.redirectUri);
        const params = new URLSearchParams(to.hash.slice(1) || to.search.slice(1));
        expect(params.get('error')).toBe('unsupported_response_type');
      }
      expectPage(await rawRequest(`${origin}/.well-known/openid-configuration`), 404);
      // RFC 8414 metadata, which is the server's own, says so too.
      const metadata = await rawRequest(`${origin}/.well-known/oauth-authorization-server`);
      expect(metadata.body).toMatchObject({
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
      });
    });

    it('scope=openid gets no ID token: the token answer has the API scopes only', async () => {
      const tokens = await tokensFor(browser(), origin, operator, OLIVIA, { params: { scope: 'openid bookings:read' } });
      expect(tokens).not.toHaveProperty('id_token');
      expect(tokens.scope).toBe('bookings:read');
    });

    it('registration refuses the grant and response types of other flows', async () => {
      const register = (body: Record<string, unknown>) =>
        rawRequest(`${origin}/v1/oauth/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ redirect_uris: ['https://app.example/callback'], token_endpoint_auth_method: 'none', ...body }),
        });
      const implicit = await register({ grant_types: ['implicit'], response_types: ['id_token'] });
      expect(implicit.status).toBe(400);
      expect(implicit.body.error).toBe('invalid_client_metadata');
      const hybrid = await register({ response_types: ['code id_token'] });
      expect(hybrid.status).toBe(400);
      expect(hybrid.body.error).toBe('invalid_client_metadata');
    });

    it('a self-registered client cannot claim registered_by: operator', async () => {
      const res = await rawRequest(`${origin}/v1/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_name: 'Pretender', redirect_uris: ['https://pretender.example/cb'], registered_by: 'operator' }),
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        error: 'invalid_client_metadata',
        error_description: 'registered_by is not client metadata; it is set by this server',
      });
      expect((await listOAuthClients(main.store.db)).filter((c) => c.client_name === 'Pretender')).toEqual([]);
    });

    it('registration refuses an http redirect URI off this machine; http on 127.0.0.1, [::1] and localhost is accepted', async () => {
      const register = (uri: string) =>
        rawRequest(`${origin}/v1/oauth/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ redirect_uris: [uri], token_endpoint_auth_method: 'none' }),
        });
      for (const uri of ['http://app.example/callback', 'http://10.0.0.5:8080/cb', 'http://127.0.0.1.example.com/cb']) {
        const res = await register(uri);
        expect(res.status, uri).toBe(400);
        expect(res.body).toEqual({
          error: 'invalid_redirect_uri',
          error_description: 'redirect_uris may use http only on this machine (127.0.0.1, [::1], localhost); use https',
        });
      }
      for (const uri of ['http://127.0.0.1:33418/callback', 'http://[::1]/callback', 'http://localhost:6274/oauth/callback']) {
        expect((await register(uri)).status, uri).toBe(201);
      }
    });

    it('the consent page names the host the answer is sent to, beside the name the app chose', async () => {
      const b = browser();
      const consent = await b.submit(await b.open(authorizeUrl(origin, app, pkce())), OLIVIA);
      expectPage(consent, 200, 'Your answer goes to <strong>app.example</strong>.');
      const loopback = await registerApp(origin, { name: 'Desktop app', redirectUri: 'http://127.0.0.1:9123/callback' });
      const again = await b.open(authorizeUrl(origin, loopback, pkce()));
      expectPage(again, 200, 'Your answer goes to <strong>127.0.0.1:9123 (an app on this computer)</strong>.');
    });

    it('a loopback redirect registered without application_type takes any port at authorization (RFC 8252 section 7.3)', async () => {
      const res = await rawRequest(`${origin}/v1/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          client_name: 'MCP client',
          redirect_uris: ['http://127.0.0.1/callback'],
          token_endpoint_auth_method: 'none',
        }),
      });
      expect(res.status).toBe(201);
      expect(res.body.application_type).toBe('native');
      const desktop = { clientId: res.body.client_id as string, redirectUri: 'http://127.0.0.1:54321/callback' };
      const { code, request } = await codeFor(browser(), origin, desktop, OLIVIA);
      expect((await exchangeCode(origin, desktop, code, request.verifier)).status).toBe(200);
    });

    it('revoking an access token ends its grant: the refresh token is refused too, as docs/oauth.md says', async () => {
      const grantIds = async () =>
        (await listGrants(main.store.db, { userId: USER_IDS.owner, clientId: app.clientId })).map((g) => g.grant_id);
      const before = await grantIds();
      const tokens = await tokensFor(browser(), origin, app, OLIVIA);
      const [grantId] = (await grantIds()).filter((id) => !before.includes(id));
      expect(grantId).toBeDefined();
      expect((await postForm(origin, '/v1/oauth/revoke', { token: tokens.access_token }, app)).status).toBe(200);
      const refreshed = await refresh(origin, app, tokens.refresh_token);
      expect(refreshed.status).toBe(400);
      expect(refreshed.body).toEqual({ error: 'invalid_grant', error_description: 'grant request is invalid' });
      expect(await grantIds()).not.toContain(grantId);
    });
  });
});
