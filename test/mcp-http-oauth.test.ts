import { join } from 'node:path';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { api, bearerChallenge } from './support/http.js';
import { startInProcess } from './support/in-process.js';
import { connectHttp, expectMcpUnauthorized, postMcp, toolData } from './support/mcp-client.js';
import { killServer, startMcpHttp, stopMcpProcesses } from './support/mcp-process.js';
import { authorizeAsHost, setUserPassword, TestBrowser } from './support/oauth-browser.js';
import { linesSince, MemoryClientProvider, REDIRECT_URI, recordingFetch, type Seen } from './support/oauth-mcp-sdk.js';
import { HOST, oauthFixture, paramsOf } from './support/oauth-test-server.js';
import { type ServerProcess, type TestServer, tempDir, writeWorkspace } from './support/serve.js';
import { ALL_SCOPES, SECRETS } from './support/workspace.js';

// Issue 36, "One server, every transport": `schedule mcp --http` can be
// given to an MCP client by its URL alone, as `schedule serve` can. It runs
// the same authorization server beside /mcp (discovery, registration, the
// sign-in and consent pages, the token endpoint), so the MCP SDK's client
// starts OAuth from the 401 by itself. And a client given
// http://localhost:PORT/mcp instead of http://127.0.0.1:PORT/mcp signs in
// too: without PUBLIC_URL, /mcp is a resource under both loopback names,
// with one issuer (docs/oauth.md "Which URL to give a client").

afterAll(stopMcpProcesses);

const ANSWERS_OF_AN_UNKNOWN_PATH = {
  error: { code: 'not_found', message: 'No such path; the MCP endpoint is /mcp.', details: {}, request_id: expect.any(String) },
};

