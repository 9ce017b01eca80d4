// Benchmark of issue 17 (busy time from CalDAV): a 31-day slot list for a
// host whose conflict calendar is a CalDAV calendar of 500 events (100 of
// them weekly recurring) on a real Radicale started here. The first call
// (discovery, REPORT, parsing, expansion), a call after the cache expired
// (REPORT and parsing only), then cached calls, against the same busy
// intervals held by a static calendar: the floor, measured in the same run.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as core from '../dist/index.js';
import { benchDeps, interleaved, timedSlots, writeReport } from './support.mjs';

const _here = dirname(fileURLToPath(import.meta.url));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 300);
const USER = 'bench';
const PASSWORD = 'bench caldav password';
const secret = 'pat_bench_caldav_slots_0123456789';
const CALDAV_TYPE = '7e57ca1d-0000-4000-8000-000000000001';
const STATIC_TYPE = '7e57ca1d-0000-4000-8000-000000000002';
const MIN = 60_000;
const DAY = 86_400_000;
const WEEK = 7 * DAY;

const windowStart = Math.ceil(Date.now() / DAY) * DAY + DAY;
const windowEnd = windowStart + 31 * DAY;

// Radicale on a free loopback port, with one user and a throwaway store.
const dir = mkdtempSync(join(tmpdir(), 'schedule-bench-caldav-'));
const port = await new Promise((ok, fail) => {
  const probe = createServer();
  probe.once('error', fail);
  probe.listen(0, '127.0.0.1', () => {
    const { port } = probe.address();
    probe.close(() => ok(port));
  });
});
const serverUrl = `http://127.0.0.1:${port}/`;
writeFileSync(join(dir, 'users'), `${USER}:${PASSWORD}\n`);
writeFileSync(
  join(dir, 'config'),
  [
    '[server]',
    `hosts = 127.0.0.1:${port}`,
    '[auth]',
    'type = htpasswd',
    `htpasswd_filename = ${join(dir, 'users')}`,
    'htpasswd_encryption = plain',
    '[storage]',
    `filesystem_folder = ${join(dir, 'store')}`,
    '[logging]',
    'level = warning',
  ].join('\n'),
);
const radicale = spawn('radicale', ['--config', join(dir, 'config')], { stdio: 'ignore' });
const authorization = `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`;
for (let tries = 0; ; tries++) {
  try {
    await fetch(serverUrl, { method: 'OPTIONS' });
    break;
  } catch (error) {
    if (tries > 300) throw error;
    await new Promise((r) => setTimeout(r, 50));
  }
}

// 500 events: 400 single ones over the window, 100 weekly ones that began up to ten weeks before it.
const calendarUrl = `${serverUrl}${USER}/busy/`;
const made = await fetch(calendarUrl, {
  method: 'MKCALENDAR',
  headers: { authorization, 'content-type': 'application/xml' },
  body: '<?xml version="1.0" encoding="utf-8"?><C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:set><D:prop><D:displayname>busy</D:displayname></D:prop></D:set></C:mkcalendar>',
});
if (made.status !== 201) throw new Error(`MKCALENDAR answered ${made.status}`);
let seed = 17;
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};
const stamp = (ms) => `${new Date(ms).toISOString().slice(0, 19).replace(/[-:]/g, '')}Z`;
const objects = [];
for (let i = 0; i < 500; i++) {
  const weekly = i < 100;
  const start = weekly
    ? windowStart - Math.floor(random() * 10 + 1) * WEEK + Math.floor(random() * 7 * 48) * 30 * MIN
    : windowStart + Math.floor(random() * 31 * 24 * 4) * 15 * MIN;
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//schedule bench//EN',
    'BEGIN:VEVENT',
    `UID:bench-${i}@bench.test`,
    `DTSTAMP:${stamp(windowStart - WEEK)}`,
    `DTSTART:${stamp(start)}`,
    `DTEND:${stamp(start + (weekly ? 30 : 45) * MIN)}`,
    `SUMMARY:Event ${i}`,
    ...(weekly ? ['RRULE:FREQ=WEEKLY'] : []),
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ];
  objects.push([`${calendarUrl}event-${i}.ics`, lines.join('\r\n')]);
}
for (let i = 0; i < objects.length; i += 10) {
  await Promise.all(
    objects.slice(i, i + 10).map(async ([url, body]) => {
      const put = await fetch(url, { method: 'PUT', headers: { authorization, 'content-type': 'text/calendar' }, body });
      if (put.status !== 201) throw new Error(`PUT answered ${put.status}`);
    }),
  );
}

