import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Interval } from '../src/availability/busy.js';
import { type CalendarReader, CalendarUnreadable } from '../src/availability/calendar-reader.js';
import { blockingBookings, calendarBusy, loadHostTime } from '../src/availability/load-host-time.js';
import { manualClock } from '../src/clock.js';
import { ScheduleError } from '../src/errors.js';
import type { HostRecord } from '../src/event-types/resolve-event-type.js';
import type { Store } from '../src/storage/store.js';
import { HANA, loadBookingWorkspace, T0 } from './support/booking-workspace.js';
import { scheduleErrorOf } from './support/errors.js';
import { POLICY } from './support/slot-policy.js';
import { storeFixtures } from './support/stores.js';

const ms = (iso: string) => Date.parse(iso);
const span = (from: string, to: string, bookingUid?: string): Interval => ({
  startMs: ms(from),
  endMs: ms(to),
  ...(bookingUid === undefined ? {} : { bookingUid }),
});
const uid = (n: number) => `70000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** Hana's bookings (30-minute "meet" unless said), one of them canceled, and one of Ivan's. */
const EARLY = uid(1); // 09:35–10:05
const LATER = uid(2); // 11:00–11:30
const LONG = uid(3); // 13:00–14:00 ("long")
const CANCELED = uid(4); // 15:00, canceled
const IVANS = uid(5); // Ivan's, 16:00–17:00 ("long")
const HOST: HostRecord = {
  id: HANA,
  username: 'hana',
  email: 'hana@acme.test',
  name: 'Hana Host',
  timezone: 'UTC',
  schedule: null,
  calendars: [],
  reminders: true,
};

const readerOf = (busy: Interval[]): CalendarReader => ({ busy: async () => busy });

describe.each(storeFixtures())('host time on $name', (fixture) => {
  let store: Store;
  const clock = manualClock(T0);

  beforeAll(async () => {
    store = await fixture.open();
    await loadBookingWorkspace({ store, clock }, [
      { uid: EARLY, host: 'hana', slug: 'meet', start: '2026-03-03T09:35:00Z' },
      { uid: LATER, host: 'hana', slug: 'meet', start: '2026-03-03T11:00:00Z' },
      { uid: LONG, host: 'hana', slug: 'long', start: '2026-03-03T13:00:00Z' },
      { uid: CANCELED, host: 'hana', slug: 'meet', start: '2026-03-03T15:00:00Z', status: 'canceled' },
      { uid: IVANS, host: 'ivan', slug: 'long', start: '2026-03-03T16:00:00Z' },
    ]);
  }, 60_000);
  afterAll(() => fixture.cleanup());

  describe('blockingBookings', () => {
    const bookings = (from: string, to: string, exceptUid?: string) =>
      blockingBookings(store.db, HANA, { startMs: ms(from), endMs: ms(to) }, ms(T0), exceptUid);

    it("gives the host's confirmed bookings that overlap the window, one that began before it included", async () => {
      expect(await bookings('2026-03-03T13:30:00Z', '2026-03-03T17:00:00Z')).toEqual([
        span('2026-03-03T13:00:00.000Z', '2026-03-03T14:00:00.000Z'),
      ]);
    });

    it('leaves out bookings that only touch the window (half-open)', async () => {
      expect(await bookings('2026-03-03T10:05:00Z', '2026-03-03T11:00:00Z')).toEqual([]);
    });

    it('leaves out the booking being moved', async () => {
      expect(await bookings('2026-03-03T09:00:00Z', '2026-03-03T12:00:00Z', EARLY)).toEqual([
        span('2026-03-03T11:00:00.000Z', '2026-03-03T11:30:00.000Z'),
      ]);
    });
  });

  describe('calendarBusy', () => {
    const WINDOW = { startMs: ms('2026-03-03T00:00:00Z'), endMs: ms('2026-03-04T00:00:00Z') };

    it("leaves out the events this service wrote for the host's own bookings, canceled ones included, and keeps every other", async () => {
      const busy = [
        span('2026-03-03T09:35:00Z', '2026-03-03T10:05:00Z', EARLY),
        span('2026-03-03T15:00:00Z', '2026-03-03T15:30:00Z', CANCELED),
        // An invite the host accepted: the event of someone else's booking still counts.
        span('2026-03-03T16:00:00Z', '2026-03-03T16:30:00Z', IVANS),
        span('2026-03-03T17:00:00Z', '2026-03-03T17:30:00Z', uid(99)),
        span('2026-03-03T18:00:00Z', '2026-03-03T19:00:00Z'),
      ];
      expect(await calendarBusy({ db: store.db, calendars: readerOf(busy) }, HOST, WINDOW)).toEqual(busy.slice(2));
    });

    it('finds the own bookings among more claimed events than one statement may name (40,000, read 500 at a time)', async () => {
      // More parameters than SQLite allows in one statement (32,766), and a whole number of 500s.
      const others = Array.from({ length: 39_999 }, (_, i) => span('2026-03-03T20:00:00Z', '2026-03-03T20:30:00Z', uid(1000 + i)));
      const busy = [...others.slice(0, 20_000), span('2026-03-03T11:00:00Z', '2026-03-03T11:30:00Z', LATER), ...others.slice(20_000)];
      expect(await calendarBusy({ db: store.db, calendars: readerOf(busy) }, HOST, WINDOW)).toEqual(others);
    });

    it('answers a calendar that cannot be read with 503 availability_unavailable, retry after 30 seconds', async () => {
      const unreadable: CalendarReader = {
        busy: async () => {
          throw new CalendarUnreadable('feed down');
        },
      };
      expect(await scheduleErrorOf(calendarBusy({ db: store.db, calendars: unreadable }, HOST, WINDOW))).toEqual({
        code: 'availability_unavailable',
        message: "The host's conflict calendar could not be read; nothing was booked. Retry with the same Idempotency-Key.",
        details: {},
        retryAfterSeconds: 30,
      });
    });

    it('keeps the unreadable calendar as the cause of the 503, for the log', async () => {
      const unread = new CalendarUnreadable('feed down');
      const reader: CalendarReader = {
        busy: async () => {
          throw unread;
        },
      };
      const failure = await calendarBusy({ db: store.db, calendars: reader }, HOST, WINDOW).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(ScheduleError);
      expect((failure as ScheduleError).cause).toBe(unread);
    });

    it('lets any other failure of the reader through unchanged', async () => {
      const failure = new Error('reader bug');
      const broken: CalendarReader = {
        busy: async () => {
          throw failure;
        },
      };
      await expect(calendarBusy({ db: store.db, calendars: broken }, HOST, WINDOW)).rejects.toBe(failure);
    });
  });

  describe('loadHostTime', () => {
    // 10:45–11:00 with 15 minutes before, 10 after and 30 of meeting: read from 09:50 to 11:55.
    const RANGE = { startMs: ms('2026-03-03T10:45:00Z'), endMs: ms('2026-03-03T11:00:00Z') };
    const BUFFERED = { ...POLICY, bufferBeforeMinutes: 15, bufferAfterMinutes: 10 };
    const deps = (busy: Interval[] = []) => ({ db: store.db, clock, calendars: readerOf(busy) });

    it('reads bookings and calendars as far either side as buffers and duration reach, merged, with the policy, schedule, zone and now', async () => {
      const time = await loadHostTime(deps([span('2026-03-03T10:05:00Z', '2026-03-03T10:20:00Z')]), BUFFERED, HOST, RANGE);
      expect(time).toEqual({
        policy: BUFFERED,
        schedule: null,
        zone: 'UTC',
        busy: [span('2026-03-03T09:35:00.000Z', '2026-03-03T10:20:00.000Z'), span('2026-03-03T11:00:00.000Z', '2026-03-03T11:30:00.000Z')],
        nowMs: ms(T0),
      });
    });

    it('leaves the bookings out when told to, and the one being moved', async () => {
      expect((await loadHostTime(deps(), BUFFERED, HOST, RANGE, { withBookings: false })).busy).toEqual([]);
      expect((await loadHostTime(deps(), BUFFERED, HOST, RANGE, { exceptBookingUid: LATER })).busy).toEqual([
        span('2026-03-03T09:35:00.000Z', '2026-03-03T10:05:00.000Z'),
      ]);
    });
  });
});
