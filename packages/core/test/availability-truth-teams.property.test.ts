import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExecuteDeps } from '../src/operations/execute.js';
import type { Store } from '../src/storage/store.js';
import { checkSlot, createBooking, listSlots } from './support/booking-calls.js';
import { type GeneratedHostsWorld, openGeneratedHostsWorld } from './support/generated-hosts.js';
import { outcomeOf } from './support/hold-calls.js';
import { storeFixtures } from './support/stores.js';

// Issue 35: the availability truth holds for team types. For generated
// pools (round robin, collective, round robin with fixed hosts; zones,
// working hours, weights, priorities, bookings each host already has, a
// daily limit, buffers), a start is listed for the team exactly when check
// says available exactly when a create succeeds, and exactly when the model
// says so: every fixed host's own type (with the same rules) lists it and,
// when the pool has hosts to choose from, one of theirs does (the model: the
// single-host path, itself held to the truth by the other properties). A
// create goes to the host the rule names among those free: with no booking
// of the team type yet, the highest weight, then priority, then lowest id;
// a collective one to the pool's first host. Every host it names is then
// busy at the start for their own type.

const T0 = '2026-04-06T08:00:00.000Z';
const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York'] as const;
const HOURS = [
  { mon: [['09:00', '13:00']], tue: [['09:00', '13:00']] },
  { tue: [['10:00', '12:00']] },
  {
    tue: [
      ['08:00', '10:00'],
      ['14:00', '17:00'],
    ],
  },
  { wed: [['09:00', '17:00']] },
] as const;

const member = fc.record({
  zone: fc.constantFrom(...ZONES),
  hours: fc.constantFrom(...HOURS),
  weight: fc.integer({ min: 1, max: 3 }),
  priority: fc.integer({ min: 0, max: 2 }),
  // Bookings of the host's own type made first, at these picks of its free starts.
  before: fc.array(fc.nat(), { maxLength: 3 }),
  // For round robin with fixed hosts: whether this host meets every booking.
  fixed: fc.boolean(),
});

const world = fc.record({
  // Up to 12 hosts: more than one batch of reads (team-time.ts), so hosts whose starts are all listed are skipped.
  members: fc.array(member, { minLength: 1, maxLength: 12 }),
  kind: fc.constantFrom('round_robin', 'collective', 'with_fixed'),
  // Hosts in one zone with one week's hours: a collective pool then has starts in common beyond chance.
  shared: fc.boolean(),
  duration: fc.constantFrom(15, 30, 60),
  interval: fc.constantFrom(15, 30),
  buffer: fc.constantFrom(0, 10),
  maxPerDay: fc.option(fc.integer({ min: 1, max: 2 }), { freq: 3 }),
  probes: fc.array(fc.nat(), { minLength: 3, maxLength: 6 }),
});

