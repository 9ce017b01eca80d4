import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, bearerChallenge, expectData, expectError, expectPage } from './support/http.js';
import { startInProcess } from './support/in-process.js';
import {
  connectHttp,
  expectMcpUnauthorized,
  expectToolError,
  type McpSession,
  postMcp,
  TOOL_NAMES,
  toolData,
} from './support/mcp-client.js';
import { killServer, startMcpHttp, stopMcpProcesses } from './support/mcp-process.js';
import {
  expectedTwinSeries,
  hostView,
  MCP_SECRETS,
  MCP_USERS,
  mcpWorkspace,
  TWIN_EVENT_TYPES,
  twinSeriesBody,
} from './support/mcp-workspace.js';
import { type TestSchema, testSchema } from './support/postgres.js';
import { postgresTables, type SeriesTables, sqliteTables } from './support/series-workspace.js';
import { type ServerProcess, startServer, type TestServer, tempDir, writeWorkspace } from './support/serve.js';

// README.md "The MCP server": Streamable HTTP at /mcp, from
// `schedule mcp --http` and from `schedule serve`, every request carrying
// its own bearer token exactly as the HTTP API does.

afterAll(stopMcpProcesses);

/**
 * The 401 checks of docs/workspace.md ("exactly as the HTTP API does") against one server. Both
 * `schedule serve` and `schedule mcp --http` run the authorization server, so the challenge names
 * /mcp's resource metadata at the origin the request was sent to.
 */
async function expectBearerRequired(url: string): Promise<void> {
  const challenge = (sentToken: boolean) => bearerChallenge({ origin: url, resource: 'mcp', sentToken });
  expectMcpUnauthorized(await postMcp(url, {}), challenge(false));
  expectMcpUnauthorized(await postMcp(url, { authorization: `Bearer ${MCP_SECRETS.unknown}` }), challenge(true));
  expectMcpUnauthorized(await postMcp(url, { authorization: `Bearer ${MCP_SECRETS.revoked}` }), challenge(true));
  expectMcpUnauthorized(
    await postMcp(url, { authorization: `Basic ${Buffer.from(`ora:${MCP_SECRETS.ora}`).toString('base64')}` }),
    challenge(true),
  );
}

describe.each([
  ['SQLite file', 'sqlite'],
  ['PostgreSQL', 'postgres'],
] as const)('schedule mcp --http on %s', (_, backend) => {
  let schema: TestSchema | undefined;
  let tables: SeriesTables;
  let server: ServerProcess;
  let ora: McpSession;
  let alder: McpSession;

  beforeAll(async () => {
    schema = backend === 'postgres' ? testSchema() : undefined;
    const file = join(tempDir('schedule-mcp-http-'), 'mcp.db');
    server = await startMcpHttp(['--workspace', writeWorkspace(mcpWorkspace()), '--db', schema?.dbUrl ?? file], {
      CONFERENCE_BASE_URL: 'https://meet.test',
    });
    tables = schema ? postgresTables(schema) : sqliteTables(file);
    ora = await connectHttp(server.url, MCP_SECRETS.ora);
    alder = await connectHttp(server.url, MCP_SECRETS.alder);
  });

  afterAll(async () => {
    await ora?.close();
    await alder?.close();
    if (server) await killServer(server);
    await schema?.drop();
  });

  it('prints one line, "listening on http://HOST:PORT", with the port it picked', () => {
    const { stdout } = server.output();
    expect(stdout).toMatch(/^[^\n]*listening on http:\/\/127\.0\.0\.1:\d+\n$/);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.url.endsWith(':0')).toBe(false);
  });

  it('lists the default tools over Streamable HTTP at /mcp', async () => {
    const { tools } = await ora.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...TOOL_NAMES]);
  });

  it('each request acts as its own bearer: whoami answers the owner for one token and alder for the other', async () => {
    expect(toolData(await ora.call('whoami'))).toMatchObject({ user_id: MCP_USERS.ora, role: 'owner', acts_for: 'organization' });
    expect(toolData(await alder.call('whoami'))).toMatchObject({
      user_id: MCP_USERS.alder,
      role: 'user',
      acts_for: [MCP_USERS.alder],
    });
  });

  it('directory visibility follows the token: the owner sees both twins and their event types, alder only herself', async () => {
    const ids = async (s: McpSession, tool: string, key: string) =>
      toolData(await s.call(tool)).data.map((item: Record<string, unknown>) => item[key]);
    expect(await ids(ora, 'list_people', 'user_id')).toEqual([MCP_USERS.alder, MCP_USERS.birch, MCP_USERS.ora]);
    expect(await ids(alder, 'list_people', 'user_id')).toEqual([MCP_USERS.alder]);
    expect(await ids(ora, 'list_event_types', 'id')).toEqual([TWIN_EVENT_TYPES.alder.id, TWIN_EVENT_TYPES.birch.id]);
    expect(await ids(alder, 'list_event_types', 'id')).toEqual([TWIN_EVENT_TYPES.alder.id]);
  });

  describe("a series the owner creates on birch's calendar", () => {
    let series: Record<string, any>;

    beforeAll(async () => {
      series = toolData(await ora.call('create_series', twinSeriesBody('birch', { time: '14:00', count: 2 }))).series;
    });

    it('create_series over HTTP stores source "mcp"', async () => {
      expect(series).toEqual(expectedTwinSeries('birch', { time: '14:00', count: 2, source: 'mcp' }));
      const rows = await tables.rows<{ source: string; host_user_id: string }>('select source, host_user_id from series where uid = $1', [
        series.uid,
      ]);
      expect(rows).toEqual([{ source: 'mcp', host_user_id: MCP_USERS.birch }]);
    });

    it('the owner lists and reads it; alder, who may not act for birch, sees an empty list and series_not_found', async () => {
      expect(toolData(await ora.call('list_series')).data.map((s: { uid: string }) => s.uid)).toEqual([series.uid]);
      expect(toolData(await ora.call('get_series', { uid: series.uid }))).toEqual(series);
      expect(toolData(await alder.call('list_series'))).toEqual({ data: [], next_cursor: null, has_more: false });
      expectToolError(await alder.call('get_series', { uid: series.uid }), 'series_not_found', { uid: series.uid });
      expect(toolData(await alder.call('list_bookings', { series_id: series.uid }))).toEqual({
        data: [],
        next_cursor: null,
        has_more: false,
      });
    });

    it('alder may not book on birch: create_series is host_not_allowed; on her own calendar it works', async () => {
      expectToolError(await alder.call('create_series', twinSeriesBody('birch', { time: '15:00', count: 1 })), 'host_not_allowed', {
        fields: ['host_user_id'],
      });
      const own = toolData(await alder.call('create_series', twinSeriesBody('alder', { time: '15:00', count: 1 })));
      expect(own.series).toEqual(expectedTwinSeries('alder', { time: '15:00', count: 1, source: 'mcp', host: hostView('alder') }));
    });
  });

  it('POST /mcp without a valid bearer token is 401 with WWW-Authenticate and the error envelope (missing, unknown, revoked, not Bearer)', async () => {
    await expectBearerRequired(server.url);
  });

  it('the SDK client with an unknown token fails to connect with HTTP 401', async () => {
    await expect(connectHttp(server.url, MCP_SECRETS.unknown)).rejects.toMatchObject({ code: 401 });
  });

  it('the endpoint is /mcp: another path is 404 not_found, even with a valid token', async () => {
    const res = await postMcp(server.url, { authorization: `Bearer ${MCP_SECRETS.ora}` }, undefined, '/v1/series');
    expect(res.status, res.text).toBe(404);
    expect(res.body?.error?.code).toBe('not_found');
  });

  it('no client error was reported while the sessions were open', () => {
    expect(ora.errors).toEqual([]);
    expect(alder.errors).toEqual([]);
  });
});

