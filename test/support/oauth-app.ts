import { createHash, randomBytes } from 'node:crypto';
import type { ApiResponse } from './http.js';
import { authorizeAsHost, type TestBrowser } from './oauth-browser.js';

// An OAuth client as an app or an MCP client is one: it registers itself
// (RFC 7591), sends a host to the authorization endpoint with PKCE, and
// trades the code for tokens. The answers are read raw: the authorization
// server's endpoints are not part of docs/openapi.json, so they are not
// checked against it (http.ts's `api` would).

/** A registered client, as its registration answered. */
export interface OAuthApp {
  readonly clientId: string;
  /** Only for a confidential client. */
  readonly clientSecret?: string;
  readonly redirectUri: string;
}

/** One authorization request's secrets: the PKCE verifier and the `state` it must come back with. */
export interface PkceRequest {
  readonly verifier: string;
  readonly challenge: string;
  readonly state: string;
}

export function pkce(): PkceRequest {
  const verifier = randomBytes(32).toString('base64url');
  return {
    verifier,
    challenge: createHash('sha256').update(verifier).digest('base64url'),
    state: randomBytes(12).toString('base64url'),
  };
}

/** Sends one request and reads the whole answer, never following a redirect. */
export async function rawRequest(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<ApiResponse> {
  const started = performance.now();
  const res = await fetch(url, { method: init.method ?? 'GET', headers: init.headers, body: init.body, redirect: 'manual' });
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, text, body, elapsedMs: performance.now() - started };
}

/** A form POST to one of the authorization server's endpoints, as a client authenticates: Basic with a secret, else `client_id` in the form. */
export function postForm(origin: string, path: string, form: Record<string, string>, app?: OAuthApp): Promise<ApiResponse> {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  const fields = { ...form };
  if (app?.clientSecret) headers.authorization = `Basic ${Buffer.from(`${app.clientId}:${app.clientSecret}`).toString('base64')}`;
  else if (app) fields.client_id = app.clientId;
  return rawRequest(`${origin}${path}`, { method: 'POST', headers, body: new URLSearchParams(fields).toString() });
}

/** Registers a client dynamically (POST /v1/oauth/register). */
export async function registerApp(
  origin: string,
  options: { confidential?: boolean; name?: string; redirectUri?: string } = {},
): Promise<OAuthApp> {
  const redirectUri = options.redirectUri ?? 'https://app.example/callback';
  const res = await rawRequest(`${origin}/v1/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: options.name ?? 'Refusal test app',
      redirect_uris: [redirectUri],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: options.confidential ? 'client_secret_basic' : 'none',
    }),
  });
  if (res.status !== 201) throw new Error(`registration failed (${res.status}): ${res.text}`);
  return {
    clientId: res.body.client_id,
    redirectUri,
    ...(options.confidential ? { clientSecret: res.body.client_secret as string } : {}),
  };
}

/** The authorization URL an app sends a host to; `params` adds to or overrides (undefined removes) the defaults. */
export function authorizeUrl(origin: string, app: OAuthApp, request: PkceRequest, params: Record<string, string | undefined> = {}): string {
  const url = new URL('/v1/oauth/authorize', origin);
  const all: Record<string, string | undefined> = {
    response_type: 'code',
    client_id: app.clientId,
    redirect_uri: app.redirectUri,
    scope: 'bookings:read slots:read',
    resource: origin,
    state: request.state,
    code_challenge: request.challenge,
    code_challenge_method: 'S256',
    ...params,
  };
  for (const [name, value] of Object.entries(all)) if (value !== undefined) url.searchParams.set(name, value);
  return url.toString();
}

/** The parameters a redirect back to the app carries, checking it went to the app's own redirect URI. */
export function redirectParams(app: OAuthApp, to: URL): Record<string, string> {
  const target = `${to.origin}${to.pathname}`;
  if (target !== app.redirectUri) throw new Error(`redirected to ${to.toString()}, not to ${app.redirectUri}`);
  return Object.fromEntries(to.searchParams);
}

export interface Tokens {
  readonly access_token: string;
  readonly refresh_token: string;
  readonly scope: string;
  readonly [name: string]: unknown;
}

/** A host signs in and allows (keeping all but `untick`); the code the app got back, with its PKCE verifier. */
export async function codeFor(
  browser: TestBrowser,
  origin: string,
  app: OAuthApp,
  host: { username: string; password: string },
  options: { params?: Record<string, string | undefined>; untick?: readonly string[] } = {},
): Promise<{ code: string; request: PkceRequest }> {
  const request = pkce();
  const { redirectedTo } = await authorizeAsHost(browser, authorizeUrl(origin, app, request, options.params), host, {
    untick: options.untick ?? [],
  });
  const params = redirectParams(app, redirectedTo);
  if (!params.code || params.state !== request.state) throw new Error(`no code came back: ${redirectedTo.toString()}`);
  return { code: params.code, request };
}

/** Trades a code for tokens at the token endpoint. */
export function exchangeCode(
  origin: string,
  app: OAuthApp,
  code: string,
  verifier: string | undefined,
  resource?: string,
): Promise<ApiResponse> {
  return postForm(
    origin,
    '/v1/oauth/token',
    {
      grant_type: 'authorization_code',
      code,
      redirect_uri: app.redirectUri,
      ...(verifier === undefined ? {} : { code_verifier: verifier }),
      ...(resource === undefined ? {} : { resource }),
    },
    app,
  );
}

/** A refresh token request; `scope` only when given. */
export function refresh(origin: string, app: OAuthApp, refreshToken: string, scope?: string): Promise<ApiResponse> {
  return postForm(
    origin,
    '/v1/oauth/token',
    { grant_type: 'refresh_token', refresh_token: refreshToken, ...(scope === undefined ? {} : { scope }) },
    app,
  );
}

/** Tokens for an app, the whole way (authorize, sign in, consent, exchange); throws unless the exchange answers 200. */
export async function tokensFor(
  browser: TestBrowser,
  origin: string,
  app: OAuthApp,
  host: { username: string; password: string },
  options: { params?: Record<string, string | undefined>; untick?: readonly string[] } = {},
): Promise<Tokens> {
  const { code, request } = await codeFor(browser, origin, app, host, options);
  const res = await exchangeCode(origin, app, code, request.verifier);
  if (res.status !== 200) throw new Error(`the code exchange failed (${res.status}): ${res.text}`);
  return res.body as Tokens;
}
