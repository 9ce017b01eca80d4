import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TIMESTAMP } from './support/booking-view.js';
import { connectStdio, expectToolError, type StdioSession, TOOL_NAMES, toolData } from './support/mcp-client.js';
import { runMcpToExit, stopMcpProcesses } from './support/mcp-process.js';
import {
  BLOCKERS,
  EVENT_NAME,
  endOf,
  expectedTwinBooking,
  expectedTwinSeries,
  hostView,
  MCP_SECRETS,
  MCP_USERS,
  mcpWorkspace,
  TWIN_EVENT_TYPES,
  TWIN_NAME,
  twinBookingBody,
  twinSeriesBody,
} from './support/mcp-workspace.js';
import { dateAt, tokyoAt } from './support/series-workspace.js';
import { tempDir, writeWorkspace } from './support/serve.js';
import { ALL_SCOPES } from './support/workspace.js';

// README.md "The MCP server": `schedule mcp` on stdio, acting as the
// token in SCHEDULE_TOKEN, driven by the SDK's StdioClientTransport.

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const WHOAMI_ORA = {
  user_id: MCP_USERS.ora,
  username: 'ora',
  name: 'Ora Owner',
  email: 'ora@mcp.test',
  timezone: 'Asia/Tokyo',
  role: 'owner',
  credential: 'pat',
  scopes: [...ALL_SCOPES].sort(),
  acts_for: 'organization',
};
/** Tuesday of week 0 at 11:00 Tokyo: free for both twins. */
const TUESDAY_11 = tokyoAt(1, '11:00');

afterAll(stopMcpProcesses);

/** A JSON-RPC message as one line of a raw stdio stream. */
const line = (message: unknown) => `${JSON.stringify(message)}\n`;
/** The lines that open a raw session: initialize, then initialized. */
const OPENING = [
  line({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  }),
  line({ jsonrpc: '2.0', method: 'notifications/initialized' }),
];

