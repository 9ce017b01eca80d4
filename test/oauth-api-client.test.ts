import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiResponse, api, expectError, expectPage } from './support/http.js';
import { postMcp } from './support/mcp-client.js';
import { authorizeAsHost, TestBrowser } from './support/oauth-browser.js';
import { HOST, type OAuthTestServer, paramsOf, STORES, startOAuthServer } from './support/oauth-test-server.js';
import { ALL_SCOPES, SECRETS } from './support/workspace.js';

// Issue 15: an app that calls the HTTP API gets its token with a generic
// OAuth client library written by no one here (oauth4webapi): discovery
// (RFC 8414, RFC 9728), registration of a confidential client (RFC 7591),
// the authorization code flow with PKCE and RFC 8707 resource = the origin,
// the RFC 9207 `iss` check, refresh with rotation, introspection (RFC 7662)
// and revocation (RFC 7009). The library does every protocol step and
// checks every answer; the test adds the exact statuses, headers and bodies.
// The server runs with TOKEN_CACHE_MS=0 (support/oauth-test-server.ts), so
// a revoked token is refused by the very next request: no waiting here.

const REDIRECT_URI = 'http://127.0.0.1:1456/callback';

/** The servers under test are plain http on loopback; the library refuses http unless told. */
const INSECURE = { [oauth.allowInsecureRequests]: true } as const;

const sortedScopes = (scope: string | undefined) => (scope ?? '').split(' ').sort();

/** A Response's status, Cache-Control and JSON body, read from a copy so the library can still process the original. */
async function peek(res: Response): Promise<{ status: number; cacheControl: string | null; body: any }> {
  const text = await res.clone().text();
  return { status: res.status, cacheControl: res.headers.get('cache-control'), body: text ? JSON.parse(text) : undefined };
}

/** The 401 the API gives a bearer token it does not accept: RFC 6750 `invalid_token`, pointing at its resource metadata. */
function expectTokenRefused(res: ApiResponse, origin: string): void {
  expectError(res, 401, 'unauthorized');
  expect(res.headers.get('www-authenticate')).toBe(
    `Bearer realm="schedule", resource_metadata="${origin}/.well-known/oauth-protected-resource", error="invalid_token", error_description="The access token is not valid here."`,
  );
}

/**
 * GET /v1/bookings with a token the API refuses. SERVER BUG, reported:
 * docs/openapi.json allows only `Bearer realm="schedule"` as a 401's
 * WWW-Authenticate, so this answer is not checked against it
 * (`apiServer: false`); expectTokenRefused asserts the header exactly.
 */
const refusedBookings = (origin: string, token: string) => api(origin, '/v1/bookings', { token, apiServer: false });

