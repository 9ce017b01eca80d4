import fc from 'fast-check';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getPage, timesShown } from './support/booking-page.js';
import { api } from './support/http.js';
import { movableClock, startInProcess } from './support/in-process.js';
import { type TestServer, writeWorkspace } from './support/serve.js';

// Property: the times the booking page lists for a day, in the visitor's
// zone, are exactly the `slots[].start` that `GET /v1/slots` answers for
// that local day in that zone. The page asks for whole months in two
// halves and groups the answer by local date (packages/page/src/month.ts);
// the API is asked for the one day. Hosts are generated (zone, working
// hours, notice, buffers, interval, future limit, bookings already made),
// and so are the visitor's zone and day, around the DST changes of March
// and April 2030 and with zones far from UTC or off the hour. The clock is
// pinned, so the days are the same whatever day the suite runs.

const NOW = Date.parse('2030-03-08T13:17:00.000Z');
const FIRST_DAY = DateTime.fromISO('2030-03-07', { zone: 'UTC' });
const DAYS = 38;
const HOSTS = 25;
const TOKEN = 'page-slots-owner-secret';

/** Zones with DST changes in the window (US 10 March, EU 31 March, AU and NZ 7 April), far offsets and off-the-hour ones. */
const ZONES = [
  'UTC',
  'America/New_York',
  'America/Los_Angeles',
  'Europe/Berlin',
  'Europe/London',
  'Australia/Sydney',
  'Pacific/Auckland',
  'Pacific/Chatham',
  'Pacific/Kiritimati',
  'Pacific/Pago_Pago',
  'America/St_Johns',
  'Asia/Kathmandu',
  'Asia/Kolkata',
  'Australia/Lord_Howe',
  'America/Santiago',
] as const;

/** Days (from FIRST_DAY) of a DST change, its eve, or the 16th: 10, 16, 31 March, 1, 7 April. */
const HARD_DAYS = [2, 3, 8, 9, 24, 25, 31] as const;

const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

const hhmm = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** A day's working intervals: up to two, on the quarter hour, possibly reaching midnight. */
const dayHours = fc
  .uniqueArray(fc.integer({ min: 0, max: 96 }), { minLength: 0, maxLength: 4 })
  .map((marks) => [...marks].sort((a, b) => a - b))
  .map((marks) => {
    const intervals: [string, string][] = [];
    for (let i = 0; i + 1 < marks.length; i += 2)
      intervals.push([hhmm(marks[i]! * 15), marks[i + 1] === 96 ? '24:00' : hhmm(marks[i + 1]! * 15)]);
    return intervals;
  });

const hostArb = fc.record({
  zone: fc.constantFrom(...ZONES),
  weekly: fc.tuple(...WEEKDAYS.map(() => dayHours)),
  duration: fc.constantFrom(15, 30, 45, 60, 90),
  interval: fc.constantFrom(10, 15, 20, 30, 60),
  notice: fc.constantFrom(0, 60, 240, 1440, 2880),
  futureDays: fc.integer({ min: 3, max: 40 }),
  bufferBefore: fc.constantFrom(0, 0, 10, 15, 30),
  bufferAfter: fc.constantFrom(0, 0, 5, 15, 60),
  /** Bookings already made: quarter hours from the first day, and how long each is. */
  bookings: fc.array(fc.record({ quarter: fc.integer({ min: 0, max: DAYS * 96 }), minutes: fc.constantFrom(15, 30, 60, 120) }), {
    maxLength: 12,
  }),
});
type HostSpec = typeof hostArb extends fc.Arbitrary<infer T> ? T : never;

// The hosts are drawn once, from a fixed seed, into the workspace (a file
// cannot be changed per run); the property then draws a host, a visitor
// zone and a day for each run.
const hosts: HostSpec[] = fc.sample(hostArb, { seed: 20300308, numRuns: HOSTS });

const userId = (i: number) => `e7000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`;
const typeId = (i: number) => `e7100000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`;

