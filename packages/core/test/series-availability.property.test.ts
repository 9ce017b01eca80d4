import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../src/auth/principal.js';
import { ScheduleError } from '../src/errors.js';
import type { ExecuteDeps } from '../src/operations/execute.js';
import type { Store } from '../src/storage/store.js';
import { checkSlot } from './support/booking-calls.js';
import { type GeneratedHostsWorld, openGeneratedHostsWorld } from './support/generated-hosts.js';
import { createSeries } from './support/series-calls.js';
import { storeFixtures } from './support/stores.js';

// Issue 12: a new series agrees with the slot check. Every date it skips is
// one a check would refuse, and every occurrence it books one a check would
// accept, in the state before the series (its own occurrences taken away
// again). Pattern times (in the host's zone) and working hours lie on half
// hours and the event type's grid is 30 minutes, so the grid, which a series
// does not follow, never tells them apart.

const T0 = '2026-03-02T06:00:00.000Z';
const ZONES = ['UTC', 'Europe/Berlin', 'America/St_Johns', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'America/New_York'] as const;
const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

const halfHour = (n: number) => `${String(Math.floor(n / 2)).padStart(2, '0')}:${n % 2 === 0 ? '00' : '30'}`;
const hours = fc
  .tuple(fc.integer({ min: 0, max: 47 }), fc.integer({ min: 1, max: 48 }))
  .map(([from, length]) => [halfHour(from), from + length >= 48 ? '24:00' : halfHour(from + length)]);

const host = fc.record({
  zone: fc.constantFrom(...ZONES),
  weekly: fc.option(fc.dictionary(fc.constantFrom(...WEEKDAYS), fc.array(hours, { maxLength: 3 })), { freq: 4 }),
  busy: fc.array(fc.tuple(fc.integer({ min: 0, max: 40 * 48 }), fc.integer({ min: 1, max: 16 })), { maxLength: 6 }),
});

const eventType = fc.record({
  duration_minutes: fc.constantFrom(30, 60, 90),
  minimum_notice_minutes: fc.constantFrom(0, 60, 24 * 60),
  future_limit_days: fc.integer({ min: 7, max: 60 }),
  buffer_before_minutes: fc.constantFrom(0, 0, 15),
});

const series = fc.record({
  weekdays: fc.uniqueArray(fc.constantFrom(...WEEKDAYS), { minLength: 1, maxLength: 3 }),
  time: fc.integer({ min: 0, max: 47 }).map(halfHour),
  startsOnDay: fc.integer({ min: 0, max: 20 }),
  count: fc.integer({ min: 1, max: 8 }),
});

describe.each(storeFixtures())('a new series agrees with the slot check on $name (issue 12)', (fixture) => {
  let store: Store;
  let deps: ExecuteDeps;
  let owner: Principal;
  let load: GeneratedHostsWorld['load'];
  let n = 0;
  /** How many occurrences and skipped dates were checked: the property must not hold vacuously. */
  const seen = { booked: 0, skipped: 0 };

  beforeAll(async () => {
    ({ store, deps, owner, load } = await openGeneratedHostsWorld(await fixture.open(), T0, ['series:write', 'series:read', 'slots:read']));
  });
  afterAll(() => fixture.cleanup());

  it('skipped dates are refused by check, occurrences accepted', async () => {
    await fc.assert(
      fc.asyncProperty(host, eventType, series, async (h, et, s) => {
        // Each case has a host and an event type of its own, added to the same workspace.
        const username = `h${++n}`;
        const eventTypeId = `5e000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
        const origin = Date.parse(T0);
        await load({
          users: [
            {
              username,
              email: `${username}@example.test`,
              timezone: h.zone,
              ...(h.weekly ? { schedule: { timezone: h.zone, weekly: h.weekly } } : {}),
              calendars: [
                {
                  kind: 'static',
                  busy: h.busy.map(([at, length]) => ({
                    start: new Date(origin + at * 1_800_000).toISOString(),
                    end: new Date(origin + (at + length) * 1_800_000).toISOString(),
                  })),
                },
              ],
            },
          ],
          event_types: [{ id: eventTypeId, owner: username, slug: 'call', name: 'Call', slot_interval_minutes: 30, ...et }],
        });
        const body = {
          host_user_id: (await store.db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id,
          event_type_id: eventTypeId,
          attendee: { email: 'kim@example.com' },
          frequency: 'weekly',
          weekdays: s.weekdays,
          time: s.time,
          // The host's own zone: its pattern times then lie on the host's half-hour grid.
          timezone: h.zone,
          starts_on: new Date(origin + s.startsOnDay * 86_400_000).toISOString().slice(0, 10),
          count: s.count,
        };
        let booked: string[] = [];
        let skipped: string[];
        try {
          const created = (await createSeries(deps, owner, body)).outcome.data as {
            occurrences: { start_at: string }[];
            skipped: { start_at: string }[];
          };
          booked = created.occurrences.map((o) => o.start_at);
          skipped = created.skipped.map((o) => o.start_at);
        } catch (error) {
          if (!(error instanceof ScheduleError) || error.code !== 'no_dates_free') throw error;
          skipped = (error.details.skipped as { start_at: string }[]).map((o) => o.start_at);
        }
        // The state before the series: its occurrences taken away again.
        await store.db.deleteFrom('bookings').where('event_type_id', '=', eventTypeId).execute();
        const available = async (start: string) =>
          ((await checkSlot(deps, owner, { event_type_id: eventTypeId, start })).outcome.data as { available: boolean }).available;
        seen.booked += booked.length;
        seen.skipped += skipped.length;
        for (const start of booked) expect({ start, available: await available(start) }).toEqual({ start, available: true });
        for (const start of skipped) expect({ start, available: await available(start) }).toEqual({ start, available: false });
      }),
      { numRuns: Number(process.env.SERIES_TRUTH_RUNS ?? 60), seed: 20261124 },
    );
    expect(seen.booked).toBeGreaterThan(20);
    expect(seen.skipped).toBeGreaterThan(20);
  }, 60_000);
});
