import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CalDavServer, type CalDavServerKind, startCalDavServer } from './support/caldav-server.js';
import { runCli } from './support/cli-run.js';
import { api, expectData, expectError } from './support/http.js';
import { type ServerProcess, startServer, writeWorkspace } from './support/serve.js';

// docs/calendars.md "Busy time from a CalDAV account", end to end: the real
// `schedule serve` reads a host's CalDAV account (Radicale, Xandikos) for
// its slots, and `schedule calendars test` reads it and says what it found.

const DORA = 'cb000000-0000-4000-8000-000000000001';
const CALL = 'cb100000-0000-4000-8000-000000000001';
const TOKEN = 'caldav-busy-dora-slots';
const PASSWORD_VAR = 'DORA_CALDAV_PASSWORD';
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** Midnight UTC, the day after tomorrow: the test's day. */
const day = Math.ceil(Date.now() / DAY_MS) * DAY_MS + DAY_MS;
const stamp = (ms: number) => `${new Date(ms).toISOString().slice(0, 19).replace(/[-:]/g, '')}Z`;
const iso = (hour: number) => new Date(day + hour * HOUR_MS).toISOString();

const event = (uid: string, fromHour: number, toHour: number, ...more: string[]) =>
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//schedule tests//EN',
    'BEGIN:VEVENT',
    `UID:${uid}`,
    `DTSTAMP:${stamp(day - DAY_MS)}`,
    `DTSTART:${stamp(day + fromHour * HOUR_MS)}`,
    `DTEND:${stamp(day + toHour * HOUR_MS)}`,
    ...more,
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');

function workspaceFor(server: CalDavServer) {
  return {
    organization: { name: 'Busy Org' },
    limits: { pat_per_minute: 100_000 },
    users: [
      {
        id: DORA,
        username: 'dora',
        email: 'dora@busy.test',
        name: 'Dora Host',
        timezone: 'UTC',
        role: 'owner',
        schedule: {
          timezone: 'UTC',
          weekly: Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [['09:00', '13:00']]])),
        },
        calendars: [
          {
            kind: 'caldav',
            url: server.url,
            username: server.username,
            password_env: PASSWORD_VAR,
            busy_calendars: ['personal'],
            book_into: null,
          },
        ],
      },
    ],
    event_types: [
      { id: CALL, owner: 'dora', slug: 'call', name: 'Call', duration_minutes: 30, slot_interval_minutes: 30, minimum_notice_minutes: 0 },
    ],
    tokens: [{ name: 'dora', user: 'dora', secret: TOKEN, scopes: ['slots:read'] }],
  };
}

describe.each(['radicale', 'xandikos'] as CalDavServerKind[])('busy time from %s', (kind) => {
  let caldav: CalDavServer;
  let workspace: string;
  let server: ServerProcess;
  const slots = () => api(server.url, `/v1/slots?event_type_id=${CALL}&start=${iso(0)}&end=${iso(24)}`, { token: TOKEN });

  beforeAll(async () => {
    caldav = await startCalDavServer(kind);
    const personal = await caldav.calendar('personal');
    const authorization = `Basic ${Buffer.from(`${caldav.username}:${caldav.password}`).toString('base64')}`;
    const put = (name: string, text: string) =>
      fetch(`${personal}${name}.ics`, { method: 'PUT', headers: { authorization, 'content-type': 'text/calendar' }, body: text });
    expect((await put('meeting', event('meeting@busy.test', 10, 11))).status).toBe(201);
    expect((await put('free', event('free@busy.test', 9, 10, 'TRANSP:TRANSPARENT'))).status).toBe(201);
    workspace = writeWorkspace(workspaceFor(caldav));
    // No cache, so the test sees the server as it is at each request.
    server = await startServer(['--workspace', workspace, '--db', ':memory:'], {
      [PASSWORD_VAR]: caldav.password,
      CALDAV_BUSY_CACHE_MS: '0',
    });
  });
  afterAll(async () => {
    await server?.stop();
    await caldav?.close();
  });

  it('GET /v1/slots leaves out the hour the calendar holds (a free event blocks nothing)', async () => {
    const listed = expectData(await slots());
    expect(listed.slots.map((s: { start: string }) => s.start)).toEqual([iso(9), iso(9.5), iso(11), iso(11.5), iso(12), iso(12.5)]);
  });

  it('the server down: 503 availability_unavailable with Retry-After; back up, slots again; the password never in the log', async () => {
    await caldav.stop();
    try {
      const down = await slots();
      expectError(down, 503, 'availability_unavailable');
      expect(down.headers.get('retry-after')).toBe('30');
    } finally {
      await caldav.start();
    }
    expect(expectData(await slots()).slots).toHaveLength(6);
    expect(server.output().stderr).not.toContain(caldav.password);
  });

  it('schedule calendars test names the account user@host and counts its busy time; exit 0', async () => {
    const run = await runCli(['calendars', 'test', '--workspace', workspace, '--days', '7'], { env: { [PASSWORD_VAR]: caldav.password } });
    expect(run).toEqual({
      code: 0,
      stdout: `dora  alice@127.0.0.1:${caldav.port}  read: 1 busy time(s) in the next 7 day(s)\n`,
      stderr: '',
    });
  });

  it('schedule calendars test without the password: unreadable, naming the variable; exit 6', async () => {
    const run = await runCli(['calendars', 'test', '--workspace', workspace], { env: { [PASSWORD_VAR]: undefined } });
    expect(run).toEqual({
      code: 6,
      stdout: `dora  alice@127.0.0.1:${caldav.port}  unreadable: CalDAV account alice at ${caldav.url} is unreadable: CalDAV account alice at ${caldav.url} has no password: the environment variable ${PASSWORD_VAR} is not set\n`,
      stderr: '',
    });
  });

  it.runIf(kind === 'radicale')('schedule calendars test with a wrong password: unreadable, the password not shown; exit 6', async () => {
    const wrong = 'hunter2-not-the-password';
    const run = await runCli(['calendars', 'test', '--workspace', workspace, '--json'], { env: { [PASSWORD_VAR]: wrong } });
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 6, stderr: '' });
    expect(JSON.parse(run.stdout)).toEqual([
      {
        user: 'dora',
        calendar: `alice@127.0.0.1:${caldav.port}`,
        readable: false,
        busy: 0,
        skipped: [],
        error: expect.stringMatching(
          new RegExp(
            `^CalDAV account alice at ${caldav.url} is unreadable: CalDAV server http://127\\.0\\.0\\.1:${caldav.port}/\\S* refused the username and password \\(HTTP 401\\)$`,
          ),
        ),
      },
    ]);
    expect(run.stdout).not.toContain(wrong);
  });
});