function workspace() {
  const users = hosts.map((h, i) => ({
    id: userId(i),
    username: `host${i}`,
    email: `host${i}@slots.test`,
    name: `Host ${i}`,
    timezone: h.zone,
    role: i === 0 ? 'owner' : 'user',
    schedule: {
      timezone: h.zone,
      weekly: Object.fromEntries(WEEKDAYS.map((d, k) => [d, h.weekly[k]]).filter(([, v]) => (v as unknown[]).length > 0)),
    },
  }));
  const eventTypes = hosts.map((h, i) => ({
    id: typeId(i),
    owner: `host${i}`,
    slug: 'meet',
    name: `Meet ${i}`,
    duration_minutes: h.duration,
    slot_interval_minutes: h.interval,
    minimum_notice_minutes: h.notice,
    future_limit_days: h.futureDays,
    buffer_before_minutes: h.bufferBefore,
    buffer_after_minutes: h.bufferAfter,
  }));
  const bookings = hosts.flatMap((h, i) =>
    h.bookings.map((b, k) => ({
      uid: `e7200000-0000-4000-8${String(i).padStart(3, '0')}-${String(k + 1).padStart(12, '0')}`,
      event_type: 'meet',
      host: `host${i}`,
      start: FIRST_DAY.plus({ minutes: b.quarter * 15 })
        .toUTC()
        .toISO(),
      end: FIRST_DAY.plus({ minutes: b.quarter * 15 + b.minutes })
        .toUTC()
        .toISO(),
      attendee: { email: `guest${k}@example.com`, name: `Guest ${k}`, timezone: 'UTC' },
      status: 'confirmed',
    })),
  );
  return {
    organization: { name: 'Page slots' },
    limits: { pat_per_minute: 100_000, anonymous_per_minute: 100_000 },
    users,
    event_types: eventTypes,
    tokens: [{ name: 'owner', user: 'host0', secret: TOKEN, scopes: ['slots:read', 'bookings:read'] }],
    bookings,
  };
}

let server: TestServer;

beforeAll(async () => {
  const clock = movableClock();
  clock.set(NOW);
  server = await startInProcess({ workspace: writeWorkspace(workspace()), clock });
});
afterAll(() => server?.stop());

/** The starts the API lists for one local day of a zone. */
async function apiDay(host: number, date: string, zone: string): Promise<string[]> {
  const start = DateTime.fromISO(date, { zone });
  const query = new URLSearchParams({
    username: `host${host}`,
    event_slug: 'meet',
    start: start.toUTC().toISO()!,
    end: start.plus({ days: 1 }).toUTC().toISO()!,
    timezone: zone,
  });
  const res = await api(server.url, `/v1/slots?${query}`, { token: TOKEN });
  expect(res.status, res.text.slice(0, 300)).toBe(200);
  return (res.body.data.slots as { start: string }[]).map((s) => s.start);
}

/** The starts the page lists for that day (the fragment a script swaps in). */
async function pageDay(host: number, date: string, zone: string): Promise<string[]> {
  const query = new URLSearchParams({ month: date.slice(0, 7), date, tz: zone, fragment: '1' });
  const res = await getPage(server.url, `/@host${host}/meet?${query}`);
  expect(res.status, res.text.slice(0, 300)).toBe(200);
  expect(res.text.startsWith('<div id="calendar"')).toBe(true);
  return timesShown(res.text);
}

describe('the page’s times for a day are the API’s slots for that day', () => {
  it('for generated hosts, visitor zones and days (25 runs)', async () => {
    let nonEmpty = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: HOSTS - 1 }),
        fc.constantFrom(...ZONES),
        // Any day, or more often one where a DST change or the month's halves (the 16th) fall.
        fc.oneof({ arbitrary: fc.integer({ min: 0, max: DAYS - 1 }), weight: 2 }, { arbitrary: fc.constantFrom(...HARD_DAYS), weight: 1 }),
        async (host, zone, day) => {
          const date = FIRST_DAY.plus({ days: day }).toISODate()!;
          const [shown, listed] = await Promise.all([pageDay(host, date, zone), apiDay(host, date, zone)]);
          expect(shown).toEqual(listed);
          if (listed.length > 0) nonEmpty++;
        },
      ),
      { numRuns: 25, seed: Number(process.env.FC_SEED ?? 33) },
    );
    // The property says something only if some days have times.
    expect(nonEmpty).toBeGreaterThan(0);
  });

  it('on the days a DST change or a far offset makes hard', async () => {
    // Every host with hours, each zone, on the US and EU change days and the days either side of the first.
    const cases = ['2030-03-10', '2030-03-31', '2030-04-07', '2030-03-16', '2030-03-15', '2030-04-01'].flatMap((date) =>
      ZONES.map((zone, k) => ({ host: (k * 7 + date.charCodeAt(9)) % HOSTS, date, zone })),
    );
    let nonEmpty = 0;
    for (const { host, date, zone } of cases) {
      const [shown, listed] = await Promise.all([pageDay(host, date, zone), apiDay(host, date, zone)]);
      expect(shown, `host${host} ${date} ${zone}`).toEqual(listed);
      if (listed.length > 0) nonEmpty++;
    }
    expect(nonEmpty).toBeGreaterThan(cases.length / 4);
  });
});
