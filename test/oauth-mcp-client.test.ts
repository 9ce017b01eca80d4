import { createHash } from 'node:crypto';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, expectError, expectPage } from './support/http.js';
import { postMcp, toolData } from './support/mcp-client.js';
import { authorizeAsHost, TestBrowser } from './support/oauth-browser.js';
import { linesSince, MemoryClientProvider, REDIRECT_URI, recordingFetch, type Seen } from './support/oauth-mcp-sdk.js';
import { HOST, type OAuthTestServer, paramsOf, STORES, startOAuthServer } from './support/oauth-test-server.js';
import { ALL_SCOPES, SECRETS } from './support/workspace.js';

// Issue 15: a real MCP client, written by no one here, gets its own token
// from nothing but the server's URL. The MCP SDK's client does discovery
// (RFC 9728, then RFC 8414), registers itself (RFC 7591), builds the
// authorization request (PKCE S256, RFC 8707 resource = <origin>/mcp),
// exchanges the code, refreshes when the server refuses its access token,
// and asks for a new authorization when the grant is gone. This file
// provides only what the SDK leaves to an application: where to keep
// things, and a browser (TestBrowser, as the host) to send the host to.

/**
 * What the SDK does when /mcp refuses its token and the grant behind its
 * refresh token is gone: discovery, a refresh answered invalid_grant, then
 * (credentials dropped) discovery again and a new authorization URL. It keeps
 * its registration: there is no second POST /v1/oauth/register.
 */
const REFRESH_REFUSED = [
  'POST /mcp 401',
  'GET /.well-known/oauth-protected-resource/mcp 200',
  'GET /.well-known/oauth-authorization-server 200',
  'POST /v1/oauth/token 400',
  'GET /.well-known/oauth-protected-resource/mcp 200',
  'GET /.well-known/oauth-authorization-server 200',
];

/** A form POST to one of the OAuth endpoints, as any client sends it. */
async function postForm(url: string, form: Record<string, string>): Promise<{ status: number; headers: Headers; body: any }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams(form),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

