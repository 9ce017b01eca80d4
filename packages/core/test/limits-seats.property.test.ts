import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../src/auth/principal.js';
import { isScheduleError } from '../src/errors.js';
import type { ExecuteDeps } from '../src/operations/execute.js';
import type { Store } from '../src/storage/store.js';
import { cancelBooking, checkSlot, createBooking, listSlots } from './support/booking-calls.js';
import { type GeneratedHostsWorld, openGeneratedHostsWorld } from './support/generated-hosts.js';
import { storeFixtures } from './support/stores.js';

// Issue 34 part 3, the availability truth with limits and seats: for a
// generated host and event type with seats and day and week limits, a run of
// creates and cancels in which, before each step, a start is listed exactly
// when check calls it available, and then the create succeeds; a start not
// listed is refused. Bookings stay, so seats fill and limits are reached;
// after the run no start holds more attendees than seats, and no day or
// week more starts than its limit.

const T0 = '2026-03-27T00:00:00.000Z';
const FIVE_MINUTES = 300_000;
const ZONES = ['UTC', 'Europe/Berlin', 'America/St_Johns'] as const;

const world = fc.record({
  zone: fc.constantFrom(...ZONES),
  // Working hours every day (or around the clock), so the few days of a window have many starts.
  hours: fc.option(fc.constantFrom(['09:00', '17:00'], ['22:00', '24:00'], ['00:00', '03:00']), { freq: 3 }),
  duration: fc.constantFrom(15, 30, 60),
  interval: fc.constantFrom(15, 30, 60),
  buffer: fc.constantFrom(0, 15),
  seats: fc.option(fc.integer({ min: 2, max: 3 })),
  perDay: fc.option(fc.integer({ min: 1, max: 3 })),
  perWeek: fc.option(fc.integer({ min: 2, max: 5 })),
  // After now: a booking that starts now cannot be canceled (booking_in_past).
  from: fc.integer({ min: 1, max: 4 * 288 }),
  length: fc.integer({ min: 12, max: 3 * 288 }),
  // Each step: a point in the window to probe (or a listed start, to fill seats), or a cancel.
  steps: fc.array(
    fc.oneof(
      fc.record({ probe: fc.double({ min: 0, max: 1, noNaN: true }) }),
      fc.record({ listed: fc.nat(5) }),
      fc.record({ again: fc.nat() }),
      fc.record({ cancel: fc.nat() }),
    ),
    {
      minLength: 4,
      maxLength: 12,
    },
  ),
});

const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
const iso = (ms: number) => new Date(ms).toISOString();

