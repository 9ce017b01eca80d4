import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiResponse, api, expectData, expectError, expectPage } from './support/http.js';
import { startInProcess } from './support/in-process.js';
import { connectHttp, expectToolError, type McpSession, toolData } from './support/mcp-client.js';
import { normalizerFor, storedBooking, storedSeries } from './support/mcp-compare.js';
import {
  BLOCKERS,
  MCP_SECRETS,
  MCP_USERS,
  mcpWorkspace,
  TWIN_EVENT_TYPES,
  twinBookingBody,
  twinSeriesBody,
} from './support/mcp-workspace.js';
import { type SeriesTables, sqliteTables, tokyoAt } from './support/series-workspace.js';
import { type TestServer, tempDir, writeWorkspace } from './support/serve.js';

// Issue 5: "One test that makes the same change over HTTP and over MCP and
// compares the stored results (only `source` differs for series)". One
// `schedule serve` answers /v1 and /mcp on one database; each change is made
// on alder over HTTP and on her twin birch over MCP (same settings, same
// busy time), and everything read back and stored is compared.

const ORA = MCP_SECRETS.ora;
/** Tuesday of week 0 at 11:00 Tokyo: free for both twins. */
const TUESDAY_11 = tokyoAt(1, '11:00');

let server: TestServer;
let mcp: McpSession;
let tables: SeriesTables;

beforeAll(async () => {
  const file = join(tempDir('schedule-mcp-vs-http-'), 'both.db');
  server = await startInProcess(
    { workspace: writeWorkspace(mcpWorkspace()), db: file },
    {
      CONFERENCE_BASE_URL: 'https://meet.test',
      // No mail is sent while the test runs, so notifications stay as the change stored them.
      MAIL_DISPATCH_MS: '3600000',
      // Nor are events fanned out to webhooks, so outbox rows stay as the change stored them.
      WEBHOOK_DELIVERY: '0',
    },
  );
  tables = sqliteTables(file);
  mcp = await connectHttp(server.url, ORA);
});

afterAll(async () => {
  await mcp?.close();
  await server?.stop();
});

