import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { createAuthenticator, isScheduleError, operations } from '@schedule/core';
import { listen, type RunningServer } from '@schedule/http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, mcpHttpHandler, parseToolsets, TOOLSET_OF, type ToolsetName } from '../src/index.js';
import { TOKEN } from './support/mcp-workspace.js';
import { openSuite, type Suite } from './support/tool-calls.js';

// Tools come in toolsets (toolsets.ts): a connection lists `booking` and what
// it asks for, never a tool its token's scopes cannot call, and switches more
// on with the `toolsets` tool (issue 36 part 1).

/** Every tool of the registry. */
const EVERY = operations.map((operation) => operation.name);
/** The default, said apart from toolsets.ts so that a tool put in the wrong toolset fails here. */
const BOOKING = ['list_bookings', 'cancel_booking', 'reschedule_booking', 'find_times', 'book_time'];
const ESSENTIAL = ['booking', 'manage'];
const SERIES = ['list_series', 'create_series', 'preview_series'];
const NAMES =
  'booking, manage, directory, slots, holds, series, series_changes, webhooks, webhook_deliveries, calendars, event_types, event_type_create, event_type_changes, availability, time_off, people, tokens, approvals, teams';

/** What `parseToolsets` refuses, as a front end shows it. */
function refusal(asked: string) {
  try {
    parseToolsets(asked);
  } catch (error) {
    if (isScheduleError(error)) return { code: error.code, message: error.message, details: error.details };
    throw error;
  }
  throw new Error(`"${asked}" was accepted`);
}

describe('choosing toolsets', () => {
  it('puts every tool in exactly one toolset', () => {
    expect(Object.keys(TOOLSET_OF).sort()).toEqual([...EVERY].sort());
  });

  it('gives booking and manage when none is asked for or the list is empty, both beside what is named, every one for all', () => {
    expect(parseToolsets(undefined)).toEqual(ESSENTIAL);
    expect(parseToolsets('')).toEqual(ESSENTIAL);
    expect(parseToolsets(' webhooks , series ,')).toEqual([...ESSENTIAL, 'series', 'webhooks']);
    expect(parseToolsets('calendars,all')).toEqual(NAMES.split(', '));
  });

  it('refuses an unknown toolset with validation_error naming the parameter and the one it most likely meant', () => {
    expect(refusal('seires,webhooks')).toEqual({
      code: 'validation_error',
      message: `Unknown toolset: seires. Toolsets are ${NAMES} (or all). Did you mean series (not seires)?`,
      details: { fields: ['toolsets'] },
    });
  });

  it('passes over a name it no longer knows when reading a kept session (lenient), keeping the essentials', () => {
    expect(parseToolsets('series,pager', { lenient: true })).toEqual([...ESSENTIAL, 'series']);
  });
});

