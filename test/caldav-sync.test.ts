import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import ICAL from 'ical.js';
import { createAccount, type DAVCalendar, fetchCalendarObjects, fetchCalendars, updateCalendarObject } from 'tsdav';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingBody, cancelBooking, createBooking, getBooking, patchBooking, rescheduleBooking } from './support/booking-writes.js';
import { type CalDavServer, type CalDavServerKind, startCalDavServer } from './support/caldav-server.js';
import { runCli } from './support/cli-run.js';
import { api, expectData } from './support/http.js';
import { startInProcess } from './support/in-process.js';
import { connectHttp, toolData } from './support/mcp-client.js';
import { type TestSchema, testSchema } from './support/postgres.js';
import { type ServerProcess, startServer, type TestServer, writeWorkspace } from './support/serve.js';
import { ALL_SCOPES } from './support/workspace.js';

// docs/calendars.md "Bookings written back", against real CalDAV servers
// started here (Radicale and Xandikos, Debian packages): each booking write
// puts, moves or removes its event in the host's booking calendar after
// commit, read back here with tsdav (a CalDAV client) and parsed with ical.js.

const CARA = 'ca100000-0000-4000-8000-000000000001';
const CALL = 'ca1e0000-0000-4000-8000-000000000001';
const TOKEN = 'caldav-sync-cara-all-scopes';
const PASSWORD_VAR = 'CARA_CALDAV_PASSWORD';
const DAY_MS = 86_400_000;
const SLOT_MS = 30 * 60_000;
const firstSlot = Math.ceil(Date.now() / DAY_MS) * DAY_MS + DAY_MS;
const slot = (n: number) => new Date(firstSlot + 9 * 3_600_000 + n * SLOT_MS).toISOString();

function workspaceFor(server: CalDavServer) {
  return {
    organization: { name: 'CalDAV Org' },
    limits: { pat_per_minute: 100_000 },
    users: [
      {
        id: CARA,
        username: 'cara',
        email: 'cara@caldav.test',
        name: 'Cara Host',
        timezone: 'UTC',
        role: 'owner',
        calendars: [
          {
            kind: 'caldav',
            url: server.url,
            username: server.username,
            password_env: PASSWORD_VAR,
            busy_calendars: ['personal', 'bookings'],
            book_into: 'bookings',
          },
        ],
      },
    ],
    event_types: [
      {
        id: CALL,
        owner: 'cara',
        slug: 'call',
        name: 'Call',
        duration_minutes: 30,
        minimum_notice_minutes: 0,
        future_limit_days: 365,
        questions: [{ id: 'topic', label: 'Topic', type: 'text', required: false }],
      },
    ],
    tokens: [{ name: 'cara', user: 'cara', secret: TOKEN, scopes: [...ALL_SCOPES] }],
  };
}

/** The account's booking calendar as a CalDAV client (tsdav) finds it, and the headers to reach it. */
async function bookingCalendar(server: CalDavServer) {
  const authorization = `Basic ${Buffer.from(`${server.username}:${server.password}`).toString('base64')}`;
  const headers = { authorization };
  const account = await createAccount({ account: { serverUrl: server.url, accountType: 'caldav' }, headers });
  const calendar = (await fetchCalendars({ account, headers })).find((c: DAVCalendar) => c.displayName === 'bookings')!;
  return { calendar, headers };
}

/**
 * Changes the event at `href` as a calendar app does: reads it, edits its
 * VEVENT, and writes it back under the ETag it read, so the ETag changes.
 */
async function editAsCalendarApp(server: CalDavServer, href: string, edit: (vevent: ICAL.Component) => void): Promise<void> {
  const { calendar, headers } = await bookingCalendar(server);
  const object = (await fetchCalendarObjects({ calendar, headers })).find((o) => o.url === href)!;
  const root = new ICAL.Component(ICAL.parse(object.data));
  edit(root.getFirstSubcomponent('vevent')!);
  const answer = await updateCalendarObject({ calendarObject: { ...object, data: root.toString() }, headers });
  if (!answer.ok) throw new Error(`the calendar app's edit was refused: HTTP ${answer.status}`);
}

