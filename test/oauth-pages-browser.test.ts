import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/chromium.js';
import { api, expectData, expectPage } from './support/http.js';
import { startInProcess } from './support/in-process.js';
import { setUserPassword } from './support/oauth-browser.js';
import { type TestSchema, testSchema } from './support/postgres.js';
import { type TestServer, tempDir, writeWorkspace } from './support/serve.js';
import { buildWorkspace, EVENT_TYPES, SECRETS, USERNAMES } from './support/workspace.js';

// Issue 15: the sign-in, consent and connected-apps pages driven in a real
// browser, as a host meets them. An app registers itself, sends the host to
// the authorization URL, the host signs in and unticks one scope, and the app
// gets a token for exactly the rest; the host then disconnects the app from
// the connected-apps page and the token stops working. The pages carry no
// script, so the flow must also work with JavaScript off, and a consent page
// must never render inside another site's frame (clickjacking the Allow button).

const HOST = { username: USERNAMES.owner, password: 'correct horse battery staple' };
/** Someone with an account of their own, who would have a host's browser signed in as them (login CSRF). */
const ATTACKER = { username: USERNAMES.member, password: 'attacker password 1' };
const REQUESTED = ['bookings:read', 'slots:read', 'series:read'] as const;
const UNTICKED = 'slots:read';
const KEPT = REQUESTED.filter((scope) => scope !== UNTICKED);
const CLIENT_NAME = 'Browser Test App';
const DISCONNECTED = 'The app was disconnected; its tokens no longer work.';
const DAY_MS = 86_400_000;

/**
 * The app's side of the redirect: a loopback server (RFC 8252 section 7.3)
 * that records every query it is sent. `/frame?src=…` is a page of another
 * origin (another port) that embeds `src` in an iframe, as a clickjacking
 * site would; `/forge?action=…&field=value…` is one that posts a form to
 * `action` as soon as it loads, as a login-CSRF site would.
 */
interface AppServer {
  readonly origin: string;
  readonly redirectUri: string;
  readonly received: URLSearchParams[];
  close(): Promise<void>;
}

