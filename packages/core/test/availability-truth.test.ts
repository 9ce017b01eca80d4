import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../src/auth/principal.js';
import { type ManualClock, manualClock } from '../src/clock.js';
import type { ExecuteDeps } from '../src/operations/execute.js';
import type { Store } from '../src/storage/store.js';
import { loadWorkspace } from '../src/workspace/load-workspace.js';
import { parseWorkspace } from '../src/workspace/parse-workspace.js';
import { checkSlot, createBooking, listSlots } from './support/booking-calls.js';
import { testDeps } from './support/deps.js';
import { principalOf } from './support/organization.js';
import { storeFixtures } from './support/stores.js';

// Issue 12: the three wrong answers found with generated cases, pinned by
// name. In each, list, check and create must agree: a start is listed
// exactly when a check calls it available, and then it can be booked.

const SECRET = 'pat_truth_owner_all_scopes';
const ET = {
  touching: 'a1200000-0000-4000-8000-000000000001',
  allDay: 'a1200000-0000-4000-8000-000000000002',
  longAllDay: 'a1200000-0000-4000-8000-000000000003',
  overlapping: 'a1200000-0000-4000-8000-000000000004',
} as const;

const type = (id: string, owner: string, slug: string, duration: number, interval: number) => ({
  id,
  owner,
  slug,
  name: slug,
  duration_minutes: duration,
  slot_interval_minutes: interval,
  minimum_notice_minutes: 0,
  future_limit_days: 60,
});

const workspace = {
  users: [
    {
      username: 'tia',
      email: 'tia@example.test',
      role: 'owner',
      timezone: 'UTC',
      // Monday 09:00–12:00 and 12:00–17:00: two written intervals that touch.
      schedule: {
        timezone: 'UTC',
        weekly: {
          mon: [
            ['09:00', '12:00'],
            ['12:00', '17:00'],
          ],
        },
      },
    },
    // No schedule: free around the clock.
    { username: 'nia', email: 'nia@example.test', timezone: 'UTC' },
    {
      username: 'ole',
      email: 'ole@example.test',
      timezone: 'Europe/Berlin',
      // Monday 09:10–11:00 and 10:00–12:00 Berlin time: two written intervals that overlap.
      schedule: {
        timezone: 'Europe/Berlin',
        weekly: {
          mon: [
            ['09:10', '11:00'],
            ['10:00', '12:00'],
          ],
        },
      },
    },
  ],
  event_types: [
    type(ET.touching, 'tia', 'touching', 30, 15),
    type(ET.allDay, 'nia', 'all-day', 30, 15),
    type(ET.longAllDay, 'nia', 'long', 90, 30),
    type(ET.overlapping, 'ole', 'overlapping', 30, 30),
  ],
  tokens: [
    {
      name: 'owner',
      user: 'tia',
      secret: SECRET,
      scopes: ['bookings:read', 'bookings:create', 'slots:read'],
    },
  ],
};

describe.each(storeFixtures())('one availability truth on $name', (fixture) => {
  let store: Store;
  let clock: ManualClock;
  let deps: ExecuteDeps;
  let owner: Principal;

  beforeAll(async () => {
    store = await fixture.open();
    clock = manualClock('2026-01-01T00:00:00Z');
    deps = testDeps(store, clock);
    await loadWorkspace({ store, clock, ids: deps.ids }, parseWorkspace(JSON.stringify(workspace)));
    owner = await principalOf({ store, clock }, SECRET);
  });
  afterAll(() => fixture.cleanup());

  const listed = async (eventTypeId: string, start: string, end: string) =>
    ((await listSlots(deps, owner, { event_type_id: eventTypeId, start, end })).outcome.data as { slots: { start: string }[] }).slots.map(
      (s) => s.start,
    );
  const checked = async (eventTypeId: string, start: string) =>
    (await checkSlot(deps, owner, { event_type_id: eventTypeId, start })).outcome.data as { available: boolean };
  const booked = async (eventTypeId: string, start: string, key: string) =>
    (await createBooking(deps, owner, { event_type_id: eventTypeId, start, attendee: { email: 'kim@example.com' } }, key)).outcome.status;

  it('a meeting across two written intervals that touch (09:00–12:00 + 12:00–17:00) is listed, available and booked at 11:45', async () => {
    expect(await listed(ET.touching, '2026-01-05T11:30:00Z', '2026-01-05T12:15:00Z')).toEqual([
      '2026-01-05T11:30:00.000Z',
      '2026-01-05T11:45:00.000Z',
      '2026-01-05T12:00:00.000Z',
    ]);
    expect(await checked(ET.touching, '2026-01-05T11:45:00Z')).toEqual({ available: true, duration_minutes: 30 });
    expect(await booked(ET.touching, '2026-01-05T11:45:00Z', 'touching')).toBe(201);
  });

  it('a host without a schedule is free across local midnight: a 30-minute meeting at 23:45 is listed, available and booked', async () => {
    expect(await listed(ET.allDay, '2026-01-06T23:30:00Z', '2026-01-07T00:15:00Z')).toEqual([
      '2026-01-06T23:30:00.000Z',
      '2026-01-06T23:45:00.000Z',
      '2026-01-07T00:00:00.000Z',
    ]);
    expect(await checked(ET.allDay, '2026-01-06T23:45:00Z')).toEqual({ available: true, duration_minutes: 30 });
    expect(await booked(ET.allDay, '2026-01-06T23:45:00Z', 'midnight')).toBe(201);
  });

  it('90-minute slots every 30 minutes go on through local midnight for a host without a schedule', async () => {
    expect(await listed(ET.longAllDay, '2026-01-08T22:00:00Z', '2026-01-09T01:00:00Z')).toEqual([
      '2026-01-08T22:00:00.000Z',
      '2026-01-08T22:30:00.000Z',
      '2026-01-08T23:00:00.000Z',
      '2026-01-08T23:30:00.000Z',
      '2026-01-09T00:00:00.000Z',
      '2026-01-09T00:30:00.000Z',
    ]);
  });

  it('overlapping written intervals (09:10–11:00 + 10:00–12:00 Berlin) give one grid, whatever the window', async () => {
    const wide = await listed(ET.overlapping, '2026-01-05T08:00:00Z', '2026-01-05T11:00:00Z');
    const narrow = await listed(ET.overlapping, '2026-01-05T10:00:00Z', '2026-01-05T11:00:00Z');
    // One stretch 09:10–12:00 local (08:10Z–11:00Z), its grid anchored at 09:10 local.
    expect(wide).toEqual([
      '2026-01-05T08:10:00.000Z',
      '2026-01-05T08:40:00.000Z',
      '2026-01-05T09:10:00.000Z',
      '2026-01-05T09:40:00.000Z',
      '2026-01-05T10:10:00.000Z',
    ]);
    expect(narrow).toEqual(['2026-01-05T10:10:00.000Z']);
    expect(await checked(ET.overlapping, '2026-01-05T10:10:00Z')).toEqual({ available: true, duration_minutes: 30 });
    expect(await checked(ET.overlapping, '2026-01-05T10:00:00Z')).toMatchObject({ available: false, reason: 'slot_busy' });
    expect(await booked(ET.overlapping, '2026-01-05T10:10:00Z', 'overlapping')).toBe(201);
  });
});