/** A reminder ten minutes before, as a calendar app adds one. */
function addAlarm(vevent: ICAL.Component): void {
  const alarm = new ICAL.Component('valarm');
  alarm.addPropertyWithValue('action', 'DISPLAY');
  alarm.addPropertyWithValue('description', 'Reminder');
  alarm.addPropertyWithValue('trigger', ICAL.Duration.fromString('-PT10M'));
  vevent.addSubcomponent(alarm);
}

/** The booking calendar's events as the server has them: UID, SEQUENCE, times, people and description, by object URL. */
async function eventsIn(server: CalDavServer): Promise<Map<string, Record<string, string | number | undefined>>> {
  const { calendar, headers } = await bookingCalendar(server);
  const objects = await fetchCalendarObjects({ calendar, headers });
  return new Map(
    objects.map((o) => {
      const vevent = new ICAL.Component(ICAL.parse(o.data)).getFirstSubcomponent('vevent')!;
      const event = new ICAL.Event(vevent);
      return [
        o.url,
        {
          uid: event.uid,
          sequence: event.sequence,
          start: event.startDate.toJSDate().toISOString(),
          end: event.endDate.toJSDate().toISOString(),
          summary: event.summary,
          organizer: String(vevent.getFirstPropertyValue('organizer')),
          attendee: String(vevent.getFirstPropertyValue('attendee')),
          attendeeName: String(vevent.getFirstProperty('attendee')?.getParameter('cn')),
          description: event.description,
          status: String(vevent.getFirstPropertyValue('status')),
          // RFC 6638 §7.1, organizer first: who sends the invitations.
          scheduleAgents: [...vevent.getAllProperties('organizer'), ...vevent.getAllProperties('attendee')]
            .map((p) => p.getParameter('schedule-agent'))
            .join(','),
          alarms: vevent.getAllSubcomponents('valarm').length,
        },
      ];
    }),
  );
}