describe.each(STORES)('oauth4webapi drives the HTTP API code flow, on %s', (_, backend) => {
  let server: OAuthTestServer;
  let origin: string;
  let as: oauth.AuthorizationServer;
  let browser: TestBrowser;

  beforeAll(async () => {
    server = await startOAuthServer(backend);
    origin = server.origin;
    browser = new TestBrowser(origin);
  });

  afterAll(async () => {
    await server?.stop();
  });

  /** Registers a client through the library; returns what the server answered and the client. */
  async function register(metadata: Partial<oauth.Client>) {
    const res = await oauth.dynamicClientRegistrationRequest(as, metadata, INSECURE);
    const raw = await peek(res);
    return { raw, client: await oauth.processDynamicClientRegistrationResponse(res) };
  }

  /** The whole code flow for one client: the host consents to every scope for `resource`; returns the token endpoint's raw answer and the processed one. */
  async function codeFlow(client: oauth.Client, clientAuth: oauth.ClientAuth, resource: string) {
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const url = new URL(as.authorization_endpoint!);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: REDIRECT_URI,
      scope: ALL_SCOPES.join(' '),
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      resource,
    }).toString();
    const { redirectedTo } = await authorizeAsHost(browser, url.toString(), HOST);
    expect(`${redirectedTo.origin}${redirectedTo.pathname}`).toBe(REDIRECT_URI);
    // RFC 9207: the issuer comes back with the code; the library refuses an answer without it, or from another issuer.
    expect(paramsOf(redirectedTo.searchParams)).toEqual({ code: expect.any(String), iss: origin, state });
    const params = oauth.validateAuthResponse(as, client, redirectedTo, state);
    const res = await oauth.authorizationCodeGrantRequest(as, client, clientAuth, params, REDIRECT_URI, verifier, {
      ...INSECURE,
      additionalParameters: { resource },
    });
    const raw = await peek(res);
    return { raw, tokens: await oauth.processAuthorizationCodeResponse(as, client, res) };
  }

  async function introspect(client: oauth.Client, clientAuth: oauth.ClientAuth, token: string) {
    const res = await oauth.introspectionRequest(as, client, clientAuth, token, INSECURE);
    const raw = await peek(res);
    return { raw, body: await oauth.processIntrospectionResponse(as, client, res) };
  }

  /** The bookings the host sees with a personal token of her own, by uid: what an app acting as her must see too. */
  async function hostsOwnView(): Promise<string[]> {
    return expectPage(await api(origin, '/v1/bookings', { token: SECRETS.member })).items.map((b) => b.uid);
  }

  it('discovery: the API names the origin as its resource and issuer; the library reads and checks the server metadata', async () => {
    const resourceRes = await oauth.resourceDiscoveryRequest(new URL(origin), INSECURE);
    const resource = await oauth.processResourceDiscoveryResponse(new URL(origin), resourceRes);
    expect(resource).toMatchObject({ resource: origin, authorization_servers: [origin], bearer_methods_supported: ['header'] });
    expect([...(resource.scopes_supported ?? [])].sort()).toEqual([...ALL_SCOPES].sort());

    as = await oauth.processDiscoveryResponse(
      new URL(origin),
      await oauth.discoveryRequest(new URL(origin), { ...INSECURE, algorithm: 'oauth2' }),
    );
    expect(as).toMatchObject({
      issuer: origin,
      authorization_endpoint: `${origin}/v1/oauth/authorize`,
      token_endpoint: `${origin}/v1/oauth/token`,
      registration_endpoint: `${origin}/v1/oauth/register`,
      revocation_endpoint: `${origin}/v1/oauth/revoke`,
      introspection_endpoint: `${origin}/v1/oauth/introspect`,
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
      introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    });
  });

  describe('a confidential client', () => {
    let client: oauth.Client;
    let clientAuth: oauth.ClientAuth;
    let first: oauth.TokenEndpointResponse;
    let second: oauth.TokenEndpointResponse;

    it('registers with client_secret_basic: 201, no-store, a client_id and a secret that does not expire', async () => {
      const { raw, client: registered } = await register({
        client_name: 'Blackbox API app',
        redirect_uris: [REDIRECT_URI],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      });
      expect(raw.status).toBe(201);
      expect(raw.cacheControl).toBe('no-store');
      expect(raw.body).toMatchObject({
        client_id: expect.any(String),
        client_secret: expect.any(String),
        client_id_issued_at: expect.any(Number),
        client_secret_expires_at: 0,
        client_name: 'Blackbox API app',
        redirect_uris: [REDIRECT_URI],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      });
      expect(raw.body.client_secret.length).toBeGreaterThanOrEqual(32);
      client = registered;
      clientAuth = oauth.ClientSecretBasic(String(registered.client_secret));
    });

    it('code + PKCE for resource = the origin, exchanged with client_secret_basic: 200, no-store, a bearer token with every scope and a refresh token', async () => {
      const { raw, tokens } = await codeFlow(client, clientAuth, origin);
      expect(raw.status).toBe(200);
      expect(raw.cacheControl).toBe('no-store');
      expect(Object.keys(raw.body).sort()).toEqual(['access_token', 'expires_in', 'refresh_token', 'scope', 'token_type']);
      expect(raw.body).toMatchObject({ token_type: 'Bearer', expires_in: 900 });
      expect(sortedScopes(tokens.scope)).toEqual([...ALL_SCOPES].sort());
      first = tokens;
    });

    it('the access token reads the API as the host (200, exactly her bookings) and is refused on /mcp, the other resource', async () => {
      const { items } = expectPage(await api(origin, '/v1/bookings', { token: first.access_token }));
      expect(items.map((b) => b.uid)).toEqual(await hostsOwnView());
      expect(items.length).toBeGreaterThan(0);
      const mcp = await postMcp(origin, { authorization: `Bearer ${first.access_token}` });
      expect(mcp.status).toBe(401);
      expect(mcp.headers.get('www-authenticate')).toBe(
        `Bearer realm="schedule", resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp", error="invalid_token", error_description="The access token is not valid here."`,
      );
    });

    it('refreshTokenGrantRequest: 200, no-store, a new access token and a new refresh token (rotated)', async () => {
      const res = await oauth.refreshTokenGrantRequest(as, client, clientAuth, first.refresh_token!, INSECURE);
      const raw = await peek(res);
      expect(raw.status).toBe(200);
      expect(raw.cacheControl).toBe('no-store');
      expect(Object.keys(raw.body).sort()).toEqual(['access_token', 'expires_in', 'refresh_token', 'scope', 'token_type']);
      second = await oauth.processRefreshTokenResponse(as, client, res);
      expect(second.access_token).not.toBe(first.access_token);
      expect(second.refresh_token).not.toBe(first.refresh_token);
      expect(sortedScopes(second.scope)).toEqual([...ALL_SCOPES].sort());
      expect(expectPage(await api(origin, '/v1/bookings', { token: second.access_token })).items.length).toBeGreaterThan(0);
    });

    it('introspection with client_secret_basic: 200, no-store, active with scope, client_id, aud = the origin, sub = the host', async () => {
      const access = await introspect(client, clientAuth, second.access_token);
      expect(access.raw.status).toBe(200);
      expect(access.raw.cacheControl).toBe('no-store');
      expect(access.body).toEqual({
        active: true,
        client_id: client.client_id,
        aud: origin,
        sub: HOST.id,
        iss: origin,
        scope: expect.any(String),
        token_type: 'Bearer',
        iat: expect.any(Number),
        exp: expect.any(Number),
      });
      expect(sortedScopes(access.body.scope)).toEqual([...ALL_SCOPES].sort());
      expect(access.body.exp! - access.body.iat!).toBe(900);

      const refresh = await introspect(client, clientAuth, second.refresh_token!);
      expect(refresh.body).toMatchObject({ active: true, client_id: client.client_id, sub: HOST.id });
      expect(refresh.body).not.toHaveProperty('token_type');
    });

    it('revoking the refresh token revokes the grant: introspection says active false, the API answers 401 at once, refresh is invalid_grant', async () => {
      const res = await oauth.revocationRequest(as, client, clientAuth, second.refresh_token!, {
        ...INSECURE,
        additionalParameters: { token_type_hint: 'refresh_token' },
      });
      // RFC 7009: 200 with nothing in the body (so nothing to keep from caches).
      expect(await peek(res)).toMatchObject({ status: 200, body: undefined });
      await oauth.processRevocationResponse(res);

      expect((await introspect(client, clientAuth, second.access_token)).body).toEqual({ active: false });
      expect((await introspect(client, clientAuth, second.refresh_token!)).body).toEqual({ active: false });
      expectTokenRefused(await refusedBookings(origin, second.access_token), origin);

      const again = await oauth.refreshTokenGrantRequest(as, client, clientAuth, second.refresh_token!, INSECURE);
      expect(await peek(again)).toEqual({
        status: 400,
        cacheControl: 'no-store',
        body: { error: 'invalid_grant', error_description: expect.any(String) },
      });
    });

    it('replaying a rotated-out refresh token is invalid_grant and ends the grant it came from', async () => {
      const { tokens } = await codeFlow(client, clientAuth, origin);
      const rotated = await oauth.processRefreshTokenResponse(
        as,
        client,
        await oauth.refreshTokenGrantRequest(as, client, clientAuth, tokens.refresh_token!, INSECURE),
      );
      const replay = await oauth.refreshTokenGrantRequest(as, client, clientAuth, tokens.refresh_token!, INSECURE);
      expect(await peek(replay)).toEqual({
        status: 400,
        cacheControl: 'no-store',
        body: { error: 'invalid_grant', error_description: expect.any(String) },
      });
      await expect(oauth.processRefreshTokenResponse(as, client, replay)).rejects.toMatchObject({ error: 'invalid_grant', status: 400 });
      // Whoever replays a used refresh token may have stolen it: the tokens issued since go too.
      expect((await introspect(client, clientAuth, rotated.access_token)).body).toEqual({ active: false });
      expectTokenRefused(await refusedBookings(origin, rotated.access_token), origin);
    });
  });

  describe('a public client (token_endpoint_auth_method none)', () => {
    it('gets a token for the API, but cannot introspect it, nor can a confidential client introspect a token that is not its own', async () => {
      const { raw, client } = await register({
        redirect_uris: [REDIRECT_URI],
        token_endpoint_auth_method: 'none',
      });
      expect(raw.status).toBe(201);
      expect(raw.body).not.toHaveProperty('client_secret');
      const { tokens } = await codeFlow(client, oauth.None(), origin);
      expect(expectPage(await api(origin, '/v1/bookings', { token: tokens.access_token })).items.length).toBeGreaterThan(0);

      const res = await oauth.introspectionRequest(as, client, oauth.None(), tokens.access_token, INSECURE);
      expect(await peek(res)).toEqual({ status: 200, cacheControl: 'no-store', body: { active: false } });

      const { client: other } = await register({ redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'client_secret_basic' });
      const byOther = await introspect(other, oauth.ClientSecretBasic(String(other.client_secret)), tokens.access_token);
      expect(byOther.body).toEqual({ active: false });
      // Being told "inactive" changed nothing: the token still works.
      expect((await api(origin, '/v1/bookings', { token: tokens.access_token })).status).toBe(200);
    });
  });
});