describe('the tools a connection lists', () => {
  let suite: Suite;
  let http: RunningServer;

  beforeAll(async () => {
    suite = await openSuite();
    const authenticate = createAuthenticator({ store: suite.world.store, clock: suite.clock });
    http = await listen(mcpHttpHandler({ ...suite.world.deps, authenticate }), { host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await http?.close();
    await suite?.world.close();
  });

  /** A client of a server built as a transport builds it: the token's scopes, the toolsets asked for. */
  async function connected(toolsets?: readonly ToolsetName[], secret: string = TOKEN.uma) {
    const principal = await suite.principal(secret);
    const server = buildServer(
      suite.world.deps,
      { principal: async () => principal, address: 'in-memory' },
      { toolsets, scopes: principal.scopes },
    );
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'toolsets', version: '1.0.0' });
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    return client;
  }

  const namesOf = async (client: Client) => (await client.listTools()).tools.map((tool) => tool.name);

  it('lists booking and the toolsets tool by default; series beside it when asked; every tool for all', async () => {
    expect(await namesOf(await connected())).toEqual([...BOOKING.filter((n) => EVERY.includes(n as never)), 'toolsets'].sort(byRegistry));
    expect(await namesOf(await connected([...ESSENTIAL, 'series'] as ToolsetName[]))).toEqual(
      [...BOOKING, ...SERIES, 'toolsets'].sort(byRegistry),
    );
    expect(await namesOf(await connected(parseToolsets('all')))).toEqual([...EVERY, 'toolsets']);
  });

  it('never lists a tool the token cannot call: bookings:read alone lists its reads and the directory, even with all', async () => {
    const few = await namesOf(await connected(parseToolsets('all'), TOKEN.umaFew));
    const callable = operations.filter((o) => o.scope === null || o.scope === 'bookings:read').map((o) => o.name);
    expect(few).toEqual([...callable, 'toolsets']);
    expect(few).toEqual([
      'list_bookings',
      'get_booking',
      'whoami',
      'list_people',
      'list_event_types',
      'get_event_type',
      'get_person',
      'toolsets',
    ]);
    // Not listed is not registered: a call by name is an unknown tool.
    const answer = await (await connected(undefined, TOKEN.umaFew)).callTool({ name: 'cancel_booking', arguments: { uid: 'x' } });
    expect(answer).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: expect.stringContaining('Tool cancel_booking not found') }],
    });
  });

  it('answers a call to a tool outside its toolsets by name (listing spares context; it is no permission)', async () => {
    const client = await connected();
    expect(await namesOf(client)).not.toContain('list_webhooks');
    const answer = await client.callTool({ name: 'list_webhooks', arguments: {} });
    expect(answer.isError).toBeUndefined();
    expect(answer.structuredContent).toMatchObject({ data: [], has_more: false });
  });

  it('offers set_up_series only with the series tools', async () => {
    expect((await (await connected()).listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(['book_meeting']);
    const withSeries = await connected([...ESSENTIAL, 'series'] as ToolsetName[]);
    expect((await withSeries.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(['book_meeting', 'set_up_series']);
  });

  it('switches a toolset on at run time: toolsets lists them, enable announces list_changed once, and the list has the new tools', async () => {
    const client = await connected();
    const announced: unknown[] = [];
    client.setNotificationHandler(ToolListChangedNotificationSchema, (notification) => {
      announced.push(notification);
    });
    const listing = await client.callTool({ name: 'toolsets', arguments: {} });
    const before = listing.structuredContent as { toolsets: { name: string; enabled: boolean; tools: string[] }[]; kept: boolean };
    expect(before.toolsets.map((t) => t.name)).toEqual(NAMES.split(', '));
    expect(before.toolsets.find((t) => t.name === 'series')).toMatchObject({ enabled: false, tools: SERIES });
    expect(announced).toEqual([]);

    const enabled = await client.callTool({ name: 'toolsets', arguments: { enable: ['series', 'time_off'] } });
    expect(enabled.content).toEqual([
      { type: 'text', text: expect.stringMatching(/^Switched on series, time_off; the tool list is updated\.\non {2}series: /) },
    ]);
    expect((enabled.structuredContent as typeof before).kept).toBe(true);
    await new Promise((resolve) => setImmediate(resolve));
    expect(announced).toEqual([{ method: 'notifications/tools/list_changed' }]);
    const names = await namesOf(client);
    expect(names).toEqual(expect.arrayContaining([...SERIES, 'create_time_off']));
    expect(names).not.toContain('list_webhooks');

    // Asking again for what is on changes nothing and announces nothing; nor does switching off the essentials.
    await client.callTool({ name: 'toolsets', arguments: { enable: ['series'], disable: ['manage'] } });
    await new Promise((resolve) => setImmediate(resolve));
    expect(announced).toHaveLength(1);
    expect(await namesOf(client)).toContain('cancel_booking');

    // Switching off spares the context again: one announcement, the answer names only what changed.
    const off = await client.callTool({ name: 'toolsets', arguments: { disable: ['series', 'time_off'] } });
    expect((off.structuredContent as typeof before).toolsets.map((t) => [t.name, t.enabled])).toEqual([
      ['series', false],
      ['time_off', false],
    ]);
    expect(off.content).toEqual([
      { type: 'text', text: expect.stringMatching(/^Switched off series, time_off; the tool list is updated\./) },
    ]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(announced).toHaveLength(2);
    expect(await namesOf(client)).toEqual([...BOOKING, 'toolsets'].sort(byRegistry));
  });

  it('refuses an unknown toolset or a stray argument of toolsets with validation_error, switching nothing on', async () => {
    const client = await connected();
    const unknown = await client.callTool({ name: 'toolsets', arguments: { enable: ['pager'] } });
    expect(unknown).toMatchObject({
      isError: true,
      structuredContent: { error: { code: 'validation_error', details: { fields: ['enable'] } } },
    });
    const stray = await client.callTool({ name: 'toolsets', arguments: { enabled: ['series'] } });
    expect(stray).toMatchObject({
      isError: true,
      structuredContent: {
        error: {
          code: 'validation_error',
          message: 'toolsets takes no arguments besides enable, disable.',
          details: { fields: ['enabled'] },
        },
      },
    });
    expect(await namesOf(client)).not.toContain('list_series');
  });

  const post = (query: string, body: unknown, headers: Record<string, string> = {}, token: string = TOKEN.uma) =>
    fetch(`${http.url}/mcp${query}`, {
      method: 'POST',
      headers: {
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
        authorization: `Bearer ${token}`,
        ...headers,
      },
      body: JSON.stringify(body),
    });
  const LIST = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
  const listedOver = async (query: string, headers: Record<string, string> = {}, token?: string) => {
    const res = await post(query, LIST, headers, token);
    expect(res.status).toBe(200);
    return ((await res.json()) as { result: { tools: { name: string }[] } }).result.tools.map((tool) => tool.name);
  };

  it('over HTTP, takes the toolsets from /mcp?toolsets=, the parameter given twice as one list', async () => {
    expect(await listedOver('?toolsets=webhooks&toolsets=calendars')).toEqual(
      [...EVERY.filter((n) => [...ESSENTIAL, 'webhooks', 'calendars'].includes(TOOLSET_OF[n])), 'toolsets'].sort(byRegistry),
    );
    expect(await listedOver('?toolsets=')).toEqual([...BOOKING, 'toolsets'].sort(byRegistry));
  });

  it('over HTTP, answers an unknown toolset 400 validation_error in the envelope', async () => {
    const res = await post('?toolsets=pager', LIST);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: unknown }).error).toMatchObject({
      code: 'validation_error',
      message: `Unknown toolset: pager. Toolsets are ${NAMES} (or all).`,
      details: { fields: ['toolsets'] },
    });
  });

  it('over HTTP, keeps switched-on toolsets in the session initialize opened, for that token only, and streams list_changed', async () => {
    const init = await post('', {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    expect(init.status).toBe(200);
    const session = init.headers.get('mcp-session-id');
    expect(session).toMatch(/^[0-9a-f-]{36}$/);
    const withSession = { 'mcp-session-id': session! };
    expect(await listedOver('', withSession)).not.toContain('list_series');

    const call = await post(
      '',
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'toolsets', arguments: { enable: ['series'] } } },
      withSession,
    );
    expect(call.status).toBe(200);
    expect(call.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = (await call.text())
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)));
    expect(events.map((e) => e.method ?? `result ${e.id}`)).toEqual(['notifications/tools/list_changed', 'result 2']);
    expect(events[1].result.structuredContent.kept).toBe(true);

    expect(await listedOver('', withSession)).toEqual(expect.arrayContaining(SERIES));
    // Another process reads the same row: a second handler over the same store.
    const authenticate = createAuthenticator({ store: suite.world.store, clock: suite.clock });
    const other = await listen(mcpHttpHandler({ ...suite.world.deps, authenticate }), { host: '127.0.0.1', port: 0 });
    try {
      const res = await fetch(`${other.url}/mcp`, {
        method: 'POST',
        headers: {
          accept: 'application/json, text/event-stream',
          'content-type': 'application/json',
          authorization: `Bearer ${TOKEN.uma}`,
          ...withSession,
        },
        body: JSON.stringify(LIST),
      });
      expect(((await res.json()) as { result: { tools: { name: string }[] } }).result.tools.map((t) => t.name)).toEqual(
        expect.arrayContaining(SERIES),
      );
    } finally {
      await other.close();
    }
    // Another token with the same session id names no session.
    expect(await listedOver('', withSession, TOKEN.umaSecond)).not.toContain('list_series');
    // Without the session, the connection is as its URL says.
    expect(await listedOver('')).not.toContain('list_series');
  });

  it('over HTTP without a session, says the toolsets were switched on for that request only, and how to keep them', async () => {
    const call = await post('', {
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'toolsets', arguments: { enable: ['series'] } },
    });
    const events = (await call.text())
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)));
    const result = events.find((e) => e.id === 3).result;
    expect(result.structuredContent.kept).toBe(false);
    expect(result.content[0].text).toMatch(
      /^Switched on series for this request only: this connection keeps no session\. Name the toolsets in the server URL instead \(\?toolsets=series\)\./,
    );
  });
});

/** Tools in the registry's order, the toolsets tool last: the order tools/list answers in. */
function byRegistry(a: string, b: string): number {
  const at = (name: string) => (name === 'toolsets' ? Number.MAX_SAFE_INTEGER : operations.findIndex((o) => o.name === name));
  return at(a) - at(b);
}