describe('schedule serve answers /mcp beside /v1 on one port and one database', () => {
  let server: TestServer;
  let ora: McpSession;

  beforeAll(async () => {
    server = await startInProcess({ workspace: writeWorkspace(mcpWorkspace()), db: ':memory:' });
    ora = await connectHttp(server.url, MCP_SECRETS.ora);
  });

  afterAll(async () => {
    await ora?.close();
    await server?.stop();
  });

  it('/mcp lists the default tools and answers whoami (called by name) for the bearer', async () => {
    expect((await ora.client.listTools()).tools.map((t) => t.name).sort()).toEqual([...TOOL_NAMES]);
    expect(toolData(await ora.call('whoami'))).toMatchObject({ user_id: MCP_USERS.ora });
  });

  it('/mcp without a valid bearer token is 401 exactly like the API', async () => {
    await expectBearerRequired(server.url);
  });

  it('reached as localhost, /mcp is a resource there too: its 401 and its metadata name http://localhost:PORT/mcp', async () => {
    const localhost = server.url.replace('//127.0.0.1:', '//localhost:');
    await expectBearerRequired(localhost);
    const metadata = await api(localhost, '/.well-known/oauth-protected-resource/mcp', { apiServer: false });
    expect(metadata.status).toBe(200);
    expect(metadata.body).toMatchObject({ resource: `${localhost}/mcp`, authorization_servers: [server.url] });
  });

  it('/v1 still works on the same port, and reads what /mcp wrote (source "mcp")', async () => {
    const created = toolData(await ora.call('create_series', twinSeriesBody('alder', { count: 1, time: '16:00' })));
    const read = expectData(await api(server.url, `/v1/series/${created.series.uid}`, { token: MCP_SECRETS.ora }));
    expect(read).toEqual(created.series);
    expect(read.source).toBe('mcp');
    expect(expectPage(await api(server.url, '/v1/series', { token: MCP_SECRETS.ora })).items.map((s) => s.uid)).toEqual([
      created.series.uid,
    ]);
    expectError(await api(server.url, '/v1/series'), 401, 'unauthorized', {});
  });
});

describe.concurrent('SIGTERM with a Streamable HTTP client still connected', () => {
  // docs/workspace.md "Loading": SIGTERM stops accepting, finishes in-flight requests and exits 0.
  // The SDK client keeps a GET /mcp stream open once connected; that must not hold the process.
  const started: ServerProcess[] = [];
  afterAll(async () => {
    await Promise.all(started.map(killServer));
  });

  it.each([
    ['schedule mcp --http', () => startMcpHttp(['--workspace', writeWorkspace(mcpWorkspace()), '--db', ':memory:'])],
    ['schedule serve', () => startServer(['--workspace', writeWorkspace(mcpWorkspace()), '--db', ':memory:'])],
  ])('%s exits 0', { timeout: 4_000 }, async (_, start) => {
    const server = await start();
    started.push(server);
    const session = await connectHttp(server.url, MCP_SECRETS.ora);
    toolData(await session.call('whoami'));
    expect(await server.stop()).toBe(0);
    await session.close();
  });
});
