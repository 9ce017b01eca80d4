import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../src/auth/principal.js';
import { isScheduleError } from '../src/errors.js';
import type { ExecuteDeps } from '../src/operations/execute.js';
import type { Store } from '../src/storage/store.js';
import { checkSlot, createBooking, listSlots } from './support/booking-calls.js';
import { type GeneratedHostsWorld, openGeneratedHostsWorld } from './support/generated-hosts.js';
import { storeFixtures } from './support/stores.js';

// Issue 12, through the operations every front end calls: for a generated
// host, event type and window, a start is listed exactly when check calls it
// available, and then POST /v1/bookings at it succeeds; a start not listed is
// refused. (availability-truth.property.test.ts searches the same rules far
// more widely in memory; this one proves the operations use them.)

const T0 = '2026-03-27T00:00:00.000Z';
const FIVE_MINUTES = 300_000;
const ZONES = ['UTC', 'Europe/Berlin', 'America/St_Johns', 'Australia/Lord_Howe', 'America/New_York'] as const;
const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

const hhmm = (steps: number) => `${String(Math.floor(steps / 12)).padStart(2, '0')}:${String((steps % 12) * 5).padStart(2, '0')}`;
const written = fc
  .tuple(fc.integer({ min: 0, max: 287 }), fc.integer({ min: 1, max: 288 }))
  .map(([from, length]) => [hhmm(from), from + length >= 288 ? '24:00' : hhmm(from + length)]);

const world = fc.record({
  zone: fc.constantFrom(...ZONES),
  weekly: fc.option(fc.dictionary(fc.constantFrom(...WEEKDAYS), fc.array(written, { maxLength: 3 })), { freq: 3 }),
  duration: fc.integer({ min: 1, max: 48 }).map((n) => n * 5),
  interval: fc.integer({ min: 1, max: 24 }).map((n) => n * 5),
  notice: fc.constantFrom(0, 60, 600),
  buffer: fc.constantFrom(0, 10),
  // A window of up to two days within the first five, around the DST changes of late March.
  from: fc.integer({ min: 0, max: 5 * 288 }),
  length: fc.integer({ min: 1, max: 2 * 288 }),
  probes: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 3, maxLength: 6 }),
});

describe.each(storeFixtures())('list, check and create agree on $name (issue 12)', (fixture) => {
  let store: Store;
  let deps: ExecuteDeps;
  let owner: Principal;
  let load: GeneratedHostsWorld['load'];
  let n = 0;
  const seen = { booked: 0, refused: 0 };

  beforeAll(async () => {
    ({ store, deps, owner, load } = await openGeneratedHostsWorld(await fixture.open(), T0, ['bookings:create', 'slots:read']));
  });
  afterAll(() => fixture.cleanup());

  it('a start is listed exactly when check says available, and then it books; otherwise the create is refused', async () => {
    await fc.assert(
      fc.asyncProperty(world, async (w) => {
        const username = `t${++n}`;
        const eventTypeId = `7e000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
        await load({
          users: [
            {
              username,
              email: `${username}@example.test`,
              timezone: w.zone,
              ...(w.weekly ? { schedule: { timezone: w.zone, weekly: w.weekly } } : {}),
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
              minimum_notice_minutes: w.notice,
              future_limit_days: 4,
              buffer_before_minutes: w.buffer,
            },
          ],
        });
        const origin = Date.parse(T0);
        const window = { startMs: origin + w.from * FIVE_MINUTES, endMs: origin + (w.from + w.length) * FIVE_MINUTES };
        const iso = (ms: number) => new Date(ms).toISOString();
        const listed = (
          (await listSlots(deps, owner, { event_type_id: eventTypeId, start: iso(window.startMs), end: iso(window.endMs) })).outcome
            .data as { slots: { start: string }[] }
        ).slots.map((s) => Date.parse(s.start));
        const steps = w.length;
        // Every listed start, and a few five-minute points anywhere in the window.
        const probes = new Set([...listed.slice(0, 4), ...w.probes.map((p) => window.startMs + Math.floor(p * steps) * FIVE_MINUTES)]);
        for (const t of probes) {
          const isListed = listed.includes(t);
          const check = (await checkSlot(deps, owner, { event_type_id: eventTypeId, start: iso(t) })).outcome.data as {
            available: boolean;
          };
          expect({ start: iso(t), available: check.available }).toEqual({ start: iso(t), available: isListed });
          let status: number | string;
          try {
            status = (
              await createBooking(
                deps,
                owner,
                { event_type_id: eventTypeId, start: iso(t), attendee: { email: 'kim@example.com' } },
                `k-${n}-${t}`,
              )
            ).outcome.status;
          } catch (error) {
            if (!isScheduleError(error)) throw error;
            status = error.code;
          }
          expect({ start: iso(t), status }).toEqual({ start: iso(t), status: isListed ? 201 : 'slot_unavailable' });
          if (isListed) seen.booked++;
          else seen.refused++;
          // Each probe against the host as it was: the booking just made is taken away again.
          await store.db.deleteFrom('bookings').where('event_type_id', '=', eventTypeId).execute();
        }
      }),
      { numRuns: Number(process.env.TRUTH_STORE_RUNS ?? 60), seed: 20261125 },
    );
    expect(seen.booked).toBeGreaterThan(10);
    expect(seen.refused).toBeGreaterThan(10);
  }, 60_000);
});