describe('schedule mcp --http runs the authorization server of /mcp', () => {
  let server: ServerProcess;
  /** Where it listens, and the issuer: http://127.0.0.1:PORT. */
  let origin: string;
  /** The same server under its other loopback name: http://localhost:PORT. */
  let localhost: string;

  beforeAll(async () => {
    const db = join(tempDir('schedule-mcp-oauth-'), 'mcp.db');
    // TOKEN_CACHE_MS=0: a token is judged afresh by every request.
    server = await startMcpHttp(['--workspace', writeWorkspace(oauthFixture().workspace), '--db', db], { TOKEN_CACHE_MS: '0' });
    await setUserPassword(db, HOST.username, HOST.password);
    origin = server.url;
    localhost = origin.replace('//127.0.0.1:', '//localhost:');
  });

  afterAll(async () => {
    if (server) await killServer(server);
  });

  /** What the server's protected resource metadata for /mcp says, reached at `at`. */
  const mcpMetadata = (at: string) => ({
    resource: `${at}/mcp`,
    authorization_servers: [origin],
    scopes_supported: [...ALL_SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'schedule MCP server',
  });

  it('GET /.well-known/oauth-protected-resource/mcp is 200 JSON: /mcp, with the server as its authorization server', async () => {
    const res = await api(origin, '/.well-known/oauth-protected-resource/mcp', { apiServer: false });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    // No resource_documentation: /docs is the HTTP API's reference, which `mcp --http` does not serve.
    expect(res.body).toEqual(mcpMetadata(origin));
  });

  it('GET /.well-known/oauth-authorization-server is 200 JSON naming its endpoints on the same origin', async () => {
    const res = await api(origin, '/.well-known/oauth-authorization-server', { apiServer: false });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.body).toEqual({
      issuer: origin,
      authorization_endpoint: `${origin}/v1/oauth/authorize`,
      token_endpoint: `${origin}/v1/oauth/token`,
      registration_endpoint: `${origin}/v1/oauth/register`,
      revocation_endpoint: `${origin}/v1/oauth/revoke`,
      introspection_endpoint: `${origin}/v1/oauth/introspect`,
      jwks_uri: `${origin}/v1/oauth/jwks`,
      scopes_supported: [...ALL_SCOPES],
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
      revocation_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
      introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      authorization_response_iss_parameter_supported: true,
      client_id_metadata_document_supported: true,
    });
  });

  it('reached as localhost, /mcp is described at localhost (the URL the client was given), issued for by the one issuer', async () => {
    const res = await api(localhost, '/.well-known/oauth-protected-resource/mcp', { apiServer: false });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(mcpMetadata(localhost));
  });

  it('POST /mcp without a token is 401 naming the metadata of the origin it was sent to', async () => {
    expectMcpUnauthorized(await postMcp(origin, {}), bearerChallenge({ origin, resource: 'mcp' }));
    expectMcpUnauthorized(await postMcp(localhost, {}), bearerChallenge({ origin: localhost, resource: 'mcp' }));
    expect((await postMcp(origin, {})).headers.get('www-authenticate')).toBe(
      `Bearer realm="schedule", resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
    );
  });

  it('the HTTP API is not served: its metadata and /v1 paths are 404, the latter in the error envelope', async () => {
    expect((await api(origin, '/.well-known/oauth-protected-resource', { apiServer: false })).status).toBe(404);
    for (const path of ['/v1/bookings', '/docs', '/']) {
      const res = await api(origin, path, { apiServer: false });
      expect([res.status, res.headers.get('content-type')]).toEqual([404, 'application/json; charset=utf-8']);
      expect(res.body).toEqual(ANSWERS_OF_AN_UNKNOWN_PATH);
      expect(res.body.error.request_id).toBe(res.headers.get('x-request-id'));
    }
  });

  it('a personal token still works as before: tools/list, and list_bookings answers', async () => {
    const session = await connectHttp(origin, SECRETS.member);
    try {
      expect((await session.client.listTools()).tools.map((t) => t.name)).toContain('list_bookings');
      toolData(await session.call('list_bookings'));
    } finally {
      await session.close();
    }
  });

  describe.each([
    ['127.0.0.1', () => origin],
    ['localhost', () => localhost],
  ])('the MCP SDK client given http://%s:PORT/mcp signs the host in and lists the tools', (_, given) => {
    const provider = new MemoryClientProvider();
    const seen: Seen[] = [];
    const clients: Client[] = [];
    let code = '';

    function newClient(): { client: Client; transport: StreamableHTTPClientTransport } {
      const transport = new StreamableHTTPClientTransport(new URL(`${given()}/mcp`), {
        authProvider: provider,
        fetch: recordingFetch(seen),
      });
      const client = new Client({ name: 'blackbox-mcp-http-oauth', version: '1.0.0' });
      clients.push(client);
      return { client, transport };
    }

    afterAll(async () => {
      for (const client of clients) await client.close();
    });

    it('connecting: 401, discovery at the given origin, then the authorization server at the issuer; the resource is <given>/mcp', async () => {
      const { client, transport } = newClient();
      await expect(client.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
      expect(linesSince(seen, 0)).toEqual([
        'POST /mcp 401',
        'GET /.well-known/oauth-protected-resource/mcp 200',
        'GET /.well-known/oauth-authorization-server 200',
        'POST /v1/oauth/register 201',
      ]);
      expect(seen[0]!.headers.get('www-authenticate')).toBe(
        `Bearer realm="schedule", resource_metadata="${given()}/.well-known/oauth-protected-resource/mcp"`,
      );
      expect(seen[1]!.body).toEqual(mcpMetadata(given()));
      expect(seen[2]!.body).toMatchObject({ issuer: origin, token_endpoint: `${origin}/v1/oauth/token` });

      expect(provider.authorizations).toHaveLength(1);
      const { url, state } = provider.authorizations[0]!;
      expect(`${url.origin}${url.pathname}`).toBe(`${origin}/v1/oauth/authorize`);
      expect(paramsOf(url.searchParams)).toEqual({
        client_id: provider.client!.client_id,
        code_challenge: expect.stringMatching(/^[\w-]{43}$/),
        code_challenge_method: 'S256',
        redirect_uri: REDIRECT_URI,
        resource: `${given()}/mcp`,
        response_type: 'code',
        scope: [...ALL_SCOPES].join(' '),
        state,
      });
    });

    it('the host signs in and consents on the server’s pages; the redirect carries the code, the state and iss = the issuer', async () => {
      const { url, state } = provider.authorizations[0]!;
      const { redirectedTo } = await authorizeAsHost(new TestBrowser(origin), url.toString(), HOST);
      expect(`${redirectedTo.origin}${redirectedTo.pathname}`).toBe(REDIRECT_URI);
      expect(paramsOf(redirectedTo.searchParams)).toEqual({ code: expect.stringMatching(/^[\w-]{20,}$/), iss: origin, state });
      code = redirectedTo.searchParams.get('code')!;
    });

    it('finishAuth exchanges the code; a new connection lists the tools and answers list_bookings as a personal token of the host does', async () => {
      const { transport } = newClient();
      const from = seen.length;
      await transport.finishAuth(code);
      expect(linesSince(seen, from)).toEqual([
        'GET /.well-known/oauth-protected-resource/mcp 200',
        'GET /.well-known/oauth-authorization-server 200',
        'POST /v1/oauth/token 200',
      ]);
      expect(seen.at(-1)!.body).toMatchObject({ token_type: 'Bearer', expires_in: 900, scope: [...ALL_SCOPES].join(' ') });

      const signedIn = newClient();
      const from2 = seen.length;
      await signedIn.client.connect(signedIn.transport);
      const { tools } = await signedIn.client.listTools();
      expect(linesSince(seen, from2)).toEqual(['POST /mcp 200', 'POST /mcp 202', 'POST /mcp 200']);

      // Acting as the host: what her own personal token (every scope, as this grant) is listed and answered.
      const asHost = toolData((await signedIn.client.callTool({ name: 'list_bookings', arguments: {} })) as never);
      const personal = await connectHttp(given(), SECRETS.member);
      try {
        expect(tools.map((t) => t.name)).toEqual((await personal.client.listTools()).tools.map((t) => t.name));
        expect(asHost).toEqual(toolData(await personal.call('list_bookings')));
      } finally {
        await personal.close();
      }
      expect(tools.map((t) => t.name)).toContain('list_bookings');
      expect(asHost.data.length).toBeGreaterThan(0);
    });

    it('the token is bound to <given>/mcp (RFC 8707): at the other loopback name it is 401 invalid_token', async () => {
      const other = given() === origin ? localhost : origin;
      const token = provider.stored!.access_token;
      expect((await postMcp(given(), { authorization: `Bearer ${token}` })).status).toBe(200);
      expectMcpUnauthorized(
        await postMcp(other, { authorization: `Bearer ${token}` }),
        bearerChallenge({ origin: other, resource: 'mcp', sentToken: true }),
      );
    });
  });
});

describe('with PUBLIC_URL set, that is the one name: reached as localhost, /mcp is still described at PUBLIC_URL', () => {
  const publicUrl = 'https://schedule.example.test';
  let server: TestServer;

  beforeAll(async () => {
    server = await startInProcess({ workspace: writeWorkspace(oauthFixture().workspace), db: ':memory:' }, { PUBLIC_URL: publicUrl });
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('the metadata and the 401 name PUBLIC_URL, whichever loopback name the request was sent to', async () => {
    for (const at of [server.url, server.url.replace('//127.0.0.1:', '//localhost:')]) {
      const res = await api(at, '/.well-known/oauth-protected-resource/mcp', { apiServer: false });
      expect(res.body).toMatchObject({ resource: `${publicUrl}/mcp`, authorization_servers: [publicUrl] });
      expectMcpUnauthorized(await postMcp(at, {}), bearerChallenge({ origin: publicUrl, resource: 'mcp' }));
    }
  });
});

describe('bound to an address that is no loopback name, and no PUBLIC_URL', () => {
  it('the log says at start which PUBLIC_URL to set, since a client given any other URL cannot sign in', async () => {
    const server = await startMcpHttp(['--host', '0.0.0.0', '--db', ':memory:']);
    try {
      const port = new URL(server.url).port;
      await vi.waitFor(() =>
        expect(server.output().stderr).toContain(
          `PUBLIC_URL is not set, so the OAuth issuer and /mcp's resource are http://0.0.0.0:${port}: an MCP client given any other URL cannot sign in. Set PUBLIC_URL to the origin clients use, e.g. PUBLIC_URL=http://schedule.example.com:${port}.`,
        ),
      );
    } finally {
      await killServer(server);
    }
  });
});