/** Waits until the booking's sync status is one of `statuses` (the sync runs beside the request, on its own loop). */
async function settled(server: TestServer, uid: string, statuses: readonly string[] = ['synced', 'failed']) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const booking = expectData(await getBooking(server.url, TOKEN, uid));
    if (statuses.includes(booking.calendar_sync_status)) return booking;
    if (Date.now() > deadline) throw new Error(`booking ${uid} still ${booking.calendar_sync_status}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.each(['radicale', 'xandikos'] as CalDavServerKind[])('bookings written back to %s', (kind) => {
  let caldav: CalDavServer;
  let server: TestServer;

  beforeAll(async () => {
    caldav = await startCalDavServer(kind);
    await caldav.calendar('personal');
    await caldav.calendar('bookings');
    server = await startInProcess(
      { workspace: writeWorkspace(workspaceFor(caldav)), db: ':memory:' },
      // Retries 100 ms apart, so "after the last attempt" comes within the test.
      { [PASSWORD_VAR]: caldav.password, CALENDAR_SYNC_POLL_MS: '20', CALENDAR_SYNC_RETRY_MS: '100,100' },
    );
  });
  afterAll(async () => {
    await server?.stop();
    await caldav?.close();
  });

  it('create, patch, reschedule and cancel appear in the calendar exactly; calendar_sync_status goes synced', async () => {
    const created = expectData(
      await createBooking(server.url, TOKEN, {
        ...bookingBody(CALL, slot(0), 'ann@example.com'),
        attendee: { email: 'ann@example.com', name: 'Ann Attendee' },
        responses: { topic: 'Budget; Q3' },
      }),
      201,
    );
    expect(created.calendar_sync_status).toBe('pending');
    const synced = await settled(server, created.uid);
    const href = synced.calendar_event_id as string;
    expect({
      status: synced.calendar_sync_status,
      version: synced.version,
      href: new URL(href).pathname.endsWith(`/bookings/${created.uid}.ics`),
    }).toEqual({
      status: 'synced',
      version: 1,
      href: true,
    });
    expect(Object.fromEntries(await eventsIn(caldav))).toEqual({
      [href]: {
        uid: `${created.uid}@schedule`,
        sequence: 1,
        start: slot(0),
        end: slot(1),
        summary: created.title,
        organizer: 'mailto:cara@caldav.test',
        attendee: 'mailto:ann@example.com',
        attendeeName: 'Ann Attendee',
        description: `Booked by Ann Attendee <ann@example.com>\nJoin: ${created.location.url}\ntopic: Budget; Q3`,
        status: 'CONFIRMED',
        scheduleAgents: 'CLIENT,CLIENT',
        alarms: 0,
      },
    });

    // PATCH: the attendee's new name reaches the event, under its ETag.
    const patched = expectData(await patchBooking(server.url, TOKEN, created.uid, { attendee_name: 'Ann Renamed' }, { version: 1 }));
    expect(patched.calendar_sync_status).toBe('pending');
    await settled(server, created.uid);
    expect((await eventsIn(caldav)).get(href)).toMatchObject({ sequence: 2, attendeeName: 'Ann Renamed' });

    // Reschedule: the same event moves.
    expectData(await rescheduleBooking(server.url, TOKEN, created.uid, { start: slot(4) }));
    expect(await settled(server, created.uid)).toMatchObject({ calendar_sync_status: 'synced', calendar_event_id: href, version: 3 });
    expect((await eventsIn(caldav)).get(href)).toMatchObject({ sequence: 3, start: slot(4), end: slot(5) });

    // Cancel: the event is removed.
    expectData(await cancelBooking(server.url, TOKEN, created.uid, { reason: 'no longer needed' }));
    expect(await settled(server, created.uid)).toMatchObject({ status: 'canceled', calendar_sync_status: 'synced', calendar_event_id: '' });
    expect([...(await eventsIn(caldav)).keys()]).toEqual([]);
  });

  it('its own event does not block the booking moving 30 minutes on; its freed slot can be booked again', async () => {
    const created = expectData(await createBooking(server.url, TOKEN, bookingBody(CALL, slot(10))), 201);
    await settled(server, created.uid);
    // The slot just after overlaps nothing but the booking's own event: a 60-minute move would.
    expectData(await rescheduleBooking(server.url, TOKEN, created.uid, { start: slot(11) }));
    await settled(server, created.uid);
    expectData(await cancelBooking(server.url, TOKEN, created.uid, {}));
    expectData(await createBooking(server.url, TOKEN, bookingBody(CALL, slot(11))), 201);
  });

  it('an event changed in the calendar app (title, an alarm), then rescheduled and canceled: the calendar ends with the booking', async () => {
    const created = expectData(await createBooking(server.url, TOKEN, bookingBody(CALL, slot(50))), 201);
    const href = (await settled(server, created.uid)).calendar_event_id as string;
    await editAsCalendarApp(caldav, href, (vevent) => {
      vevent.updatePropertyWithValue('summary', 'Renamed in the app');
      addAlarm(vevent);
    });
    expect((await eventsIn(caldav)).get(href)).toMatchObject({ summary: 'Renamed in the app', alarms: 1 });

    // Before issue 30 the write answered 412 and the booking stayed failed: the event kept the old time for good.
    expectData(await rescheduleBooking(server.url, TOKEN, created.uid, { start: slot(52) }));
    expect(await settled(server, created.uid)).toMatchObject({ calendar_sync_status: 'synced', calendar_event_id: href });
    expect((await eventsIn(caldav)).get(href)).toMatchObject({
      uid: `${created.uid}@schedule`,
      summary: created.title,
      start: slot(52),
      end: slot(53),
      sequence: 2,
      scheduleAgents: 'CLIENT,CLIENT',
      alarms: 1,
    });

    // Changed again, then canceled: the cancel removes it (before, a ghost stayed in the calendar).
    await editAsCalendarApp(caldav, href, (vevent) => vevent.updatePropertyWithValue('location', 'Room 4'));
    expectData(await cancelBooking(server.url, TOKEN, created.uid, {}));
    expect(await settled(server, created.uid)).toMatchObject({ status: 'canceled', calendar_sync_status: 'synced', calendar_event_id: '' });
    expect((await eventsIn(caldav)).has(href)).toBe(false);
  });

  it('a server that is down: retried, then failed, said in the log; back up, the next change writes it', async () => {
    const created = expectData(await createBooking(server.url, TOKEN, bookingBody(CALL, slot(20))), 201);
    const href = (await settled(server, created.uid)).calendar_event_id;
    await caldav.stop();
    // A PATCH needs no availability (a reschedule, like a create, would answer 503 with the calendar down).
    const rename = (name: string) => patchBooking(server.url, TOKEN, created.uid, { attendee_name: name });
    expectData(await rename('While Down'));
    expect(await settled(server, created.uid)).toMatchObject({ calendar_sync_status: 'failed', calendar_event_id: href });
    expect(server.output().stderr).toMatch(/calendar event not written; calendar_sync_status is failed/);
    expect(server.output().stderr).not.toContain(caldav.password);

    await caldav.start();
    expect((await eventsIn(caldav)).get(href)).toMatchObject({ sequence: 1 });
    expectData(await rename('Back Up'));
    expect(await settled(server, created.uid)).toMatchObject({ calendar_sync_status: 'synced', calendar_event_id: href });
    expect((await eventsIn(caldav)).get(href)).toMatchObject({ sequence: 3, attendeeName: 'Back Up' });
  });

  it.runIf(kind === 'radicale')(
    'failed syncs written again on request once the server is back: one booking by HTTP, one by the CLI, the rest by the MCP tool',
    async () => {
      const uids: string[] = [];
      for (const n of [60, 61, 62]) {
        const created = expectData(await createBooking(server.url, TOKEN, bookingBody(CALL, slot(n))), 201);
        await settled(server, created.uid);
        uids.push(created.uid);
      }
      const [byHttp, byCli, byMcp] = uids as [string, string, string];
      await caldav.stop();
      for (const uid of uids) {
        expectData(await patchBooking(server.url, TOKEN, uid, { attendee_name: 'Renamed While Down' }));
        expect(await settled(server, uid)).toMatchObject({ calendar_sync_status: 'failed' });
      }
      await caldav.start();
      const renamed = async (uid: string) => [...(await eventsIn(caldav)).values()].find((e) => e.uid === `${uid}@schedule`)?.attendeeName;
      expect(await renamed(byHttp)).toBe('guest@example.com');

      const answer = await api(server.url, '/v1/calendars/resync', { method: 'POST', token: TOKEN, json: { booking_uid: byHttp } });
      expect(expectData(answer, 202)).toEqual({ queued: 1, remaining: 0 });
      expect(await settled(server, byHttp)).toMatchObject({ calendar_sync_status: 'synced' });
      expect(await renamed(byHttp)).toBe('Renamed While Down');

      const cli = await runCli(['calendars', 'resync', '--booking', byCli.slice(0, 8), '--json', '--api-url', server.url], {
        env: { SCHEDULE_TOKEN: TOKEN },
      });
      expect({ code: cli.code, stderr: cli.stderr, data: JSON.parse(cli.stdout || 'null') }).toEqual({
        code: 0,
        stderr: '',
        data: { queued: 1, remaining: 0 },
      });
      expect(await settled(server, byCli)).toMatchObject({ calendar_sync_status: 'synced' });
      const both = await runCli(['calendars', 'resync', '--booking', byCli, '--user', 'cara', '--api-url', server.url], {
        env: { SCHEDULE_TOKEN: TOKEN },
      });
      expect([both.code, both.stderr]).toEqual([2, 'error usage: --booking and --user exclude each other.\n']);

      const mcp = await connectHttp(server.url, TOKEN);
      try {
        expect(toolData(await mcp.call('resync_calendar', {}))).toEqual({ queued: 1, remaining: 0 });
      } finally {
        await mcp.close();
      }
      expect(await settled(server, byMcp)).toMatchObject({ calendar_sync_status: 'synced' });
      expect([await renamed(byCli), await renamed(byMcp)]).toEqual(['Renamed While Down', 'Renamed While Down']);
    },
  );

  it.runIf(kind === 'radicale')(
    'credentials the server stops taking: failed at sync time, said clearly, the password never in the log',
    async () => {
      const created = expectData(await createBooking(server.url, TOKEN, bookingBody(CALL, slot(30))), 201);
      await settled(server, created.uid);
      caldav.changePassword('a new password the server holds');
      try {
        expectData(await patchBooking(server.url, TOKEN, created.uid, { attendee_name: 'Locked Out' }));
        expect(await settled(server, created.uid)).toMatchObject({ calendar_sync_status: 'failed' });
        const log = server.output().stderr;
        expect(log).toMatch(/CalDAV server http:\/\/127\.0\.0\.1:\d+\/\S* refused the username and password \(HTTP 401\)/);
        expect(log).not.toContain(caldav.password);
      } finally {
        caldav.changePassword(caldav.password);
      }
    },
  );
});

/** A loopback proxy in front of the CalDAV server that counts the requests by method and path. */
async function countingProxy(target: string): Promise<{ url: string; counts: Map<string, number>; close(): Promise<void> }> {
  const to = new URL(target);
  const counts = new Map<string, number>();
  const proxy: Server = createServer((req, res) => {
    const key = `${req.method} ${req.url}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    const upstream = httpRequest(
      { host: to.hostname, port: to.port, method: req.method, path: req.url, headers: { ...req.headers, host: to.host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/`,
    counts,
    close: () =>
      new Promise((resolve) => {
        proxy.closeAllConnections();
        proxy.close(() => resolve());
      }),
  };
}

describe('two serve processes on one PostgreSQL schema write each event once', () => {
  let caldav: CalDavServer;
  let proxy: Awaited<ReturnType<typeof countingProxy>>;
  let schema: TestSchema;
  let one: ServerProcess;
  let two: ServerProcess;

  beforeAll(async () => {
    caldav = await startCalDavServer('radicale');
    await caldav.calendar('personal');
    await caldav.calendar('bookings');
    proxy = await countingProxy(caldav.url);
    schema = testSchema();
    const file = writeWorkspace(workspaceFor({ ...caldav, url: proxy.url }));
    const env = { [PASSWORD_VAR]: caldav.password, CALENDAR_SYNC_POLL_MS: '10' };
    one = await startServer(['--workspace', file, '--db', schema.dbUrl], env);
    two = await startServer(['--workspace', file, '--db', schema.dbUrl], env);
  }, 30_000);
  afterAll(async () => {
    await Promise.all([one?.stop(), two?.stop()]);
    await proxy?.close();
    await caldav?.close();
    await schema?.drop();
  });

  it('40 bookings made through both: 40 events, each PUT once, all synced', async () => {
    const uids: string[] = [];
    // Four at a time, alternating processes: every create is for the one host, so all of them queue on its
    // lock (2 s at most on PostgreSQL); forty at once made a loaded machine answer slot_lock_timeout.
    for (let batch = 0; batch < 40; batch += 4) {
      await Promise.all(
        [0, 1, 2, 3].map(async (i) => {
          const n = batch + i;
          const via = n % 2 === 0 ? one : two;
          uids.push(expectData(await createBooking(via.url, TOKEN, bookingBody(CALL, slot(40 + n))), 201).uid);
        }),
      );
    }
    for (const uid of uids) await settled(one, uid, ['synced']);
    const puts = [...proxy.counts].filter(([key]) => key.startsWith('PUT '));
    expect(puts.map(([key, n]) => [key.replace(/^PUT .*\/bookings\//, ''), n]).sort()).toEqual(uids.map((uid) => [`${uid}.ics`, 1]).sort());
    expect((await eventsIn(caldav)).size).toBe(40);
  }, 60_000);
});