describe('schedule mcp on stdio, acting as SCHEDULE_TOKEN', () => {
  let workspace: string;
  let s: StdioSession;

  beforeAll(async () => {
    workspace = writeWorkspace(mcpWorkspace());
    const db = join(tempDir('schedule-mcp-'), 'mcp.db');
    // Info logs and a mail pass every 50 ms, so log lines are written while the session runs.
    s = await connectStdio(['--workspace', workspace, '--db', db], MCP_SECRETS.ora, {
      LOG_LEVEL: 'info',
      MAIL_DISPATCH_MS: '50',
      CONFERENCE_BASE_URL: 'https://meet.test',
    });
  });

  afterAll(async () => {
    await s?.close();
  });

  it('lists the default tools (booking, manage, toolsets), each with a title, description, input and output schema', async () => {
    const { tools } = await s.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...TOOL_NAMES]);
    for (const tool of tools) {
      expect(tool.title, tool.name).toEqual(expect.any(String));
      expect(tool.description!.length, tool.name).toBeGreaterThan(20);
      expect(tool.inputSchema.type, tool.name).toBe('object');
      expect(tool.outputSchema, tool.name).toBeTypeOf('object');
    }
  });

  it('annotations: list_bookings read-only, cancel_booking destructive, none open-world; every toolset on offer with toolsets', async () => {
    const { tools } = await s.client.listTools();
    expect(tools.filter((t) => t.annotations?.readOnlyHint === true).map((t) => t.name)).toEqual(['list_bookings']);
    expect(tools.filter((t) => t.annotations?.destructiveHint === true).map((t) => t.name)).toEqual(['cancel_booking']);
    expect(tools.filter((t) => t.annotations?.openWorldHint !== false).map((t) => t.name)).toEqual([]);
    const offered = toolData(await s.call('toolsets'));
    expect(offered.toolsets.map((t: { name: string }) => t.name)).toContain('series');
  });

  it('whoami answers the token user, its scopes and who it may act for', async () => {
    expect(toolData(await s.call('whoami'))).toEqual(WHOAMI_ORA);
  });

  it('list_event_types answers one page of the event types the token can book, with their ids', async () => {
    const twin = (name: 'alder' | 'birch') => ({
      id: TWIN_EVENT_TYPES[name].id,
      slug: TWIN_EVENT_TYPES[name].slug,
      name: EVENT_NAME,
      owner: { user_id: MCP_USERS[name], username: name },
      duration_minutes: 30,
      status: 'on',
      recurring: 'on',
      allow_reschedule: true,
      minimum_notice_minutes: 0,
      cancel_notice_minutes: 0,
      reschedule_notice_minutes: 0,
      future_limit_days: 400,
      timezone: 'Asia/Tokyo',
      questions: [{ id: 'topic', label: 'Topic', type: 'text', required: false }],
      // `schedule mcp` on stdio serves no booking pages, and this one has no PUBLIC_URL naming a server that does.
      booking_url: null,
    });
    expect(toolData(await s.call('list_event_types'))).toEqual({
      data: [twin('alder'), twin('birch')],
      next_cursor: null,
      has_more: false,
    });
  });

  it('check_slot of a free time: available, with the duration', async () => {
    const data = toolData(await s.call('check_slot', { event_type_id: TWIN_EVENT_TYPES.alder.id, start: TUESDAY_11 }));
    expect(data).toEqual({ available: true, duration_minutes: 30 });
  });

  describe('writes', () => {
    let booking: Record<string, any>;
    let created: { series: Record<string, any>; occurrences: Record<string, any>[]; skipped: unknown[] };

    beforeAll(async () => {
      booking = toolData(await s.call('create_booking', twinBookingBody('alder', TUESDAY_11)));
      created = toolData(await s.call('create_series', twinSeriesBody('birch')));
    });

    it('create_booking answers exactly the booking POST /v1/bookings would (version 1, responses populated)', async () => {
      expect(booking).toEqual(expectedTwinBooking('alder', TUESDAY_11));
      expect(booking.uid).toMatch(UUID_RE);
      expect(booking.location.url).toBe(`https://meet.test/${booking.uid}`);
      expect(booking.updated_at).toBe(booking.created_at);
      // What was stored is what was answered.
      expect(toolData(await s.call('get_booking', { uid: booking.uid }))).toEqual(booking);
    });

    it('check_slot of the booked time: slot_busy, and the next free slot right after it', async () => {
      const data = toolData(await s.call('check_slot', { event_type_id: TWIN_EVENT_TYPES.alder.id, start: TUESDAY_11 }));
      expect(data).toEqual({ available: false, reason: 'slot_busy', next_available: endOf(TUESDAY_11) });
    });

    it('create_series: the series with source "mcp", the free dates in order, the busy Thursday skipped, not shifted', () => {
      expect(created.series).toEqual(expectedTwinSeries('birch', { source: 'mcp' }));
      expect(created.series.uid).toMatch(UUID_RE);
      expect(created.occurrences).toEqual(
        [0, 7, 10].map((d) => ({
          uid: expect.stringMatching(UUID_RE),
          start_at: tokyoAt(d, '10:00'),
          end_at: endOf(tokyoAt(d, '10:00')),
          status: 'confirmed',
        })),
      );
      expect(created.skipped).toEqual([{ date: dateAt(3), start_at: tokyoAt(3, '10:00'), reason: 'conflict', cause: 'busy' }]);
    });

    it('get_series reads the stored series: source "mcp", version 1', async () => {
      expect(toolData(await s.call('get_series', { uid: created.series.uid }))).toEqual(created.series);
    });

    it('list_bookings with series_id: exactly the occurrences as bookings, and a text line per item', async () => {
      const result = await s.call('list_bookings', { series_id: created.series.uid, sort: 'start_at_asc' });
      const page = toolData(result);
      expect(page).toEqual({
        data: created.occurrences.map((o) => ({
          uid: o.uid,
          version: 1,
          event_type_id: TWIN_EVENT_TYPES.birch.id,
          event_type_slug: TWIN_EVENT_TYPES.birch.slug,
          title: `${EVENT_NAME} between ${TWIN_NAME} and Pat Lee`,
          status: 'confirmed',
          start_at: o.start_at,
          end_at: o.end_at,
          timezone: 'Asia/Tokyo',
          host: hostView('birch'),
          hosts: [hostView('birch')],
          attendees: [{ email: 'pat@example.com', name: 'Pat Lee', timezone: 'Asia/Tokyo' }],
          guests: [],
          location: { type: 'conference', url: `https://meet.test/${o.uid}`, value: null },
          metadata: {},
          responses: null,
          calendar_sync_status: 'not_applicable',
          calendar_event_id: expect.any(String),
          rescheduled_from_uid: null,
          cancelled_at: null,
          cancellation_reason: null,
          no_show_at: null,
          no_show_reason: null,
          created_at: expect.stringMatching(TIMESTAMP),
          updated_at: expect.stringMatching(TIMESTAMP),
        })),
        next_cursor: null,
        has_more: false,
      });
      const lines = result.content[0]!.text!.split('\n');
      expect(lines[0]).toMatch(/^3 item\(s\); no more pages/);
      expect(lines.slice(1).map((l) => l.split(' ')[0])).toEqual(created.occurrences.map((o) => o.uid));
    });

    it('list_bookings pages like GET /v1/bookings: limit and next_cursor, then the rest', async () => {
      const first = toolData(await s.call('list_bookings', { series_id: created.series.uid, sort: 'start_at_asc', limit: 2 }));
      expect(first.data.map((b: { uid: string }) => b.uid)).toEqual(created.occurrences.slice(0, 2).map((o) => o.uid));
      expect(first).toMatchObject({ has_more: true, next_cursor: expect.any(String) });
      const rest = toolData(
        await s.call('list_bookings', { series_id: created.series.uid, sort: 'start_at_asc', limit: 2, cursor: first.next_cursor }),
      );
      expect(rest.data.map((b: { uid: string }) => b.uid)).toEqual([created.occurrences[2]!.uid]);
      expect(rest).toMatchObject({ has_more: false, next_cursor: null });
    });
  });

  it('a failed call is isError with structuredContent.error, the API code and details: get_series of an unknown uid', async () => {
    const uid = 'a6ffffff-0000-4000-8000-000000000000';
    expectToolError(await s.call('get_series', { uid }), 'series_not_found', { uid }, 'No series with this uid.');
  });

  it('a body core rejects answers the API code, not an SDK validation error: count 0 is count_out_of_range', async () => {
    expectToolError(await s.call('create_series', twinSeriesBody('alder', { count: 0 })), 'count_out_of_range', {
      fields: ['count'],
      min: 1,
      max: 42,
    });
  });

  it('a booking on a taken slot is slot_unavailable, exactly as POST /v1/bookings answers it', async () => {
    const start = tokyoAt(3, '10:00');
    // The imported blocker holds alder's Thursday 10:00.
    expect(BLOCKERS.alder).toMatch(UUID_RE);
    expectToolError(await s.call('create_booking', twinBookingBody('alder', start)), 'slot_unavailable', { reason: 'slot_busy' });
  });

  it('the resource schedule://me is whoami as JSON', async () => {
    const { contents } = await s.client.readResource({ uri: 'schedule://me' });
    expect(contents).toEqual([{ uri: 'schedule://me', mimeType: 'application/json', text: expect.any(String) }]);
    expect(JSON.parse((contents[0] as { text: string }).text)).toEqual(WHOAMI_ORA);
  });

  it('stdout carries only the protocol: the mail log line goes to stderr, and the client never read a bad line', async () => {
    // The series created above queued its confirmation; the dispatcher logs each mail it sends
    // (the bookings made above queued theirs too, so the series' line is picked out by its kind).
    const line = await s.stderrLine((l) => l.includes('"msg":"mail"') && l.includes('"kind":"series_confirmation"'));
    expect(JSON.parse(line)).toMatchObject({ kind: 'series_confirmation', to: 'pat@example.com' });
    // Calls after the log line still parse, and the client's onerror (which a non-JSON-RPC line fires) never fired.
    expect(toolData(await s.call('whoami'))).toEqual(WHOAMI_ORA);
    expect(s.errors).toEqual([]);
  });
});