describe.each(STORES)('the MCP SDK client gets a token for /mcp by itself, on %s', (_, backend) => {
  let server: OAuthTestServer;
  let origin: string;
  let browser: TestBrowser;
  const provider = new MemoryClientProvider();
  const seen: Seen[] = [];
  const clients: Client[] = [];

  /** A fresh client and transport on /mcp, knowing only the URL and the provider (as after an application restarts). */
  function newClient(): { client: Client; transport: StreamableHTTPClientTransport } {
    const transport = new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), { authProvider: provider, fetch: recordingFetch(seen) });
    const client = new Client({ name: 'blackbox-oauth', version: '1.0.0' });
    clients.push(client);
    return { client, transport };
  }

  /** The host's answer to the latest authorization URL: the redirect's query, checked for state and iss. */
  async function hostApproves(): Promise<string> {
    const { url, state } = provider.authorizations.at(-1)!;
    const { redirectedTo } = await authorizeAsHost(browser, url.toString(), HOST);
    expect(`${redirectedTo.origin}${redirectedTo.pathname}`).toBe(REDIRECT_URI);
    // RFC 9207: the issuer in the response, so a client talking to several servers knows which one answered.
    expect(paramsOf(redirectedTo.searchParams)).toEqual({ code: expect.stringMatching(/^[\w-]{20,}$/), iss: origin, state });
    return redirectedTo.searchParams.get('code')!;
  }

  /** The bookings the host sees with a personal token of her own, by uid: what a client acting as her must see too. */
  async function hostsOwnView(): Promise<string[]> {
    return expectPage(await api(origin, '/v1/bookings', { token: SECRETS.member })).items.map((b) => b.uid);
  }

  beforeAll(async () => {
    server = await startOAuthServer(backend);
    origin = server.origin;
    browser = new TestBrowser(origin);
  });

  afterAll(async () => {
    for (const client of clients) await client.close();
    await server?.stop();
  });

  // What the flow leaves behind, for the steps after it.
  let code = '';
  let firstTokens: OAuthTokens;
  let connected: Client;

  it('registering with `scope` = the scopes /mcp advertises, as the SDK does, is accepted (201)', async () => {
    const metadata = (await (await fetch(`${origin}/.well-known/oauth-protected-resource/mcp`)).json()) as { scopes_supported: string[] };
    const res = await fetch(`${origin}/v1/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...provider.clientMetadata, scope: metadata.scopes_supported.join(' ') }),
    });
    expect({ status: res.status, body: await res.json() }).toMatchObject({ status: 201, body: { client_id: expect.any(String) } });
  });

  it('connecting with only the URL: 401, then discovery, registration, and an authorization URL for resource <origin>/mcp', async () => {
    const { client, transport } = newClient();
    await expect(client.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);

    expect(linesSince(seen, 0)).toEqual([
      'POST /mcp 401',
      'GET /.well-known/oauth-protected-resource/mcp 200',
      'GET /.well-known/oauth-authorization-server 200',
      'POST /v1/oauth/register 201',
    ]);
    expect(seen[0]!.headers.get('www-authenticate')).toBe(
      `Bearer realm="schedule", resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
    );
    expect(seen[1]!.body).toMatchObject({ resource: `${origin}/mcp`, authorization_servers: [origin] });
    expect(seen[2]!.body).toMatchObject({ issuer: origin, registration_endpoint: `${origin}/v1/oauth/register` });

    // The SDK registers for the scopes /mcp advertises (SEP-835).
    expect(seen[3]!.sent.scope.split(' ').sort()).toEqual([...ALL_SCOPES].sort());
    const registered = seen[3]!.body;
    expect(seen[3]!.headers.get('cache-control')).toBe('no-store');
    expect(registered).toMatchObject({
      client_id: expect.any(String),
      client_name: 'Blackbox MCP client',
      redirect_uris: [REDIRECT_URI],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    });
    // A public client gets no secret to keep.
    expect(registered).not.toHaveProperty('client_secret');
    expect(provider.client?.client_id).toBe(registered.client_id);

    expect(provider.authorizations).toHaveLength(1);
    const { url, state } = provider.authorizations[0]!;
    expect(`${url.origin}${url.pathname}`).toBe(`${origin}/v1/oauth/authorize`);
    const params = paramsOf(url.searchParams);
    expect(params).toEqual({
      client_id: registered.client_id,
      code_challenge: expect.stringMatching(/^[\w-]{43}$/),
      code_challenge_method: 'S256',
      redirect_uri: REDIRECT_URI,
      resource: `${origin}/mcp`,
      response_type: 'code',
      scope: expect.any(String),
      state,
    });
    // The SDK asks for what /mcp's metadata lists: every scope there is.
    expect(params.scope!.split(' ').sort()).toEqual([...ALL_SCOPES].sort());
    // S256 of the verifier it kept for the token request (RFC 7636 section 4.2).
    expect(params.code_challenge).toBe(createHash('sha256').update(provider.codeVerifier()).digest('base64url'));
    expect(provider.stored).toBeUndefined();
  });

  it('the host signs in and consents; the redirect carries the code, the same state, and iss = the origin', async () => {
    code = await hostApproves();
  });

  it('finishAuth exchanges the code (no-store), and a new connection calls tools as that host', async () => {
    const from = seen.length;
    const { transport } = newClient();
    await transport.finishAuth(code);
    expect(linesSince(seen, from)).toEqual([
      'GET /.well-known/oauth-protected-resource/mcp 200',
      'GET /.well-known/oauth-authorization-server 200',
      'POST /v1/oauth/token 200',
    ]);
    const tokenAnswer = seen.at(-1)!;
    expect(tokenAnswer.headers.get('cache-control')).toBe('no-store');
    expect(Object.keys(tokenAnswer.body).sort()).toEqual(['access_token', 'expires_in', 'refresh_token', 'scope', 'token_type']);
    expect(tokenAnswer.body).toMatchObject({ token_type: 'Bearer', expires_in: 900 });
    expect(tokenAnswer.body.scope.split(' ').sort()).toEqual([...ALL_SCOPES].sort());
    firstTokens = provider.stored!;
    expect(firstTokens.access_token).toBe(tokenAnswer.body.access_token);
    expect(firstTokens.refresh_token).toBe(tokenAnswer.body.refresh_token);

    // A client that connects now sends its token from the first request on: no 401 on the way.
    const fresh = newClient();
    const from2 = seen.length;
    await fresh.client.connect(fresh.transport);
    connected = fresh.client;
    expect(linesSince(seen, from2)).toEqual(['POST /mcp 200', 'POST /mcp 202']);

    const me = toolData((await connected.callTool({ name: 'whoami', arguments: {} })) as never);
    expect(me).toMatchObject({ user_id: HOST.id, username: HOST.username, acts_for: [HOST.id] });
    const listed = toolData((await connected.callTool({ name: 'list_bookings', arguments: {} })) as never);
    expect(listed.data.map((b: { uid: string }) => b.uid)).toEqual(await hostsOwnView());
    expect(listed.data.length).toBeGreaterThan(0);
  });

  it('the token is bound to /mcp: GET /v1/bookings with it is 401 invalid_token', async () => {
    // SERVER BUG, reported: docs/openapi.json allows only `Bearer realm="schedule"` as a 401's
    // WWW-Authenticate, so this answer is not checked against it; the header is asserted exactly below.
    const res = await api(origin, '/v1/bookings', { token: firstTokens.access_token, apiServer: false });
    expectError(res, 401, 'unauthorized');
    expect(res.headers.get('www-authenticate')).toBe(
      `Bearer realm="schedule", resource_metadata="${origin}/.well-known/oauth-protected-resource", error="invalid_token", error_description="The access token is not valid here."`,
    );
    // And the same token still works where it belongs.
    expect((await postMcp(origin, { authorization: `Bearer ${firstTokens.access_token}` })).status).toBe(200);
  });

  it('when /mcp refuses its access token, the SDK refreshes: new tokens, rotated, and the call goes through', async () => {
    provider.stored = { ...firstTokens, access_token: 'no-longer-a-valid-access-token' };
    const from = seen.length;
    const me = toolData((await connected.callTool({ name: 'whoami', arguments: {} })) as never);
    expect(me).toMatchObject({ user_id: HOST.id });
    expect(linesSince(seen, from)).toEqual([
      'POST /mcp 401',
      'GET /.well-known/oauth-protected-resource/mcp 200',
      'GET /.well-known/oauth-authorization-server 200',
      'POST /v1/oauth/token 200',
      'POST /mcp 200',
    ]);
    expect(seen[from]!.headers.get('www-authenticate')).toBe(
      `Bearer realm="schedule", resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp", error="invalid_token", error_description="The access token is not valid here."`,
    );
    const refreshed = provider.stored!;
    expect(refreshed.access_token).not.toBe(firstTokens.access_token);
    expect(refreshed.refresh_token).toEqual(expect.any(String));
    expect(refreshed.refresh_token).not.toBe(firstTokens.refresh_token);
  });

  it('the rotated-out refresh token is refused (invalid_grant), and its replay ends the grant: the new access token stops working', async () => {
    const refreshed = provider.stored!;
    const replay = await postForm(`${origin}/v1/oauth/token`, {
      grant_type: 'refresh_token',
      refresh_token: firstTokens.refresh_token!,
      client_id: provider.client!.client_id,
    });
    expect(replay.status).toBe(400);
    expect(replay.headers.get('cache-control')).toBe('no-store');
    expect(replay.body).toEqual({ error: 'invalid_grant', error_description: expect.any(String) });
    // Someone replaying a used refresh token may have stolen it: everything issued under that grant goes.
    const res = await postMcp(origin, { authorization: `Bearer ${refreshed.access_token}` });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  it('with the grant gone, the SDK fails to refresh and asks for a new authorization; the host (still signed in) consents again', async () => {
    const { client, transport } = newClient();
    const from = seen.length;
    await expect(client.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    const lines = linesSince(seen, from);
    expect(lines).toEqual(REFRESH_REFUSED);
    expect(seen[from + 3]!.body).toEqual({ error: 'invalid_grant', error_description: expect.any(String) });
    expect(provider.authorizations).toHaveLength(2);

    const again = newClient();
    await again.transport.finishAuth(await hostApproves());
    await again.client.connect(again.transport);
    connected = again.client;
    expect(toolData((await connected.callTool({ name: 'whoami', arguments: {} })) as never)).toMatchObject({ user_id: HOST.id });
  });

  it('revoking the access and refresh tokens at /v1/oauth/revoke: the next tools/call gets 401 and the SDK must send the host again', async () => {
    const tokens = provider.stored!;
    const clientId = provider.client!.client_id;
    for (const [token, hint] of [
      [tokens.access_token, 'access_token'],
      [tokens.refresh_token!, 'refresh_token'],
    ] as const) {
      // RFC 7009: a public client names itself with client_id; success is 200 with an empty body.
      const revoked = await postForm(`${origin}/v1/oauth/revoke`, { token, token_type_hint: hint, client_id: clientId });
      expect(revoked.status).toBe(200);
      expect(revoked.body).toBeUndefined();
    }
    const raw = await postMcp(origin, { authorization: `Bearer ${tokens.access_token}` });
    expect(raw.status).toBe(401);
    expect(raw.headers.get('www-authenticate')).toBe(
      `Bearer realm="schedule", resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp", error="invalid_token", error_description="The access token is not valid here."`,
    );

    const from = seen.length;
    await expect(connected.callTool({ name: 'whoami', arguments: {} })).rejects.toBeInstanceOf(UnauthorizedError);
    expect(linesSince(seen, from)).toEqual(REFRESH_REFUSED);
    expect(seen[from + 3]!.body).toEqual({ error: 'invalid_grant', error_description: expect.any(String) });
    expect(provider.authorizations).toHaveLength(3);
  });
});