describe.each(storeFixtures())('list, check and create agree for team types on $name (issue 35)', (fixture) => {
  let store: Store;
  let deps: ExecuteDeps;
  let world0: GeneratedHostsWorld;
  let n = 0;
  const seen = { free: 0, busy: 0, notFirstMember: 0, severalHosts: 0 };

  beforeAll(async () => {
    world0 = await openGeneratedHostsWorld(await fixture.open(), T0, ['bookings:create', 'slots:read']);
    ({ store, deps } = world0);
  });
  afterAll(() => fixture.cleanup());

  it("a start is listed exactly when check and create agree, exactly when the hosts' own types say so, and goes to the rule's hosts", async () => {
    await fc.assert(
      fc.asyncProperty(world, async (w) => {
        world0.clock.set(T0);
        const case_ = ++n;
        const names = w.members.map((_, i) => `t${case_}m${i}`);
        // A collective pool needs two hosts, round robin one to choose from (the last, when the draw fixed them all).
        const scheduling = w.kind === 'collective' && w.members.length > 1 ? 'collective' : 'round_robin';
        const fixed = w.members.map((m, i) =>
          scheduling === 'collective'
            ? true
            : w.kind === 'with_fixed' && m.fixed && (i < w.members.length - 1 || w.members.some((o) => !o.fixed)),
        );
        const fixedOnes = fixed.flatMap((f, i) => (f ? [i] : []));
        const rotating = fixed.flatMap((f, i) => (f ? [] : [i]));
        const rules = {
          duration_minutes: w.duration,
          slot_interval_minutes: w.interval,
          minimum_notice_minutes: 0,
          future_limit_days: 10,
          buffer_before_minutes: w.buffer,
          buffer_after_minutes: w.buffer,
          max_bookings_per_day: w.maxPerDay,
        };
        const teamId = `7e200000-0000-4000-8000-${String(case_).padStart(12, '0')}`;
        const ownId = (i: number) => `7e300000-0000-4000-8${String(i).padStart(3, '0')}-${String(case_).padStart(12, '0')}`;
        const hoursOf = (m: (typeof w.members)[number]) => (w.shared ? w.members[0]! : m);
        await world0.load({
          users: w.members.map((m, i) => ({
            username: names[i],
            email: `${names[i]}@example.test`,
            timezone: hoursOf(m).zone,
            schedule: { timezone: hoursOf(m).zone, weekly: hoursOf(m).hours },
          })),
          event_types: [
            // The hosts' own types have no limit: their bookings would count against their own type's, not the team's.
            ...w.members.map((_, i) => ({ id: ownId(i), owner: names[i], slug: 'own', name: 'Own', ...rules, max_bookings_per_day: null })),
            {
              id: teamId,
              owner: 'owner',
              slug: `team-${case_}`,
              name: 'Team',
              ...rules,
              scheduling,
              hosts: w.members.map((m, i) => ({ username: names[i], weight: m.weight, priority: m.priority, fixed: fixed[i] })),
            },
          ],
        });
        const ids = await Promise.all(
          names.map(async (u) => (await store.db.selectFrom('users').select('id').where('username', '=', u).executeTakeFirstOrThrow()).id),
        );
        // Tuesday and Wednesday, a day after the clock.
        const window = { start: '2026-04-07T00:00:00.000Z', end: '2026-04-09T00:00:00.000Z' };
        const iso = (ms: number) => new Date(ms).toISOString();
        const listOf = async (eventTypeId: string) =>
          (
            (await listSlots(deps, world0.owner, { event_type_id: eventTypeId, ...window })).outcome.data as { slots: { start: string }[] }
          ).slots.map((s) => Date.parse(s.start));
        for (const [i, m] of w.members.entries()) {
          const own = await listOf(ownId(i));
          for (const [j, pick] of m.before.entries()) {
            if (own.length === 0) break;
            // Two picks of one start: the second is refused, as it should be.
            await outcomeOf(
              createBooking(
                deps,
                world0.owner,
                { event_type_id: ownId(i), start: iso(own[pick % own.length]!), attendee: { email: `b${j}@example.com` } },
                `pre-${case_}-${i}-${j}`,
              ),
            );
          }
        }
        const freeOf = await Promise.all(w.members.map(async (_, i) => new Set(await listOf(ownId(i)))));
        const union = [...new Set((rotating.length > 0 ? rotating : fixedOnes).flatMap((i) => [...freeOf[i]!]))];
        const model = union.filter((t) => fixedOnes.every((i) => freeOf[i]!.has(t))).sort((a, b) => a - b);
        const listed = await listOf(teamId);
        expect(listed).toEqual(model);

        // Probes: the model's starts and, from the first host's own grid, some it does not list.
        const grid = Array.from({ length: 96 * 2 }, (_, k) => Date.parse(window.start) + k * w.interval * 60_000);
        const probes = new Set(
          w.probes.map((p, k) => (k % 2 === 0 && model.length > 0 ? model[p % model.length]! : grid[p % grid.length]!)),
        );
        for (const t of probes) {
          const isFree = model.includes(t);
          const check = (await checkSlot(deps, world0.owner, { event_type_id: teamId, start: iso(t) })).outcome.data as {
            available: boolean;
          };
          const created = await createBooking(
            deps,
            world0.owner,
            { event_type_id: teamId, start: iso(t), attendee: { email: 'kim@example.com' } },
            `team-${case_}-${t}`,
          ).then(
            (r) => {
              const booking = r.outcome.data as { host: { user_id: string }; hosts: { user_id: string }[] };
              return {
                status: r.outcome.status as number | string,
                host: booking.host.user_id,
                hosts: booking.hosts.map((h) => h.user_id),
              };
            },
            (error: { code: string }) => ({ status: error.code, host: undefined, hosts: [] }),
          );
          const status = created.status;
          expect({ start: iso(t), available: check.available, status }).toEqual({
            start: iso(t),
            available: isFree,
            status: isFree ? 201 : 'slot_unavailable',
          });
          if (!isFree) {
            seen.busy++;
            continue;
          }
          seen.free++;
          const free = rotating.map((i) => ({ ...w.members[i]!, id: ids[i]! })).filter((_, k) => freeOf[rotating[k]!]!.has(t));
          free.sort((a, b) => b.weight - a.weight || b.priority - a.priority || (a.id < b.id ? -1 : 1));
          const host = rotating.length > 0 ? free[0]!.id : ids[0]!;
          const hosts = [host, ...fixedOnes.map((i) => ids[i]!).filter((id) => id !== host)];
          expect({ start: iso(t), host: created.host, hosts: created.hosts }).toEqual({ start: iso(t), host, hosts });
          if (host !== ids[0]) seen.notFirstMember++;
          if (hosts.length > 1) seen.severalHosts++;
          // Every host of the booking is now busy at the start, for their own type too.
          for (const id of hosts) {
            const own = ownId(ids.indexOf(id));
            const check = (await checkSlot(deps, world0.owner, { event_type_id: own, start: iso(t) })).outcome.data as {
              available: boolean;
            };
            expect({ start: iso(t), host: id, available: check.available }).toEqual({ start: iso(t), host: id, available: false });
          }
          // Each probe against the pool as the bookings made first left it.
          const made = store.db.selectFrom('bookings').select('uid').where('event_type_id', '=', teamId);
          await store.db.deleteFrom('booking_hosts').where('booking_uid', 'in', made).execute();
          await store.db.deleteFrom('bookings').where('event_type_id', '=', teamId).execute();
        }
      }),
      { numRuns: Number(process.env.TRUTH_TEAM_RUNS ?? 40), seed: 20261128 },
    );
    expect(seen.free).toBeGreaterThan(20);
    expect(seen.busy).toBeGreaterThan(10);
    expect(seen.notFirstMember).toBeGreaterThan(5);
    expect(seen.severalHosts).toBeGreaterThan(10);
  });
});
