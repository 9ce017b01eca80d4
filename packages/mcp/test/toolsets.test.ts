import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createAuthenticator, isScheduleError, operations } from '@schedule/core';
import { listen, type RunningServer } from '@schedule/http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, DEFAULT_TOOLSETS, mcpHttpHandler, parseToolsets, TOOLSET_OF, type ToolsetName } from '../src/index.js';
import { TOKEN } from './support/mcp-workspace.js';
import { openSuite, type Suite } from './support/tool-calls.js';

// Tools come in toolsets a connection asks for (toolsets.ts): a model that
// only books is not handed the webhook and calendar-account schemas.

/** Every tool, the self-service toolsets' too. */
const EVERY = operations.map((operation) => operation.name);
/** The tools a connection that names no toolsets lists: the default four's. */
const ALL = EVERY.filter((name) => DEFAULT_TOOLSETS.includes(TOOLSET_OF[name]));
// Said apart from TOOLSET_OF, so that a tool put in the wrong toolset fails here.
const SERIES = ALL.filter((name) => name.includes('series'));
const BOOKING = ALL.filter((name) => !/series|webhook|calendar/.test(name));

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
    expect(Object.keys(TOOLSET_OF).sort()).toEqual(operations.map((operation) => operation.name).sort());
  });

  it('gives every toolset when none is asked for, booking alone for an empty list, booking beside what is named', () => {
    expect(parseToolsets(undefined)).toEqual(['booking', 'series', 'webhooks', 'calendars']);
    expect(parseToolsets('')).toEqual(['booking']);
    expect(parseToolsets(' webhooks , series ,')).toEqual(['booking', 'series', 'webhooks']);
    expect(parseToolsets('booking')).toEqual(['booking']);
    expect(parseToolsets('calendars,all')).toEqual([
      'booking',
      'series',
      'webhooks',
      'calendars',
      'event_types',
      'availability',
      'people',
      'approvals',
      'holds',
      'teams',
    ]);
  });

  it('refuses an unknown toolset with validation_error naming the parameter and the one it most likely meant', () => {
    expect(refusal('seires,webhooks')).toEqual({
      code: 'validation_error',
      message:
        'Unknown toolset: seires. Toolsets are booking, series, webhooks, calendars, event_types, availability, people, approvals, holds, teams (or all). Did you mean series (not seires)?',
      details: { fields: ['toolsets'] },
    });
    expect(refusal('Series').message).toBe(
      'Unknown toolset: Series. Toolsets are booking, series, webhooks, calendars, event_types, availability, people, approvals, holds, teams (or all). Did you mean series (not Series)?',
    );
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

  async function connected(toolsets?: readonly ToolsetName[]) {
    const principal = await suite.principal(TOKEN.uma);
    const server = buildServer(suite.world.deps, { principal: async () => principal, address: 'in-memory' }, toolsets);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'toolsets', version: '1.0.0' });
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    return client;
  }

  const namesOf = async (client: Client) => (await client.listTools()).tools.map((tool) => tool.name);

  it('lists every tool by default, and only booking and series when those are asked for', async () => {
    expect(await namesOf(await connected())).toEqual(ALL);
    expect(await namesOf(await connected(parseToolsets('all')))).toEqual(EVERY);
    const bookingAndSeries = await namesOf(await connected(['booking', 'series']));
    expect(bookingAndSeries).toEqual(ALL.filter((name) => [...BOOKING, ...SERIES].includes(name)));
    expect(bookingAndSeries).toHaveLength(11 + 9);
  });

  it('lists the working-hours and time-off tools only when availability is asked for', async () => {
    expect(await namesOf(await connected(['booking', 'availability']))).toEqual([
      ...BOOKING,
      'get_availability',
      'replace_availability',
      'add_availability_override',
      'remove_availability_override',
      'list_time_off',
      'get_time_off',
      'create_time_off',
      'update_time_off',
      'delete_time_off',
    ]);
  });

  it('lists the no-show tools only when approvals is asked for, never by default', async () => {
    const withApprovals = await namesOf(await connected(['booking', 'approvals']));
    expect(withApprovals.filter((name) => !(BOOKING as string[]).includes(name))).toEqual([
      'confirm_booking',
      'decline_booking',
      'mark_no_show',
      'clear_no_show',
    ]);
    expect(withApprovals).toHaveLength(BOOKING.length + 4);
    const byDefault = await namesOf(await connected());
    expect(byDefault).not.toContain('mark_no_show');
    expect(byDefault).not.toContain('clear_no_show');
    expect(await namesOf(await connected(parseToolsets('all')))).toEqual(expect.arrayContaining(['mark_no_show', 'clear_no_show']));
  });

  it('lists confirm_booking and decline_booking only when approvals is asked for, never by default', async () => {
    expect(await namesOf(await connected())).not.toContain('confirm_booking');
    const answer = await (await connected(['booking'])).callTool({ name: 'confirm_booking', arguments: { uid: 'x' } });
    expect(answer).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: expect.stringContaining('Tool confirm_booking not found') }],
    });
  });

  it('answers a call to a tool outside its toolsets as an unknown tool, and offers set_up_series only with the series tools', async () => {
    const client = await connected(['booking']);
    const answer = await client.callTool({ name: 'list_webhooks', arguments: {} });
    expect(answer).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: expect.stringContaining('Tool list_webhooks not found') }],
    });
    expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(['book_meeting']);
    const withSeries = await connected(['booking', 'series']);
    expect((await withSeries.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(['book_meeting', 'set_up_series']);
  });

  const listOver = (query: string) =>
    fetch(`${http.url}/mcp${query}`, {
      method: 'POST',
      headers: {
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
        authorization: `Bearer ${TOKEN.uma}`,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });

  it('over HTTP, takes the toolsets from /mcp?toolsets=, the parameter given twice as one list', async () => {
    const one = await listOver('?toolsets=webhooks&toolsets=calendars');
    expect(one.status).toBe(200);
    const names = ((await one.json()) as { result: { tools: { name: string }[] } }).result.tools.map((tool) => tool.name);
    expect(names).toEqual(ALL.filter((name) => TOOLSET_OF[name] !== 'series'));
    const none = await listOver('?toolsets=');
    expect(((await none.json()) as { result: { tools: { name: string }[] } }).result.tools.map((tool) => tool.name)).toEqual(
      ALL.filter((name) => TOOLSET_OF[name] === 'booking'),
    );
  });

  it('over HTTP, answers an unknown toolset 400 validation_error in the envelope', async () => {
    const res = await listOver('?toolsets=pager');
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: unknown }).error).toMatchObject({
      code: 'validation_error',
      message:
        'Unknown toolset: pager. Toolsets are booking, series, webhooks, calendars, event_types, availability, people, approvals, holds, teams (or all).',
      details: { fields: ['toolsets'] },
    });
  });
});