/** One HTTP request as ORA; writes get a fresh Idempotency-Key. */
function http(method: string, path: string, json?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse> {
  const key: Record<string, string> = method === 'GET' ? {} : { 'idempotency-key': randomUUID() };
  return api(server.url, path, { method, token: ORA, headers: { ...key, ...headers }, ...(json === undefined ? {} : { json }) });
}

/**
 * The HTTP value (alder) and the MCP value (birch) are equal once each
 * twin's own ids, fresh uids and write times are normalized, and every
 * `source` in them is "api" over HTTP and "mcp" over MCP.
 */
function expectSameExceptSource(viaHttp: unknown, viaMcp: unknown, sources: 'none' | 'some'): void {
  const a = normalizerFor('alder');
  const b = normalizerFor('birch');
  expect(b.normalize(viaMcp)).toEqual(a.normalize(viaHttp));
  expect(b.sources.length).toBe(a.sources.length);
  expect(a.sources.every((s) => s === 'api')).toBe(true);
  expect(b.sources.every((s) => s === 'mcp')).toBe(true);
  if (sources === 'none') expect(a.sources).toEqual([]);
  else expect(a.sources.length).toBeGreaterThan(0);
}

describe('the same series over HTTP (POST /v1/series) and over MCP (create_series)', () => {
  let viaHttp: { series: Record<string, any>; occurrences: Record<string, any>[]; skipped: unknown[] };
  let viaMcp: typeof viaHttp;

  /**
   * What the API shows of a series now: GET /v1/series/:uid and its bookings.
   * A held occurrence and its replacement share a start, and the API breaks
   * that tie by the random uid; the status orders them alike on both sides.
   */
  const read = async (uid: string) => ({
    series: expectData(await http('GET', `/v1/series/${uid}`)),
    bookings: expectPage(await http('GET', `/v1/bookings?series_id=${uid}&sort=start_at_asc&limit=100`)).items.sort(
      (x: { start_at: string; status: string }, y: { start_at: string; status: string }) =>
        x.start_at.localeCompare(y.start_at) || x.status.localeCompare(y.status),
    ),
  });

  let previewHttp: { timezone: string; occurrences: Record<string, string>[]; skipped: unknown[] };
  let previewMcp: typeof previewHttp;

  beforeAll(async () => {
    // Issue 29 item 2: each twin's preview first, with nothing in between it and the create.
    previewHttp = expectData(await http('POST', '/v1/series/preview', twinSeriesBody('alder')), 200);
    previewMcp = toolData(await mcp.call('preview_series', twinSeriesBody('birch')));
    viaHttp = expectData(await http('POST', '/v1/series', twinSeriesBody('alder')), 201);
    viaMcp = toolData(await mcp.call('create_series', twinSeriesBody('birch')));
  });

  it('POST /v1/series/preview and preview_series answer the same, and each create booked and skipped exactly what it previewed', () => {
    expectSameExceptSource(previewHttp, previewMcp, 'none');
    for (const [preview, created] of [
      [previewHttp, viaHttp],
      [previewMcp, viaMcp],
    ] as const) {
      expect(created.occurrences.map((o) => [o.start_at, o.end_at])).toEqual(preview.occurrences.map((o) => [o.start_at, o.end_at]));
      expect(created.skipped).toEqual(preview.skipped);
      expect(created.series.timezone).toBe(preview.timezone);
    }
  });

  it('both answer the series, three occurrences and the busy Thursday skipped; only source differs ("api" vs "mcp")', () => {
    expect([viaHttp.series.source, viaMcp.series.source]).toEqual(['api', 'mcp']);
    expect([viaHttp.occurrences.length, viaMcp.occurrences.length]).toEqual([3, 3]);
    expect([viaHttp.skipped.length, viaMcp.skipped.length]).toEqual([1, 1]);
    expectSameExceptSource(viaHttp, viaMcp, 'some');
  });

  it('GET /v1/series/:uid and GET /v1/bookings?series_id read back the same; get_series answers what GET answers', async () => {
    const [a, b] = [await read(viaHttp.series.uid), await read(viaMcp.series.uid)];
    expect(a.series).toEqual(viaHttp.series);
    expect(b.series).toEqual(viaMcp.series);
    expectSameExceptSource(a, b, 'some');
    expect(toolData(await mcp.call('get_series', { uid: viaHttp.series.uid }))).toEqual(a.series);
  });

  it('stores the same rows: series, bookings, owed entries, notifications, outbox events; only source differs', async () => {
    const [a, b] = [await storedSeries(tables, viaHttp.series.uid), await storedSeries(tables, viaMcp.series.uid)];
    expect((a.series as { source: string }[]).map((s) => s.source)).toEqual(['api']);
    expect((b.series as { source: string }[]).map((s) => s.source)).toEqual(['mcp']);
    expect([(a.bookings as unknown[]).length, (a.notifications as unknown[]).length]).toEqual([3, 1]);
    expectSameExceptSource(a, b, 'some');
  });

  it('pause over HTTP and pause_series over MCP hold the same: {held: 3}, and the same stored statuses and owed entries', async () => {
    const a = expectData(await http('POST', `/v1/series/${viaHttp.series.uid}/pause`));
    const b = toolData(await mcp.call('pause_series', { uid: viaMcp.series.uid }));
    expect(a).toEqual({ held: 3, superseded: false });
    expect(b).toEqual(a);
    const [storedA, storedB] = [await storedSeries(tables, viaHttp.series.uid), await storedSeries(tables, viaMcp.series.uid)];
    expect((storedB.series as { status: string; version: number }[]).map((s) => [s.status, s.version])).toEqual([['paused', 2]]);
    expect((storedB.bookings as { status: string }[]).map((x) => x.status)).toEqual(['canceled', 'canceled', 'canceled']);
    expect(storedB.owed).toHaveLength(3);
    expectSameExceptSource(
      { read: await read(viaHttp.series.uid), stored: storedA },
      { read: await read(viaMcp.series.uid), stored: storedB },
      'some',
    );
  });

  it('resume with If-Match "2" over HTTP and resume_series with if_match 2 over MCP book the same replacements', async () => {
    const a = expectData(await http('POST', `/v1/series/${viaHttp.series.uid}/resume`, undefined, { 'if-match': '"2"' }));
    const b = toolData(await mcp.call('resume_series', { uid: viaMcp.series.uid, if_match: 2 }));
    expect(a).toEqual({ created: 3, skipped: [], owed: 0, superseded: false });
    expect(b).toEqual(a);
    expectSameExceptSource(
      { read: await read(viaHttp.series.uid), stored: await storedSeries(tables, viaHttp.series.uid) },
      { read: await read(viaMcp.series.uid), stored: await storedSeries(tables, viaMcp.series.uid) },
      'some',
    );
  });
});

describe('the same booking over HTTP (POST /v1/bookings) and over MCP (create_booking)', () => {
  let viaHttp: Record<string, any>;
  let viaMcp: Record<string, any>;

  beforeAll(async () => {
    viaHttp = expectData(await http('POST', '/v1/bookings', twinBookingBody('alder', TUESDAY_11)), 201);
    viaMcp = toolData(await mcp.call('create_booking', twinBookingBody('birch', TUESDAY_11)));
  });

  it('answers, reads back (GET /v1/bookings/:uid) and stores the same booking and booking.created event', async () => {
    expect([viaHttp.event_type_id, viaMcp.event_type_id]).toEqual([TWIN_EVENT_TYPES.alder.id, TWIN_EVENT_TYPES.birch.id]);
    const whole = async (booking: Record<string, any>) => ({
      answer: booking,
      read: expectData(await http('GET', `/v1/bookings/${booking.uid}`)),
      stored: await storedBooking(tables, booking.uid),
    });
    const [a, b] = [await whole(viaHttp), await whole(viaMcp)];
    expect(a.read).toEqual(viaHttp);
    expect((a.stored.events as { event_type: string }[]).map((e) => e.event_type)).toEqual(['booking.created']);
    expectSameExceptSource(a, b, 'none');
  });

  it('a cancel with a reason over HTTP and cancel_booking over MCP store the same canceled booking', async () => {
    const reason = 'Moved to next quarter';
    const a = expectData(await http('POST', `/v1/bookings/${viaHttp.uid}/cancel`, { reason }));
    const b = toolData(await mcp.call('cancel_booking', { uid: viaMcp.uid, reason, confirm: true }));
    expect([a.status, a.version, a.cancellation_reason]).toEqual(['canceled', 2, reason]);
    expectSameExceptSource(
      { answer: a, stored: await storedBooking(tables, viaHttp.uid) },
      { answer: b, stored: await storedBooking(tables, viaMcp.uid) },
      'none',
    );
  });
});

describe('the same find_times and book_time over HTTP (POST /v1/times/*) and over MCP', () => {
  it('find the same options in both zones, held alike, and book the first into the same stored booking', async () => {
    const search = (twin: 'alder' | 'birch') => ({
      host: twin,
      event_type: TWIN_EVENT_TYPES[twin].slug,
      attendee_timezone: 'America/New_York',
      from: TUESDAY_11.slice(0, 10),
      count: 2,
    });
    const foundHttp = expectData(await http('POST', '/v1/times/find', search('alder')));
    const foundMcp = toolData(await mcp.call('find_times', search('birch')));
    expect(foundHttp.options).toHaveLength(2);
    expect(foundHttp.not_held_reason).toBeNull();
    // Held at each request's own instant (a real clock): one instant for every option of a search.
    const withoutExpiry = (found: { options: { held_until: string }[] }) => {
      expect(new Set(found.options.map((o) => o.held_until)).size).toBe(1);
      return { ...found, options: found.options.map(({ held_until: _, ...option }) => option) };
    };
    expectSameExceptSource(withoutExpiry(foundHttp), withoutExpiry(foundMcp), 'none');

    const attendee = { email: 'kim@example.com', name: 'Kim', timezone: 'America/New_York' };
    const bookedHttp = expectData(await http('POST', '/v1/times/book', { option_id: foundHttp.options[0].option_id, attendee }), 201);
    const bookedMcp = toolData(await mcp.call('book_time', { option_id: foundMcp.options[0].option_id, attendee }));
    expect(bookedHttp.warnings).toEqual([]);
    expectSameExceptSource(
      { answer: bookedHttp, stored: await storedBooking(tables, bookedHttp.uid) },
      { answer: bookedMcp, stored: await storedBooking(tables, bookedMcp.uid) },
      'none',
    );
  });
});

describe('the same invalid call over HTTP and over MCP answers the same code and details', () => {
  /** A series of alder's at 15:00 that the failing calls aim at (they change nothing, so it stays at version 1). */
  let target: string;

  beforeAll(async () => {
    target = expectData(await http('POST', '/v1/series', twinSeriesBody('alder', { time: '15:00', count: 1 })), 201).series.uid;
  });

  const withoutKeys = (body: Record<string, unknown>, ...keys: string[]) =>
    Object.fromEntries(Object.entries(body).filter(([k]) => !keys.includes(k)));

  const cases: {
    rule: string;
    status: number;
    code: string;
    http: () => Promise<ApiResponse>;
    tool: () => [string, Record<string, unknown>];
  }[] = [
    {
      rule: 'find_times for a host nobody is',
      status: 404,
      code: 'person_not_found',
      http: () => http('POST', '/v1/times/find', { host: 'nobody' }),
      tool: () => ['find_times', { host: 'nobody' }],
    },
    {
      rule: 'find_times for a window that ends before it begins',
      status: 400,
      code: 'validation_error',
      http: () => http('POST', '/v1/times/find', { host: 'alder', from: '2026-12-09', to: '2026-12-08' }),
      tool: () => ['find_times', { host: 'alder', from: '2026-12-09', to: '2026-12-08' }],
    },
    {
      rule: 'book_time with an option id that is none',
      status: 400,
      code: 'validation_error',
      http: () => http('POST', '/v1/times/book', { option_id: 'the first', attendee: { email: 'kim@example.com' } }),
      tool: () => ['book_time', { option_id: 'the first', attendee: { email: 'kim@example.com' } }],
    },
    {
      rule: 'book_time with a hold nobody has',
      status: 404,
      code: 'hold_not_found',
      http: () =>
        http('POST', '/v1/times/book', { option_id: '9d6b1c2e-0000-4000-8000-000000000000', attendee: { email: 'kim@example.com' } }),
      tool: () => ['book_time', { option_id: '9d6b1c2e-0000-4000-8000-000000000000', attendee: { email: 'kim@example.com' } }],
    },
    {
      rule: 'series count above 42',
      status: 422,
      code: 'count_out_of_range',
      http: () => http('POST', '/v1/series', twinSeriesBody('alder', { count: 43 })),
      tool: () => ['create_series', twinSeriesBody('alder', { count: 43 })],
    },
    {
      rule: 'series attendee email malformed',
      status: 400,
      code: 'attendee_email_invalid',
      http: () => http('POST', '/v1/series', twinSeriesBody('alder', { attendee: { email: 'not-an-email' } })),
      tool: () => ['create_series', twinSeriesBody('alder', { attendee: { email: 'not-an-email' } })],
    },
    {
      rule: 'series without frequency and time',
      status: 400,
      code: 'validation_error',
      http: () => http('POST', '/v1/series', withoutKeys(twinSeriesBody('alder'), 'frequency', 'time')),
      tool: () => ['create_series', withoutKeys(twinSeriesBody('alder'), 'frequency', 'time')],
    },
    {
      rule: 'series weekdays repeated',
      status: 400,
      code: 'validation_error',
      http: () => http('POST', '/v1/series', twinSeriesBody('alder', { weekdays: ['mon', 'mon'] })),
      tool: () => ['create_series', twinSeriesBody('alder', { weekdays: ['mon', 'mon'] })],
    },
    {
      rule: 'series on an unknown event type',
      status: 404,
      code: 'event_type_not_found',
      http: () => http('POST', '/v1/series', twinSeriesBody('alder', { event_type_id: 'a6e00000-0000-4000-8000-00000000ffff' })),
      tool: () => ['create_series', twinSeriesBody('alder', { event_type_id: 'a6e00000-0000-4000-8000-00000000ffff' })],
    },
    {
      rule: 'booking without start',
      status: 400,
      code: 'validation_error',
      http: () => http('POST', '/v1/bookings', withoutKeys(twinBookingBody('alder', TUESDAY_11), 'start')),
      tool: () => ['create_booking', withoutKeys(twinBookingBody('alder', TUESDAY_11), 'start')],
    },
    {
      rule: 'booking in the past',
      status: 409,
      code: 'slot_in_past',
      http: () => http('POST', '/v1/bookings', twinBookingBody('alder', '2020-01-06T01:00:00.000Z')),
      tool: () => ['create_booking', twinBookingBody('alder', '2020-01-06T01:00:00.000Z')],
    },
    {
      rule: 'series PATCH of count',
      status: 422,
      code: 'invalid_change',
      http: () => http('PATCH', `/v1/series/${target}`, { count: 3 }, { 'if-match': '"1"' }),
      tool: () => ['update_series', { uid: target, count: 3, if_match: 1 }],
    },
    {
      rule: 'series PATCH without If-Match',
      status: 428,
      code: 'missing_if_match',
      http: () => http('PATCH', `/v1/series/${target}`, { time: '16:00' }),
      tool: () => ['update_series', { uid: target, time: '16:00' }],
    },
    {
      rule: 'series PATCH with a stale If-Match',
      status: 409,
      code: 'version_conflict',
      http: () => http('PATCH', `/v1/series/${target}`, { time: '16:00' }, { 'if-match': '"7"' }),
      tool: () => ['update_series', { uid: target, time: '16:00', if_match: 7 }],
    },
    {
      rule: 'resume with an If-Match that is no revision',
      status: 400,
      code: 'invalid_if_match',
      http: () => http('POST', `/v1/series/${target}/resume`, undefined, { 'if-match': 'nope' }),
      tool: () => ['resume_series', { uid: target, if_match: 'nope' }],
    },
    {
      rule: 'an unknown series',
      status: 404,
      code: 'series_not_found',
      http: () => http('GET', '/v1/series/a6ffffff-0000-4000-8000-000000000000'),
      tool: () => ['get_series', { uid: 'a6ffffff-0000-4000-8000-000000000000' }],
    },
    {
      rule: 'a booking PATCH of start',
      status: 422,
      code: 'field_immutable',
      http: () => http('PATCH', `/v1/bookings/${BLOCKERS.alder}`, { start: TUESDAY_11 }, { 'if-match': '"1"' }),
      tool: () => ['update_booking', { uid: BLOCKERS.alder, start: TUESDAY_11, if_match: 1 }],
    },
    {
      rule: 'a list limit of 0',
      status: 400,
      code: 'invalid_query_param',
      http: () => http('GET', '/v1/bookings?limit=0'),
      tool: () => ['list_bookings', { limit: 0 }],
    },
  ];

  for (const { rule, status, code, http: overHttp, tool } of cases) {
    it(`${rule}: ${status} ${code} over HTTP, the same code and details over MCP`, async () => {
      const viaHttp = expectError(await overHttp(), status, code);
      const [name, args] = tool();
      // The message may differ: over MCP it names the tool's arguments (if_match) where HTTP names headers.
      expectToolError(await mcp.call(name, args), viaHttp.code, viaHttp.details);
    });
  }

  it('the failed calls changed nothing: the target series is still at version 1', async () => {
    expect(expectData(await http('GET', `/v1/series/${target}`))).toMatchObject({ version: 1, status: 'active', time: '15:00' });
  });
});

describe('the same time off over HTTP (POST /v1/people/:user_id/time-off) and over MCP (create_time_off)', () => {
  /** Wednesday of week 0, 10:00-12:00 Tokyo: inside both twins' working hours. */
  const range = { start: tokyoAt(2, '10:00'), end: tokyoAt(2, '12:00'), reason: 'Offsite' };
  let tools: McpSession;
  let viaHttp: Record<string, any>;
  let viaMcp: Record<string, any>;
  const stored = async (id: string) => ({
    row: await tables.rows('select * from time_off where id = $1', [id]),
    events: await tables.rows('select event_type, subject_uid, payload_json from outbox where subject_uid = $1 order by created_at', [id]),
  });

  beforeAll(async () => {
    // The time-off tools are in the availability toolset, which a connection asks for.
    tools = await connectHttp(server.url, ORA, 'availability');
    viaHttp = expectData(await http('POST', `/v1/people/${MCP_USERS.alder}/time-off`, range), 201);
    viaMcp = toolData(await tools.call('create_time_off', { user_id: MCP_USERS.birch, ...range }));
  });
  afterAll(() => tools?.close());

  it('answers, reads back and stores the same range and time_off.created event', async () => {
    const read = async (twin: 'alder' | 'birch', id: string) =>
      expectData(await http('GET', `/v1/people/${MCP_USERS[twin]}/time-off/${id}`));
    expect(await read('alder', viaHttp.id)).toEqual(viaHttp);
    expect(toolData(await tools.call('get_time_off', { user_id: MCP_USERS.birch, id: viaMcp.id }))).toEqual(await read('birch', viaMcp.id));
    const [a, b] = [await stored(viaHttp.id), await stored(viaMcp.id)];
    expect(a.events.map((e: any) => e.event_type)).toEqual(['time_off.created']);
    expectSameExceptSource({ answer: viaHttp, stored: a }, { answer: viaMcp, stored: b }, 'none');
  });

  it('both twins are busy inside it: GET /v1/slots/check and check_slot answer slot_busy alike', async () => {
    const start = tokyoAt(2, '11:00');
    const a = expectData(
      await http('GET', `/v1/slots/check?event_type_id=${TWIN_EVENT_TYPES.alder.id}&start=${encodeURIComponent(start)}`),
    );
    const b = toolData(await mcp.call('check_slot', { event_type_id: TWIN_EVENT_TYPES.birch.id, start }));
    expect(a).toMatchObject({ available: false, reason: 'slot_busy' });
    expectSameExceptSource(a, b, 'none');
  });

  it('a PATCH with If-Match over HTTP and update_time_off with if_match over MCP store the same change', async () => {
    const change = { end: tokyoAt(2, '13:00'), reason: null };
    const a = expectData(await http('PATCH', `/v1/people/${MCP_USERS.alder}/time-off/${viaHttp.id}`, change, { 'if-match': '"1"' }));
    const b = toolData(await tools.call('update_time_off', { user_id: MCP_USERS.birch, id: viaMcp.id, ...change, if_match: 1 }));
    expect([a.version, a.reason, a.end_at]).toEqual([2, null, new Date(tokyoAt(2, '13:00')).toISOString()]);
    expectSameExceptSource({ answer: a, stored: await stored(viaHttp.id) }, { answer: b, stored: await stored(viaMcp.id) }, 'none');
  });

  it('a stale If-Match answers 409 version_conflict over both, with the same details', async () => {
    const viaHttpError = expectError(
      await http('PATCH', `/v1/people/${MCP_USERS.alder}/time-off/${viaHttp.id}`, { reason: 'x' }, { 'if-match': '"1"' }),
      409,
      'version_conflict',
    );
    expectToolError(
      await tools.call('update_time_off', { user_id: MCP_USERS.birch, id: viaMcp.id, reason: 'x', if_match: 1 }),
      viaHttpError.code,
      viaHttpError.details,
    );
  });

  it('DELETE over HTTP and delete_time_off over MCP remove it alike, each recording time_off.deleted', async () => {
    const a = expectData(await http('DELETE', `/v1/people/${MCP_USERS.alder}/time-off/${viaHttp.id}`));
    const b = toolData(await tools.call('delete_time_off', { user_id: MCP_USERS.birch, id: viaMcp.id, confirm: true }));
    const [sa, sb] = [await stored(viaHttp.id), await stored(viaMcp.id)];
    expect(sa.row).toEqual([]);
    expect(sa.events.map((e: any) => e.event_type)).toEqual(['time_off.created', 'time_off.updated', 'time_off.deleted']);
    expectSameExceptSource({ answer: a, stored: sa }, { answer: b, stored: sb }, 'none');
  });
});

describe('the same people and token calls over HTTP and over MCP (toolset people)', () => {
  let people: McpSession;

  beforeAll(async () => {
    people = await connectHttp(server.url, ORA, 'people');
  });
  afterAll(() => people?.close());

  /** A person's answer without what differs between two people made or changed apart. */
  const shape = ({ user_id: _, username: __, email: ___, created_at: ____, updated_at: _____, ...rest }: Record<string, unknown>) => rest;

  it('get_person answers what GET /v1/people/:user_id answers', async () => {
    const viaHttp = expectData(await http('GET', '/v1/people/alder'));
    expect(toolData(await people.call('get_person', { user_id: 'alder' }))).toEqual(viaHttp);
  });

  it('update_person on birch answers as PATCH on alder did, each at version 2 with a person.updated event', async () => {
    const viaHttp = expectData(await http('PATCH', '/v1/people/alder', { timezone: 'Europe/Lisbon' }, { 'if-match': '"1"' }));
    const viaMcp = toolData(await people.call('update_person', { user_id: 'birch', timezone: 'Europe/Lisbon', if_match: 1 }));
    expect(shape(viaMcp)).toEqual(shape(viaHttp));
    expect(viaMcp).toMatchObject({ version: 2, timezone: 'Europe/Lisbon' });
    const events = await tables.rows<{ event_type: string; subject_uid: string }>(
      "select event_type, subject_uid from outbox where event_type like 'person.%' order by subject_uid",
    );
    expect(events).toEqual([viaHttp.user_id, viaMcp.user_id].sort().map((subject_uid) => ({ event_type: 'person.updated', subject_uid })));
  });

  it('create_person and create_token answer as POST /v1/people and POST /v1/tokens, the secret once on each', async () => {
    const body = (username: string) => ({ username, email: `${username}@mcp.test`, name: 'New Host', timezone: 'Asia/Tokyo' });
    const personHttp = expectData(await http('POST', '/v1/people', body('cara')), 201);
    const personMcp = toolData(await people.call('create_person', body('dora')));
    expect(shape(personMcp)).toEqual(shape(personHttp));

    const token = (user: string) => ({ name: 'first', scopes: ['slots:read'], user_id: user });
    const {
      id: _a,
      user: _b,
      created_at: _c,
      secret: secretHttp,
      ...tokenHttp
    } = expectData(await http('POST', '/v1/tokens', token('cara')), 201);
    const { id: _d, user: _e, created_at: _f, secret: secretMcp, ...tokenMcp } = toolData(await people.call('create_token', token('dora')));
    expect(tokenMcp).toEqual(tokenHttp);
    expect([secretHttp, secretMcp]).toEqual([expect.stringMatching(/^pat_/), expect.stringMatching(/^pat_/)]);
  });

  const cases: { rule: string; status: number; code: string; http: () => Promise<ApiResponse>; tool: [string, Record<string, unknown>] }[] =
    [
      {
        rule: 'a person nobody is',
        status: 404,
        code: 'person_not_found',
        http: () => http('GET', '/v1/people/nobody'),
        tool: ['get_person', { user_id: 'nobody' }],
      },
      {
        rule: 'a username in use',
        status: 409,
        code: 'username_taken',
        http: () => http('POST', '/v1/people', { username: 'alder', email: 'x@mcp.test', name: 'X' }),
        tool: ['create_person', { username: 'alder', email: 'x@mcp.test', name: 'X' }],
      },
      {
        rule: 'a username patched',
        status: 422,
        code: 'field_immutable',
        http: () => http('PATCH', '/v1/people/alder', { username: 'al' }, { 'if-match': '*' }),
        tool: ['update_person', { user_id: 'alder', username: 'al', if_match: '*' }],
      },
      {
        rule: 'the last owner deactivated',
        status: 409,
        code: 'last_owner',
        http: () => http('POST', '/v1/people/me/deactivate'),
        tool: ['deactivate_person', { user_id: 'me', confirm: true }],
      },
      {
        rule: 'an unknown token revoked',
        status: 404,
        code: 'token_not_found',
        http: () => http('DELETE', '/v1/tokens/a6f00000-0000-4000-8000-000000000000'),
        tool: ['revoke_token', { token_id: 'a6f00000-0000-4000-8000-000000000000', confirm: true }],
      },
    ];

  for (const { rule, status, code, http: overHttp, tool } of cases) {
    it(`${rule}: ${status} ${code} over HTTP, the same code and details over MCP`, async () => {
      const viaHttp = expectError(await overHttp(), status, code);
      expectToolError(await people.call(...tool), viaHttp.code, viaHttp.details);
    });
  }
});

describe('the same event type changes over HTTP (/v1/event-types) and over MCP (the event_types toolset)', () => {
  let tools: McpSession;
  let viaHttp: Record<string, any>;
  let viaMcp: Record<string, any>;
  const body = (owner: string) => ({
    owner,
    slug: 'extra',
    name: 'Extra call',
    description: 'Longer',
    duration_minutes: 45,
    location: { type: 'link', url: 'https://meet.example.com/extra' },
    questions: [{ id: 'topic', label: 'Topic', required: true }],
  });
  const stored = async (id: string) => ({
    row: await tables.rows('select * from event_types where id = $1', [id]),
    events: await tables.rows('select event_type, payload_json from outbox where subject_uid = $1 order by created_at, event_type', [id]),
  });

  beforeAll(async () => {
    tools = await connectHttp(server.url, ORA, 'event_types');
    viaHttp = expectData(await http('POST', '/v1/event-types', body('alder')), 201);
    viaMcp = toolData(await tools.call('create_event_type', { ...body('birch'), idempotency_key: randomUUID() }));
  });
  afterAll(() => tools?.close());

  it('create answers, reads back (get_event_type) and stores the same type and event_type.created event', async () => {
    expect([viaHttp.owner.username, viaMcp.owner.username]).toEqual(['alder', 'birch']);
    const a = { answer: viaHttp, read: expectData(await http('GET', `/v1/event-types/${viaHttp.id}`)), stored: await stored(viaHttp.id) };
    const b = { answer: viaMcp, read: toolData(await tools.call('get_event_type', { id: viaMcp.id })), stored: await stored(viaMcp.id) };
    expect(a.read).toEqual(viaHttp);
    expectSameExceptSource(a, b, 'none');
  });

  it('update with If-Match "1" over HTTP and update_event_type with if_match 1 over MCP store the same change', async () => {
    const change = { duration_minutes: 60, status: 'off' };
    const a = expectData(await http('PATCH', `/v1/event-types/${viaHttp.id}`, change, { 'if-match': '"1"' }));
    const b = toolData(await tools.call('update_event_type', { id: viaMcp.id, ...change, if_match: 1 }));
    expect([a.version, a.duration_minutes, a.status]).toEqual([2, 60, 'off']);
    expectSameExceptSource({ answer: a, stored: await stored(viaHttp.id) }, { answer: b, stored: await stored(viaMcp.id) }, 'none');
  });

  it('delete over HTTP and delete_event_type over MCP archive the same way', async () => {
    const a = expectData(await http('DELETE', `/v1/event-types/${viaHttp.id}`));
    const b = toolData(await tools.call('delete_event_type', { id: viaMcp.id, confirm: true }));
    expect([a.version, a.slug, typeof a.archived_at]).toEqual([3, 'extra', 'string']);
    expectSameExceptSource({ answer: a, stored: await stored(viaHttp.id) }, { answer: b, stored: await stored(viaMcp.id) }, 'none');
  });

  const cases: {
    rule: string;
    status: number;
    code: string;
    http: () => Promise<ApiResponse>;
    tool: () => [string, Record<string, unknown>];
  }[] = [
    {
      rule: 'event type slug in use',
      status: 409,
      code: 'slug_taken',
      http: () => http('POST', '/v1/event-types', { ...body('alder'), slug: TWIN_EVENT_TYPES.alder.slug }),
      tool: () => ['create_event_type', { ...body('alder'), slug: TWIN_EVENT_TYPES.alder.slug, idempotency_key: randomUUID() }],
    },
    {
      rule: 'event type duration over a day',
      status: 400,
      code: 'validation_error',
      http: () => http('POST', '/v1/event-types', { ...body('alder'), slug: 'long', duration_minutes: 1441 }),
      tool: () => ['create_event_type', { ...body('alder'), slug: 'long', duration_minutes: 1441, idempotency_key: randomUUID() }],
    },
    {
      rule: 'event type PATCH of owner',
      status: 422,
      code: 'field_immutable',
      http: () => http('PATCH', `/v1/event-types/${TWIN_EVENT_TYPES.alder.id}`, { owner: 'birch' }, { 'if-match': '"1"' }),
      tool: () => ['update_event_type', { id: TWIN_EVENT_TYPES.alder.id, owner: 'birch', if_match: 1 }],
    },
    {
      rule: 'event type PATCH with a stale If-Match',
      status: 409,
      code: 'version_conflict',
      http: () => http('PATCH', `/v1/event-types/${TWIN_EVENT_TYPES.alder.id}`, { name: 'N' }, { 'if-match': '"9"' }),
      tool: () => ['update_event_type', { id: TWIN_EVENT_TYPES.alder.id, name: 'N', if_match: 9 }],
    },
    {
      rule: 'an unknown event type',
      status: 404,
      code: 'event_type_not_found',
      http: () => http('GET', '/v1/event-types/a6ffffff-0000-4000-8000-0000000000ee'),
      tool: () => ['get_event_type', { id: 'a6ffffff-0000-4000-8000-0000000000ee' }],
    },
  ];

  for (const { rule, status, code, http: overHttp, tool } of cases) {
    it(`${rule}: ${status} ${code} over HTTP, the same code and details over MCP`, async () => {
      const viaHttpError = expectError(await overHttp(), status, code);
      const [name, args] = tool();
      expectToolError(await tools.call(name, args), viaHttpError.code, viaHttpError.details);
    });
  }
});

describe('the same working hours over HTTP (/v1/people/:user_id/availability) and over MCP (the availability toolset)', () => {
  let hours: McpSession;
  beforeAll(async () => {
    hours = await connectHttp(server.url, ORA, 'availability');
  });
  afterAll(() => hours?.close());

  /** A document with its person's id and its write time set aside: the twins differ only there. */
  const alike = (document: Record<string, any>) => {
    const { user_id: _id, updated_at: _at, ...rest } = document;
    return rest;
  };
  const week = {
    mon: [['10:00', '12:00']],
    wed: [
      ['13:00', '15:00'],
      ['14:00', '18:00'],
    ],
  };

  it('GET and get_availability answer the same document, written by the workspace load at version 1', async () => {
    const a = await http('GET', `/v1/people/${MCP_USERS.alder}/availability`);
    expect(a.headers.get('etag')).toBe('"1"');
    const viaHttp = expectData(a);
    const viaMcp = toolData(await hours.call('get_availability', { user_id: MCP_USERS.birch }));
    expect([viaHttp.user_id, viaMcp.user_id, viaHttp.version, viaHttp.default]).toEqual([MCP_USERS.alder, MCP_USERS.birch, 1, false]);
    expect(alike(viaMcp)).toEqual(alike(viaHttp));
  });

  it('PUT with If-Match and replace_availability with if_match store and answer the same merged document', async () => {
    const body = { timezone: 'Asia/Tokyo', weekly: week, overrides: [{ date: '2026-12-24', intervals: [] }] };
    const a = await http('PUT', `/v1/people/${MCP_USERS.alder}/availability`, body, { 'if-match': '"1"' });
    expect(a.headers.get('etag')).toBe('"2"');
    const viaHttp = expectData(a);
    const viaMcp = toolData(await hours.call('replace_availability', { user_id: MCP_USERS.birch, if_match: 1, ...body }));
    expect(viaHttp.weekly.wed).toEqual([['13:00', '18:00']]);
    expect(alike(viaMcp)).toEqual(alike(viaHttp));
    const stored = async (id: string) => (await tables.rows('select schedule_json, schedule_version from users where id = $1', [id]))[0];
    expect(await stored(MCP_USERS.birch)).toEqual(await stored(MCP_USERS.alder));
  });

  it('adding and removing an override answer the same over both', async () => {
    const add = { date: '2026-12-31', intervals: [['09:00', '11:00']] };
    const a = expectData(await http('POST', `/v1/people/${MCP_USERS.alder}/availability/overrides`, add));
    const b = toolData(await hours.call('add_availability_override', { user_id: MCP_USERS.birch, ...add }));
    expect(alike(b)).toEqual(alike(a));
    const c = expectData(await http('DELETE', `/v1/people/${MCP_USERS.alder}/availability/overrides/2026-12-24`));
    const d = toolData(await hours.call('remove_availability_override', { user_id: MCP_USERS.birch, date: '2026-12-24' }));
    expect([c.version, c.overrides]).toEqual([4, [add]]);
    expect(alike(d)).toEqual(alike(c));
  });

  const refusals: {
    rule: string;
    status: number;
    code: string;
    http: () => Promise<ApiResponse>;
    tool: () => [string, Record<string, unknown>];
  }[] = [
    {
      rule: 'a stale If-Match',
      status: 409,
      code: 'version_conflict',
      http: () => http('PUT', `/v1/people/${MCP_USERS.alder}/availability`, { weekly: {} }, { 'if-match': '"1"' }),
      tool: () => ['replace_availability', { user_id: MCP_USERS.birch, weekly: {}, if_match: 1 }],
    },
    {
      rule: 'an override date that does not exist',
      status: 400,
      code: 'validation_error',
      http: () => http('POST', `/v1/people/${MCP_USERS.alder}/availability/overrides`, { date: '2026-02-30', intervals: [] }),
      tool: () => ['add_availability_override', { user_id: MCP_USERS.birch, date: '2026-02-30', intervals: [] }],
    },
    {
      rule: 'removing a date without an override',
      status: 404,
      code: 'not_found',
      http: () => http('DELETE', `/v1/people/${MCP_USERS.alder}/availability/overrides/2026-12-25`),
      tool: () => ['remove_availability_override', { user_id: MCP_USERS.birch, date: '2026-12-25' }],
    },
    {
      rule: 'an interval that ends before it starts',
      status: 400,
      code: 'validation_error',
      http: () => http('PUT', `/v1/people/${MCP_USERS.alder}/availability`, { weekly: { mon: [['12:00', '09:00']] } }, { 'if-match': '*' }),
      tool: () => ['replace_availability', { user_id: MCP_USERS.birch, weekly: { mon: [['12:00', '09:00']] }, if_match: '*' }],
    },
  ];

  for (const { rule, status, code, http: overHttp, tool } of refusals) {
    it(`${rule}: ${status} ${code} over HTTP, the same code and details over MCP`, async () => {
      const viaHttp = expectError(await overHttp(), status, code);
      const [name, args] = tool();
      expectToolError(await hours.call(name, args), viaHttp.code, viaHttp.details);
    });
  }
});