// A clock the bench can move past the cache's lifetime.
let offsetMs = 0;
const clock = { now: () => Date.now() + offsetMs };
const caldavCalendar = { kind: 'caldav', url: serverUrl, username: USER, password_env: 'BENCH_CALDAV_PASSWORD', book_into: null };
const readerOf = () =>
  core.calDavBusyReader({
    clock,
    connector: core.calDavConnector({ clock, passwordOf: core.calDavPasswords({ env: { BENCH_CALDAV_PASSWORD: PASSWORD } }) }),
  });

// The floor's busy intervals are what the CalDAV calendar gives, read once by a reader of its own.
const busy = (await readerOf()(caldavCalendar, { startMs: windowStart - DAY, endMs: windowEnd + DAY }, 'UTC')).map((b) => ({
  start: new Date(b.startMs).toISOString(),
  end: new Date(b.endMs).toISOString(),
}));

const everyDay = Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [['07:00', '19:00']]]));
const host = (username, calendars) => ({
  username,
  email: `${username}@bench.test`,
  role: 'owner',
  timezone: 'UTC',
  schedule: { timezone: 'UTC', weekly: everyDay },
  calendars,
});
const eventType = (id, owner) => ({
  id,
  owner,
  slug: 'call',
  name: 'Call',
  duration_minutes: 15,
  slot_interval_minutes: 15,
  future_limit_days: 60,
});
const workspace = {
  users: [host('caldav', [caldavCalendar]), { ...host('floor', [{ kind: 'static', busy }]), role: 'user' }],
  event_types: [eventType(CALDAV_TYPE, 'caldav'), eventType(STATIC_TYPE, 'floor')],
  tokens: [
    { name: 'caldav', user: 'caldav', secret, scopes: ['slots:read'] },
    { name: 'floor', user: 'floor', secret: `${secret}_floor`, scopes: ['slots:read'] },
  ],
};

const store = await core.openStore(':memory:');
await core.loadWorkspace({ store, clock, ids: core.randomIds }, core.parseWorkspace(JSON.stringify(workspace)));
const deps = benchDeps(
  store,
  clock,
  core.createCalendarReader(async () => [], readerOf()),
);
const principals = {
  [CALDAV_TYPE]: await core.authenticate({ store, clock }, secret),
  [STATIC_TYPE]: await core.authenticate({ store, clock }, `${secret}_floor`),
};
const timed = (eventTypeId) => timedSlots(deps, principals[eventTypeId], eventTypeId, windowStart, windowEnd);

// The server's own share of a read: the same REPORT the reader sends (its window), timed alone.
const reportStart = performance.now();
const report_ = await fetch(calendarUrl, {
  method: 'REPORT',
  headers: { authorization, depth: '1', 'content-type': 'application/xml' },
  body: `<?xml version="1.0" encoding="utf-8"?><c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/><c:calendar-data/></d:prop><c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VEVENT"><c:time-range start="${stamp(Date.now() - 2 * DAY)}" end="${stamp(Date.now() + 93 * DAY)}"/></c:comp-filter></c:comp-filter></c:filter></c:calendar-query>`,
});
const reportBytes = (await report_.arrayBuffer()).byteLength;
const serverReportMs = performance.now() - reportStart;

const first = await timed(CALDAV_TYPE);
offsetMs += 61_000;
const expired = await timed(CALDAV_TYPE);
const floorFirst = await timed(STATIC_TYPE);
if (JSON.stringify(first.slots) !== JSON.stringify(floorFirst.slots))
  throw new Error('the CalDAV host and the static host have different slots');

const {
  measured: cached,
  floor,
  ratio,
} = await interleaved(
  ROUNDS,
  () => timed(CALDAV_TYPE),
  () => timed(STATIC_TYPE),
);
await store.close();
await new Promise((done) => {
  radicale.once('exit', done);
  radicale.kill('SIGTERM');
});
rmSync(dir, { recursive: true, force: true });

const report = {
  benchmark:
    'list_slots over 31 days, conflict calendar on CalDAV (Radicale, 500 events, 100 weekly) vs the same busy times in a static calendar',
  slots_listed: first.slots.length,
  busy_intervals: busy.length,
  first_call_ms: Math.round(first.ms * 1000) / 1000,
  after_cache_expired_ms: Math.round(expired.ms * 1000) / 1000,
  server_report_alone_ms: Math.round(serverReportMs * 1000) / 1000,
  server_report_bytes: reportBytes,
  cached,
  static: floor,
  ratio_cached_to_static_p50: ratio,
  target_ratio: 1.5,
};
writeReport('caldav-slots', report);
process.stdout.write(
  `caldav slots (31 days, 500 events): first ${report.first_call_ms} ms, expired cache ${report.after_cache_expired_ms} ms; cached p50 ${cached.p50Ms} ms p99 ${cached.p99Ms} ms; static p50 ${floor.p50Ms} ms p99 ${floor.p99Ms} ms; ratio ${report.ratio_cached_to_static_p50} (target <= 1.5)\n`,
);