describe('schedule mcp on stdio: the raw stream and its end', () => {
  it('every stdout line is a JSON-RPC message, and closing stdin ends the server with exit 0', async () => {
    const input = [...OPENING, line({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'whoami', arguments: {} } })].join('');
    const run = await runMcpToExit(
      ['--workspace', writeWorkspace(mcpWorkspace()), '--db', ':memory:'],
      {
        SCHEDULE_TOKEN: MCP_SECRETS.ora,
        LOG_LEVEL: 'debug',
      },
      input,
    );
    expect(run.code).toBe(0);
    const messages = run.stdout
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l));
    expect(run.stdout.endsWith('\n')).toBe(true);
    expect(messages.map((m) => [m.jsonrpc, m.id])).toEqual([
      ['2.0', 1],
      ['2.0', 2],
    ]);
    expect(messages[1].result.structuredContent).toEqual(WHOAMI_ORA);
  });
});

describe('schedule mcp on stdio refuses to start without a usable token', () => {
  const args = () => ['--workspace', writeWorkspace(mcpWorkspace()), '--db', ':memory:'];

  it('without SCHEDULE_TOKEN: exit 2, a message naming SCHEDULE_TOKEN on stderr, nothing on stdout', async () => {
    const run = await runMcpToExit(args(), { SCHEDULE_TOKEN: undefined });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^error usage: .*SCHEDULE_TOKEN.*\n$/);
  });

  it('an empty SCHEDULE_TOKEN counts as missing: exit 2', async () => {
    const run = await runMcpToExit(args(), { SCHEDULE_TOKEN: '' });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/SCHEDULE_TOKEN/);
  });

  it.each([
    ['unknown', MCP_SECRETS.unknown],
    ['revoked', MCP_SECRETS.revoked],
  ])('a SCHEDULE_TOKEN that is %s: exit 2, the reason on stderr, nothing on stdout', async (_, secret) => {
    const run = await runMcpToExit(args(), { SCHEDULE_TOKEN: secret });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^error usage: SCHEDULE_TOKEN .*\n$/m);
  });
});