describe.each(storeFixtures())('list, check and create agree with limits and seats on $name (issue 34)', (fixture) => {
  let store: Store;
  let deps: ExecuteDeps;
  let owner: Principal;
  let load: GeneratedHostsWorld['load'];
  let n = 0;
  const seen = { booked: 0, refused: 0, joined: 0, limited: 0 };

  beforeAll(async () => {
    ({ store, deps, owner, load } = await openGeneratedHostsWorld(await fixture.open(), T0, [
      'bookings:create',
      'bookings:cancel',
      'slots:read',
    ]));
  });
  afterAll(() => fixture.cleanup());

  it('a start is listed exactly when check says available, and then it books; seats and limits are never passed', async () => {
    await fc.assert(
      fc.asyncProperty(world, async (w) => {
        const username = `l${++n}`;
        const eventTypeId = `7e100000-0000-4000-8000-${String(n).padStart(12, '0')}`;
        await load({
          users: [
            {
              username,
              email: `${username}@example.test`,
              timezone: w.zone,
              ...(w.hours ? { schedule: { timezone: w.zone, weekly: Object.fromEntries(WEEKDAYS.map((d) => [d, [w.hours]])) } } : {}),
            },
          ],
          event_types: [
            {
              id: eventTypeId,
              owner: username,
              slug: 'call',
              name: 'Call',
              duration_minutes: w.duration,
              slot_interval_minutes: w.interval,
              future_limit_days: 10,
              buffer_after_minutes: w.buffer,
              seats: w.seats,
              max_bookings_per_day: w.perDay,
              max_bookings_per_week: w.perWeek,
            },
          ],
        });
        const origin = Date.parse(T0);
        const window = { startMs: origin + w.from * FIVE_MINUTES, endMs: origin + (w.from + w.length) * FIVE_MINUTES };
        const booked: string[] = [];
        const bookedAt: number[] = [];
        for (const [i, step] of w.steps.entries()) {
          if ('cancel' in step) {
            const uid = booked.splice(step.cancel % Math.max(1, booked.length), 1)[0];
            if (uid !== undefined) await cancelBooking(deps, owner, uid, {}, `c-${n}-${i}`);
            continue;
          }
          const slots = (
            (await listSlots(deps, owner, { event_type_id: eventTypeId, start: iso(window.startMs), end: iso(window.endMs) })).outcome
              .data as {
              slots: { start: string; seats_left?: number }[];
            }
          ).slots;
          const listed = slots.map((s) => Date.parse(s.start));
          // Seats left are shown exactly on a seated type.
          for (const s of slots) expect(s.seats_left === undefined).toBe(w.seats === null);
          // A start booked before (a seat group filling, a day at its limit), a listed one, or any point.
          const t =
            'again' in step && bookedAt.length > 0
              ? bookedAt[step.again % bookedAt.length]!
              : 'listed' in step && listed.length > 0
                ? listed[step.listed % listed.length]!
                : window.startMs + Math.floor(('probe' in step ? step.probe : 0) * w.length) * FIVE_MINUTES;
          const isListed = listed.includes(t);
          const check = (await checkSlot(deps, owner, { event_type_id: eventTypeId, start: iso(t) })).outcome.data as {
            available: boolean;
            reason?: string;
          };
          expect({ start: iso(t), available: check.available }).toEqual({ start: iso(t), available: isListed });
          let outcome: { status: number; uid?: string } | { code: string; reason: unknown };
          try {
            const made = (
              await createBooking(
                deps,
                owner,
                { event_type_id: eventTypeId, start: iso(t), attendee: { email: `p${i}@example.com` } },
                `k-${n}-${i}`,
              )
            ).outcome;
            outcome = { status: made.status, uid: (made.data as { uid: string }).uid };
          } catch (error) {
            if (!isScheduleError(error)) throw error;
            outcome = { code: error.code, reason: (error.details as { reason?: unknown }).reason };
          }
          if (isListed) {
            expect({ start: iso(t), status: 'status' in outcome ? outcome.status : outcome }).toEqual({ start: iso(t), status: 201 });
            booked.push((outcome as { uid: string }).uid);
            bookedAt.push(t);
            seen.booked++;
            if (slots.find((s) => Date.parse(s.start) === t)!.seats_left! < (w.seats ?? 0)) seen.joined++;
          } else {
            // The reason of the create is the reason check gave.
            expect({ start: iso(t), outcome }).toEqual({ start: iso(t), outcome: { code: 'slot_unavailable', reason: check.reason } });
            seen.refused++;
          }
        }
        await expectWithinCapacity(store, eventTypeId, w);
      }),
      { numRuns: Number(process.env.LIMITS_SEATS_RUNS ?? 40), seed: 20261127 },
    );
    expect(seen.booked).toBeGreaterThan(20);
    expect(seen.refused).toBeGreaterThan(10);
    expect(seen.joined).toBeGreaterThan(3);
  }, 120_000);
});

/** After a run: no start with more attendees than seats, no day or ISO week with more starts than its limit (in the host's zone). */
async function expectWithinCapacity(
  store: Store,
  eventTypeId: string,
  w: { zone: string; seats: number | null; perDay: number | null; perWeek: number | null },
): Promise<void> {
  const rows = await store.db
    .selectFrom('bookings')
    .select('start_at')
    .where('event_type_id', '=', eventTypeId)
    .where('status', '=', 'confirmed')
    .execute();
  const perStart = new Map<string, number>();
  for (const r of rows) perStart.set(r.start_at, (perStart.get(r.start_at) ?? 0) + 1);
  for (const count of perStart.values()) expect(count).toBeLessThanOrEqual(w.seats ?? 1);
  const day = (ms: number) =>
    new Intl.DateTimeFormat('en-CA', { timeZone: w.zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(ms);
  const perDay = new Map<string, number>();
  const perWeek = new Map<string, number>();
  for (const start of perStart.keys()) {
    const ms = Date.parse(start);
    const d = day(ms);
    perDay.set(d, (perDay.get(d) ?? 0) + 1);
    const weekday = (new Date(`${d}T00:00:00Z`).getUTCDay() + 6) % 7;
    const monday = new Date(Date.parse(`${d}T00:00:00Z`) - weekday * 86_400_000).toISOString().slice(0, 10);
    perWeek.set(monday, (perWeek.get(monday) ?? 0) + 1);
  }
  if (w.perDay !== null) for (const c of perDay.values()) expect(c).toBeLessThanOrEqual(w.perDay);
  if (w.perWeek !== null) for (const c of perWeek.values()) expect(c).toBeLessThanOrEqual(w.perWeek);
}