async function startAppServer(): Promise<AppServer> {
  const received: URLSearchParams[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://app.invalid');
    res.setHeader('content-type', 'text/html; charset=utf-8');
    if (url.pathname === '/callback') {
      received.push(url.searchParams);
      res.end('<!doctype html><title>App</title><p id="done">Back in the app.</p>');
    } else if (url.pathname === '/plain') {
      res.end('<!doctype html><title>Plain</title><p id="said">A page that may be framed.</p>');
    } else if (url.pathname === '/forge') {
      const attr = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
      const fields = [...url.searchParams]
        .filter(([name]) => name !== 'action')
        .map(([name, value]) => `<input type="hidden" name="${attr(name)}" value="${attr(value)}">`)
        .join('');
      res.end(
        `<!doctype html><title>Win a prize</title><form method="post" action="${attr(url.searchParams.get('action') ?? '')}">${fields}</form>` +
          '<script>document.forms[0].submit()</script>',
      );
    } else if (url.pathname === '/frame') {
      const src = (url.searchParams.get('src') ?? '').replace(/&/g, '&amp;').replace(/"/g, '&quot;');
      // A frame of this server's own page beside it: proof that framing as such works here, so only the policy can stop the other.
      res.end(`<!doctype html><title>Frames</title><iframe id="own" src="/plain"></iframe><iframe id="target" src="${src}"></iframe>`);
    } else {
      res.statusCode = 404;
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    redirectUri: `${origin}/callback`,
    received,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** RFC 7636 with S256: the verifier stays in the test, the challenge goes in the URL. */
function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

interface Authorization {
  readonly url: string;
  readonly state: string;
  readonly verifier: string;
}

function authorizationUrl(server: TestServer, clientId: string, redirectUri: string, scopes: readonly string[]): Authorization {
  const { verifier, challenge } = pkce();
  const state = randomBytes(12).toString('base64url');
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    scope: scopes.join(' '),
    state,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    // RFC 8707: the token is for the HTTP API, whose resource identifier is the server's origin.
    resource: server.url,
  });
  return { url: `${server.url}/v1/oauth/authorize?${query}`, state, verifier };
}

/** The sign-in page, as a host fills it: typed, then the button clicked. */
async function signIn(page: Page): Promise<void> {
  await page.locator('input[name="username"]').fill(HOST.username);
  await page.locator('input[name="password"]').fill(HOST.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** The values of the consent page's scope checkboxes that are ticked, in page order. */
async function tickedScopes(page: Page): Promise<string[]> {
  const ticked: string[] = [];
  // Asked of the browser box by box (not read from the HTML): what counts is the state the form will submit.
  for (const box of await page.locator('input[type="checkbox"][name="scope"]').all()) {
    if (await box.isChecked()) ticked.push((await box.getAttribute('value')) ?? '');
  }
  return ticked;
}

describe.each([
  ['SQLite (file)', 'sqlite'],
  ['PostgreSQL', 'postgres'],
] as const)('the authorization pages in headless Chromium on %s', (_, backend) => {
  let schema: TestSchema | undefined;
  let server: TestServer;
  let app: AppServer;
  let browser: Browser;
  let clientId: string;

  beforeAll(async () => {
    schema = backend === 'postgres' ? testSchema() : undefined;
    // A file, not :memory:: the test sets the host's password on the same database from its own connection.
    const db = schema?.dbUrl ?? join(tempDir(), 'schedule.db');
    // The pages (their own bucket), favicon requests and the API calls with no token (the anonymous one): a browser flow makes dozens.
    const workspace = buildWorkspace({
      limits: { anonymous_per_minute: 10_000, oauth_pages_per_minute: 10_000, oauth_per_minute: 10_000 },
    }).workspace;
    // TOKEN_CACHE_MS=0: a revoked token must be refused on the very next request, not after the cache's 2 seconds.
    [server, app, browser] = await Promise.all([
      startInProcess({ workspace: writeWorkspace(workspace), db }, { TOKEN_CACHE_MS: '0' }),
      startAppServer(),
      launchChromium(),
    ]);
    await setUserPassword(db, HOST.username, HOST.password);
    await setUserPassword(db, ATTACKER.username, ATTACKER.password);

    // RFC 7591 dynamic registration of a public client (no secret: it proves itself with PKCE).
    const registered = await fetch(`${server.url}/v1/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: CLIENT_NAME,
        redirect_uris: [app.redirectUri],
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code'],
        response_types: ['code'],
      }),
    });
    const client = (await registered.json()) as Record<string, unknown>;
    expect(registered.status, JSON.stringify(client)).toBe(201);
    expect(client.redirect_uris).toEqual([app.redirectUri]);
    expect(client.token_endpoint_auth_method).toBe('none');
    expect(client).not.toHaveProperty('client_secret');
    clientId = String(client.client_id);
  });

  afterAll(async () => {
    await Promise.all([browser?.close(), app?.close()]);
    await server?.stop();
    await schema?.drop();
  });

  /** The app's half of the code flow: the code for tokens at the token endpoint (a public client: client_id, no secret). */
  async function exchange(code: string, authorization: Authorization): Promise<{ status: number; body: Record<string, unknown> }> {
    const res = await fetch(`${server.url}/v1/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: app.redirectUri,
        client_id: clientId,
        code_verifier: authorization.verifier,
        resource: server.url,
      }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  /**
   * A refusal read with plain fetch, not `api()`: docs/openapi.json still
   * documents the challenge as the bare `Bearer realm="schedule"` on 401 and
   * none on 403, without the RFC 9728 `resource_metadata` and RFC 6750
   * `error` parameters the server now sends, so the contract check would
   * fail on the header rather than test the refusal.
   */
  async function bare(path: string, token: string): Promise<{ status: number; headers: Headers; body: any }> {
    const res = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
    return { status: res.status, headers: res.headers, body: await res.json() };
  }

  /** The start of every bearer challenge of the API: where a client finds out how to get a token. */
  const challenge = () => `Bearer realm="schedule", resource_metadata="${server.url}/.well-known/oauth-protected-resource"`;

  /** A token the API no longer takes: 401, as an unknown one. */
  async function expectRefused(token: string): Promise<void> {
    const res = await bare('/v1/bookings', token);
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('unauthorized');
    expect(res.headers.get('www-authenticate')).toBe(
      `${challenge()}, error="invalid_token", error_description="The access token is not valid here."`,
    );
  }

  /** The query the browser brought to the redirect URI: code, state and iss, and nothing else. */
  function expectCallback(page: Page, authorization: Authorization): string {
    const landed = new URL(page.url());
    expect(`${landed.origin}${landed.pathname}`).toBe(app.redirectUri);
    expect([...landed.searchParams.keys()].sort()).toEqual(['code', 'iss', 'state']);
    expect(landed.searchParams.get('state')).toBe(authorization.state);
    // RFC 9207: the issuer, so the app can tell which server answered.
    expect(landed.searchParams.get('iss')).toBe(server.url);
    const code = landed.searchParams.get('code') ?? '';
    expect(code).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    // What the app's server itself received: the same query, once.
    expect(app.received.at(-1)?.toString()).toBe(landed.searchParams.toString());
    return code;
  }

  describe('a host signs in, unticks one scope and allows; then disconnects the app', () => {
    let context: BrowserContext;
    let page: Page;
    let authorization: Authorization;
    let accessToken: string;

    beforeAll(async () => {
      context = await browser.newContext();
      page = await context.newPage();
    });
    afterAll(async () => {
      await context?.close();
    });

    it('the authorization URL shows the sign-in page, which leads to the consent page with every requested scope ticked', async () => {
      authorization = authorizationUrl(server, clientId, app.redirectUri, REQUESTED);
      const first = await page.goto(authorization.url);
      expect(first?.status()).toBe(200);
      expect(new URL(page.url()).pathname).toMatch(/^\/oauth\/interaction\/[A-Za-z0-9_-]+$/);
      expect(await page.locator('h1').innerText()).toBe('Sign in to schedule');
      expect(await page.locator('body').innerText()).toContain(`${CLIENT_NAME} wants to use your schedule.`);

      await signIn(page);
      // The consent page is drawn once the sign-in's redirects are done: its Allow button is the event to wait on.
      await page.getByRole('button', { name: 'Allow' }).waitFor();
      expect(await page.locator('h1').innerText()).toBe(`Allow ${CLIENT_NAME}?`);
      expect(await page.locator('body').innerText()).toContain(`as ${HOST.username}`);
      expect((await tickedScopes(page)).sort()).toEqual([...REQUESTED].sort());
    });

    it('unticking slots:read and allowing sends the browser to the redirect URI with code, state and iss', async () => {
      await page.locator(`input[name="scope"][value="${UNTICKED}"]`).uncheck();
      expect((await tickedScopes(page)).sort()).toEqual([...KEPT].sort());
      const callbacks = app.received.length;
      await Promise.all([
        page.waitForURL((url) => url.href.startsWith(app.redirectUri)),
        page.getByRole('button', { name: 'Allow' }).click(),
      ]);
      expect(app.received.length).toBe(callbacks + 1);
      const code = expectCallback(page, authorization);

      const tokens = await exchange(code, authorization);
      expect(tokens.status, JSON.stringify(tokens.body)).toBe(200);
      // The scope granted is what stayed ticked, not what was asked.
      expect(String(tokens.body.scope).split(' ').sort()).toEqual([...KEPT].sort());
      expect(tokens.body.token_type).toBe('Bearer');
      expect(tokens.body.expires_in).toBe(15 * 60);
      // The client registered only authorization_code, so no refresh token.
      expect(Object.keys(tokens.body).sort()).toEqual(['access_token', 'expires_in', 'scope', 'token_type']);
      accessToken = String(tokens.body.access_token);
    });

    it('the token reads bookings and series, and is refused slots (the unticked scope) with 403 insufficient_scope', async () => {
      const bookings = expectPage(await api(server.url, '/v1/bookings', { token: accessToken }));
      expect(bookings.items.length).toBeGreaterThan(0);
      expectPage(await api(server.url, '/v1/series', { token: accessToken }));

      const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
      const query = new URLSearchParams({
        event_type_id: EVENT_TYPES.owner.id,
        start: new Date(today + DAY_MS).toISOString(),
        end: new Date(today + 8 * DAY_MS).toISOString(),
      });
      // The same slots call with a PAT that has every scope: the refusal below is the scope, not the query.
      expectData(await api(server.url, `/v1/slots?${query}`, { token: SECRETS.owner }));
      const slots = await bare(`/v1/slots?${query}`, accessToken);
      expect(slots.status).toBe(403);
      expect(slots.body.error.code).toBe('insufficient_scope');
      expect(slots.body.error.details).toEqual({ required_scope: UNTICKED });
      expect(slots.headers.get('www-authenticate')).toBe(`${challenge()}, error="insufficient_scope", scope="${UNTICKED}"`);
    });

    it('GET /oauth/apps, signed in from the flow, lists the app with the scopes it was given', async () => {
      const answer = await page.goto(`${server.url}/oauth/apps`);
      expect(answer?.status()).toBe(200);
      expect(await page.locator('h1').innerText()).toBe('Connected apps');
      expect(await page.locator('body').innerText()).toContain(`Signed in as ${HOST.username}.`);
      const row = page.locator('tbody tr', { hasText: clientId });
      expect(await row.count()).toBe(1);
      expect(await row.locator('td').first().innerText()).toBe(`${CLIENT_NAME}\n${clientId}`);
      expect((await row.locator('td').nth(1).locator('code').allInnerTexts()).sort()).toEqual([...KEPT].sort());
    });

    it('Revoke disconnects the app: the page says so, the app is gone from the list, and its token gets 401', async () => {
      const row = page.locator('tbody tr', { hasText: clientId });
      const [revoked] = await Promise.all([
        page.waitForResponse((res) => res.url() === `${server.url}/oauth/apps/revoke` && res.request().method() === 'POST'),
        row.getByRole('button', { name: 'Revoke' }).click(),
      ]);
      // The form posts and the answer is the list again, with a notice: no redirect, no script.
      expect(revoked.status()).toBe(200);
      await page.locator('p[role="status"]').waitFor();
      expect(await page.locator('p[role="status"]').innerText()).toBe(DISCONNECTED);
      expect(await page.locator('tbody tr').count()).toBe(0);
      expect(await page.locator('body').innerText()).toContain('No apps are connected.');

      await expectRefused(accessToken);
    });
  });

  it('with JavaScript disabled, sign-in and consent still reach the redirect URI with a code that gives a token', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      const authorization = authorizationUrl(server, clientId, app.redirectUri, REQUESTED);
      await page.goto(authorization.url);
      // A fresh context has no session cookie: the sign-in page comes first again.
      expect(await page.locator('input[name="password"]').count()).toBe(1);
      expect(await page.locator('script').count()).toBe(0);
      await signIn(page);
      await page.getByRole('button', { name: 'Allow' }).waitFor();
      expect(await page.locator('script').count()).toBe(0);
      await Promise.all([
        page.waitForURL((url) => url.href.startsWith(app.redirectUri)),
        page.getByRole('button', { name: 'Allow' }).click(),
      ]);
      const code = expectCallback(page, authorization);
      const tokens = await exchange(code, authorization);
      expect(tokens.status, JSON.stringify(tokens.body)).toBe(200);
      expect(String(tokens.body.scope).split(' ').sort()).toEqual([...REQUESTED].sort());
      expectPage(await api(server.url, '/v1/bookings', { token: String(tokens.body.access_token) }));

      // A code is single-use, and one presented twice was likely stolen: the token it gave is revoked too (RFC 6749 section 4.1.2).
      const replayed = await exchange(code, authorization);
      expect(replayed).toEqual({ status: 400, body: { error: 'invalid_grant', error_description: 'grant request is invalid' } });
      await expectRefused(String(tokens.body.access_token));
    } finally {
      await context.close();
    }
  });

  it('signing in on /oauth/sign-in leads to the connected-apps page; the sign-in cookies are HttpOnly and SameSite=Strict', async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`${server.url}/oauth/sign-in`);
      await signIn(page);
      await page.locator('h1', { hasText: 'Connected apps' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/oauth/apps');
      expect(await page.locator('body').innerText()).toContain(`Signed in as ${HOST.username}.`);
      const cookies = Object.fromEntries((await context.cookies()).map((c) => [c.name, c]));
      expect(cookies.schedule_sign_in).toMatchObject({ path: '/oauth/sign-in', httpOnly: true, sameSite: 'Strict', secure: false });
      expect(cookies.schedule_known).toMatchObject({ path: '/oauth', httpOnly: true, sameSite: 'Strict', secure: false });
      expect(cookies.schedule_session).toMatchObject({ path: '/oauth', httpOnly: true, sameSite: 'Lax', secure: false });
    } finally {
      await context.close();
    }
  });

  it('login CSRF: another site’s page that posts the sign-in form with the attacker’s token and password signs the visitor in as nobody', async () => {
    // The attacker's own copy of the form: the page answers anyone, so its token is easy to get.
    const form = await fetch(`${server.url}/oauth/sign-in`);
    const csrf = /name="csrf" value="([^"]+)"/.exec(await form.text())?.[1] ?? '';
    expect(csrf).not.toBe('');
    const forge = `${app.origin}/forge?${new URLSearchParams({ action: `${server.url}/oauth/sign-in`, csrf, ...ATTACKER })}`;
    // A visitor who never opened the sign-in page, and one who has it open in another tab (a pre-session of their own).
    for (const visitedBefore of [false, true]) {
      const context = await browser.newContext();
      try {
        const page = await context.newPage();
        if (visitedBefore) await page.goto(`${server.url}/oauth/sign-in`);
        const [posted] = await Promise.all([
          page.waitForResponse((res) => res.url() === `${server.url}/oauth/sign-in` && res.request().method() === 'POST'),
          page.goto(forge),
        ]);
        expect(posted.status()).toBe(403);
        expect(await posted.text()).toContain('This form was sent from another site.');
        expect((await context.cookies()).map((c) => c.name)).not.toContain('schedule_session');
        // The next visit to the pages finds nobody signed in: the apps page sends the visitor to sign in.
        await page.goto(`${server.url}/oauth/apps`);
        expect(new URL(page.url()).pathname).toBe('/oauth/sign-in');
        expect(await page.locator('h1').innerText()).toBe('Sign in to schedule');
      } finally {
        await context.close();
      }
    }
  });

  it('the consent page cannot be framed: frame-ancestors none and X-Frame-Options DENY, and Chromium does not render it in a frame', async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const authorization = authorizationUrl(server, clientId, app.redirectUri, ['bookings:read']);
      await page.goto(authorization.url);
      await signIn(page);
      await page.getByRole('button', { name: 'Allow' }).waitFor();
      const consentUrl = page.url();

      // The same page again, top level, for its headers (the interaction is still open: nothing was submitted).
      const consent = await page.goto(consentUrl);
      expect(consent?.status()).toBe(200);
      const headers = consent?.headers() ?? {};
      expect(headers['content-security-policy']?.split(/;\s*/)).toContain("frame-ancestors 'none'");
      expect(headers['x-frame-options']).toBe('DENY');
      await page.getByRole('button', { name: 'Allow' }).waitFor();

      // Another origin (another port) embeds it, beside a page of its own that does render. Chromium reports the refusal on the embedding page's console.
      const framing = await context.newPage();
      const refusals: string[] = [];
      framing.on('console', (message) => {
        if (message.text().includes('frame-ancestors')) refusals.push(message.text());
      });
      const framed = framing.waitForResponse((res) => res.url() === consentUrl);
      await framing.goto(`${app.origin}/frame?${new URLSearchParams({ src: consentUrl })}`);
      const own = await framing.locator('#own').elementHandle();
      expect(await (await own?.contentFrame())?.locator('#said').innerText()).toBe('A page that may be framed.');
      // The server did answer the framed request with the consent page (the cookies went along): only the browser's policy check stops it.
      expect((await framed).status()).toBe(200);
      const target = await (await framing.locator('#target').elementHandle())?.contentFrame();
      // Chromium puts its own error document in the frame instead.
      expect(target?.url()).toBe('chrome-error://chromewebdata/');
      expect(await target!.locator('input[name="scope"]').count()).toBe(0);
      expect(await target!.getByRole('button', { name: 'Allow' }).count()).toBe(0);
      expect(refusals).toEqual([expect.stringMatching(new RegExp(`^Framing '${server.url}/' violates .*"frame-ancestors 'none'"`))]);
    } finally {
      await context.close();
    }
  });
});