describe('schedule mcp --toolsets', () => {
  const args = (...more: string[]) => ['--workspace', writeWorkspace(mcpWorkspace()), '--db', ':memory:', ...more];

  it('offers the booking tools and the toolsets named, and nothing else', async () => {
    const input = [...OPENING, line({ jsonrpc: '2.0', id: 2, method: 'tools/list' })].join('');
    const run = await runMcpToExit(args('--toolsets', 'series'), { SCHEDULE_TOKEN: MCP_SECRETS.ora }, input);
    expect(run.code).toBe(0);
    const listed = run.stdout
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l))
      .find((message) => message.id === 2);
    const names: string[] = listed.result.tools.map((tool: { name: string }) => tool.name);
    expect(names.sort()).toEqual([...TOOL_NAMES, 'create_series', 'list_series', 'preview_series'].sort());
  });

  it('refuses an unknown toolset with exit 2, naming the one it most likely meant', async () => {
    const unknown = await runMcpToExit(args('--toolsets', 'seires'), { SCHEDULE_TOKEN: MCP_SECRETS.ora });
    expect({ code: unknown.code, stdout: unknown.stdout, stderr: unknown.stderr }).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'error usage: --toolsets: Unknown toolset: seires. Toolsets are booking, manage, directory, slots, holds, series, series_changes, webhooks, webhook_deliveries, calendars, event_types, event_type_create, event_type_changes, availability, time_off, people, tokens, approvals, teams (or all). Did you mean series (not seires)?\n',
    });
  });

  it('refuses the flag over --http, where each client asks in its URL, with exit 2', async () => {
    const overHttp = await runMcpToExit(args('--http', '--toolsets', 'series'), {});
    expect({ code: overHttp.code, stderr: overHttp.stderr }).toEqual({
      code: 2,
      stderr: 'error usage: --toolsets is for stdio; over --http a client asks with /mcp?toolsets=series,webhooks.\n',
    });
  });
});
